// The order of a %WORK_AMOUNT% session's amounts (programs/work_schedule.hpp): the seed's ramp,
// then ladders whose spacing halves, and a session on a simulated machine that uses them.
#include "mcpilot/programs/work_schedule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <string>
#include <vector>

#include "mcpilot/programs/bench_session.hpp"
#include "mcpilot/rng.hpp"

namespace mcpilot::programs {
namespace MCPILOT_TEST_FILE {

std::vector<double> take(work_schedule& s, std::size_t n, double seconds_per_unit) {
  std::vector<double> w;
  for (std::size_t i = 0; i < n; ++i) {
    w.push_back(s.next());
    s.record(w.back() * seconds_per_unit);
  }
  return w;
}

// By hand, the seed's k = 2 (B - n s) / (n (n - 1)) with B = 60 s, n = 10 and a first run of
// s = 1 s at w = 10: k = 100 / 90 s. Run i + 1 takes s + i k seconds, so its amount is
// 10 (1 + i k) rounded: 21.1, 32.2, 43.3, 54.4, 65.6, 76.7, 87.8, 98.9, 110.
TEST(WorkSchedule, TheRampGrowsEachRunByTheSameSeconds) {
  work_schedule s(10, 1000, 5, 60, 7);
  const auto w = take(s, 10, 0.1);  // the first run: 10 units in 1 s
  EXPECT_EQ(w, (std::vector<double>{10, 21, 32, 43, 54, 66, 77, 88, 99, 110}));
  EXPECT_EQ(s.ramp_runs(), 10u);
  EXPECT_FALSE(s.ramp_done());
  // Then the first ladder, 10 + 990 j / 4 rounded (257.5 and 752.5 away from zero), in a
  // seeded order.
  auto first = take(s, 5, 0.1);
  EXPECT_TRUE(s.ramp_done());
  EXPECT_EQ(s.ladders_done(), 1u);
  std::sort(first.begin(), first.end());
  EXPECT_EQ(first, (std::vector<double>{10, 258, 505, 753, 1000}));
}

TEST(WorkSchedule, TheRampStopsAtTheLargestAmount) {
  work_schedule s(10, 50, 5, 60, 7);
  EXPECT_EQ(take(s, 5, 0.1), (std::vector<double>{10, 21, 32, 43, 50}));
  EXPECT_EQ(s.ramp_runs(), 5u);
}

// A first run of 7 s leaves B - n s = 60 - 70 < 0: no room for a ramp, the ladders start.
TEST(WorkSchedule, NoRampWhenTheFirstRunTakesMostOfTheBudget) {
  work_schedule s(10, 1000, 5, 60, 7);
  take(s, 1, 0.7);
  EXPECT_EQ(s.ramp_runs(), 1u);
  auto w = take(s, 5, 0.7);
  EXPECT_EQ(s.ladders_done(), 1u);
  std::sort(w.begin(), w.end());
  EXPECT_EQ(w, s.ladder(0));
}

TEST(WorkSchedule, LaddersHalveTheirSpacingThreeTimes) {
  work_schedule s(0, 1024, 5, 0, 3);
  EXPECT_EQ(s.ramp_runs(), 0u);  // --ramp-seconds 0: no ramp, not even its first run
  const std::size_t sizes[] = {5, 9, 17, 33, 33};
  for (std::size_t k = 0; k < 5; ++k) {
    const auto l = s.ladder(k);
    EXPECT_EQ(l.size(), sizes[k]) << k;
    EXPECT_EQ(l.front(), 0);
    EXPECT_EQ(l.back(), 1024);
    if (k > 0) {  // each ladder holds the last one's amounts
      const auto prev = s.ladder(k - 1);
      EXPECT_TRUE(std::includes(l.begin(), l.end(), prev.begin(), prev.end())) << k;
    }
  }
  // Without a ramp every run is a ladder's, each ladder a permutation of its amounts.
  for (std::size_t k = 0; k < 4; ++k) {
    auto w = take(s, sizes[k], 0.001);
    EXPECT_EQ(s.ladders_done(), k + 1);
    std::sort(w.begin(), w.end());
    EXPECT_EQ(w, s.ladder(k)) << k;
  }
}

TEST(WorkSchedule, AmountsAreWholeAndMergedWhenTheRangeIsNarrow) {
  work_schedule s(1, 4, 5, 0, 3);
  EXPECT_EQ(s.ladder(0), (std::vector<double>{1, 2, 3, 4}));  // 1, 1.75, 2.5, 3.25, 4
  EXPECT_EQ(s.ladder(3), (std::vector<double>{1, 2, 3, 4}));
}

TEST(WorkSchedule, TheOrderDependsOnlyOnTheSeed) {
  work_schedule a(10, 1000, 5, 60, 11), b(10, 1000, 5, 60, 11), c(10, 1000, 5, 60, 12);
  const auto wa = take(a, 60, 0.01), wb = take(b, 60, 0.01), wc = take(c, 60, 0.01);
  EXPECT_EQ(wa, wb);
  EXPECT_NE(wa, wc);
}

// A session on a simulated machine (no processes): a run of w units takes 2 ms of start-up and
// 1 ms per unit, with 0.5 ms of noise. The rate's interval must hold 1000 units per second, and
// the runs must start with the ramp and then keep to the ladders' amounts.
TEST(WorkSchedule, ASessionFindsTheRateOfASimulatedMachine) {
  bench_settings st;
  st.commands = {"sim %WORK_AMOUNT%"};
  st.work_initial = 20;
  st.work_max = 200;
  st.ramp_seconds = 3;
  st.seed = 5;
  st.max_seconds = 60;
  st.requirements.ci_perc = 0.02;
  st.requirements.min_samples = 30;
  std::uint64_t run = 0;
  st.launch = [&](const std::vector<std::string>& argv, const child_options&) {
    philox_stream rng(99, run++);
    boost::random::normal_distribution<double> noise(0, 5e-4);
    child_result r;
    r.started = true;
    r.wall_seconds = 0.002 + 0.001 * std::stod(argv.back()) + noise(rng);
    return r;
  };
  bench_session session(std::move(st));
  session.run();
  ASSERT_EQ(session.stopped_because(), stop_reason::converged);
  const auto& c = session.commands()[0];
  const auto f = session.wps(c);
  ASSERT_TRUE(f && f->rate_low && f->rate_high);
  EXPECT_LE(*f->rate_low, 1000);
  EXPECT_GE(*f->rate_high, 1000);
  EXPECT_EQ(f->excluded_rounds, 0u);  // alpha = 2 ms > 0: nothing is too short
  // The first run at 20 units takes about 22 ms: k = 2 (3 - 0.22) / 90 = 61.8 ms, so each run
  // of the ramp is about 56 units longer than the last (20, 76, 132, 188), and the fifth is 200.
  ASSERT_GE(c.work.size(), 5u);
  EXPECT_EQ(c.work[0], 20);
  EXPECT_TRUE(std::is_sorted(c.work.begin(), c.work.begin() + session.schedule()->ramp_runs()));
  EXPECT_EQ(session.schedule()->ramp_runs(), 5u);
  for (const double w : c.work) EXPECT_EQ(w, std::round(w));
  EXPECT_GE(session.schedule()->ladders_done(), 2u);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot::programs
