// bench's floor in seconds (bench_settings::min_seconds, --min-seconds): no verdict before each
// command's runs add up to it, and the round after the interval is met runs what is left of it,
// not a doubling. Simulated runs of 10 ms + N(0, 0.2 ms), so that the counts are known.
#include <gtest/gtest.h>

#include "../support/simulated_bench.hpp"
#include "mcpilot/error.hpp"

namespace mcpilot::programs {
namespace MCPILOT_TEST_FILE {

bench_settings simulated(double min_seconds, std::uint64_t& run) {
  bench_settings s = test::simulated_bench([](std::uint64_t) { return 0.01; }, 2e-4, 7, run);
  s.min_seconds = min_seconds;
  return s;
}

// The normal preset's first round is 2 x 50 = 100 runs, about 1 s, and its interval is far
// within +-5% (CV 2%): without a floor the session stops there.
TEST(BenchFloor, WithoutOneTheFirstRoundThatMeetsTheWidthStops) {
  std::uint64_t run = 0;
  bench_session s(simulated(0, run));
  s.run();
  EXPECT_EQ(s.stopped_because(), stop_reason::converged);
  EXPECT_EQ(s.total_runs(), 100u);
  EXPECT_TRUE(s.floor_met());
}

// With a floor of 2.5 s the first round's 1 s is not a verdict; the next round runs the 1.5 s
// left at 10 ms a run, about 150 runs, and the session stops at about 250, not at a doubling
// (200) short of it nor a second doubling (400) past it.
TEST(BenchFloor, AVerdictWaitsForTheFloorAndOneRoundReachesIt) {
  std::uint64_t run = 0;
  bench_session s(simulated(2.5, run));
  s.run();
  EXPECT_EQ(s.stopped_because(), stop_reason::converged);
  EXPECT_TRUE(s.floor_met());
  EXPECT_GE(s.commands()[0].measured_seconds, 2.5);
  EXPECT_GE(s.total_runs(), 245u);
  EXPECT_LE(s.total_runs(), 260u);
}

// A limit reached below the floor is not a verdict, however narrow the interval.
TEST(BenchFloor, ALimitBelowTheFloorIsNotAVerdict) {
  std::uint64_t run = 0;
  bench_settings st = simulated(5, run);
  st.max_runs = 300;
  bench_session s(std::move(st));
  s.run();
  EXPECT_EQ(s.stopped_because(), stop_reason::max_runs);
  EXPECT_FALSE(s.floor_met());
  EXPECT_NEAR(s.commands()[0].measured_seconds, 3.0, 0.01);
}

TEST(BenchFloor, AFloorAboveTheTimeLimitOrBelowZeroIsRefused) {
  std::uint64_t run = 0;
  EXPECT_THROW(bench_session(simulated(61, run)), input_error);
  EXPECT_THROW(bench_session(simulated(-1, run)), input_error);
  EXPECT_NO_THROW(bench_session(simulated(60, run)));
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot::programs
