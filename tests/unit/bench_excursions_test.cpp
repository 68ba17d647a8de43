// bench's warm-up removal keeps a burst the level came back from inside the stable phase, and
// --cut-excursions (bench_settings::keep_excursions off) gives Pilot's longest segment alone
// (docs/statistics.md, "Excursions"). Simulated runs of 10 ms + N(0, 0.2 ms) with runs 100-199
// at 13 ms, so that the segments are known: a step of 15 sd is found at its run.
#include <gtest/gtest.h>

#include "../support/simulated_bench.hpp"

namespace mcpilot::programs {
namespace MCPILOT_TEST_FILE {

// A floor of 5.9 s holds the verdict back until the burst is well behind: about 590 runs, the
// first round of 100 and one round for the rest of the floor.
bench_settings with_burst(bool keep_excursions, std::uint64_t& run) {
  bench_settings s = test::simulated_bench(
      [](std::uint64_t k) { return k >= 100 && k < 200 ? 0.013 : 0.010; }, 2e-4, 11, run);
  s.min_seconds = 5.9;
  s.keep_excursions = keep_excursions;
  return s;
}

const analysis& primary_of(const bench_session& s) {
  return s.commands()[0].eng->results()[primary].stats;
}

// Kept, the burst is part of the estimate: its 100 runs at 3 ms more, spread over the n_used runs
// the interval rests on (the noise's standard error there is under 0.01 ms).
TEST(BenchExcursions, ABurstTheLevelCameBackFromIsKeptInsideThePhase) {
  std::uint64_t run = 0;
  bench_session s(with_burst(true, run));
  s.run();
  ASSERT_EQ(s.stopped_because(), stop_reason::converged);
  ASSERT_GT(s.total_runs(), 500u);
  const analysis& a = primary_of(s);
  EXPECT_EQ(a.warmup.removed_begin, 0u);
  EXPECT_GE(a.warmup.excursions, 98u);
  EXPECT_LE(a.warmup.excursions, 102u);
  ASSERT_TRUE(a.mean);
  EXPECT_NEAR(*a.mean, 0.010 + 0.003 * 100 / static_cast<double>(a.n_used), 0.0001);
}

// Cut, the phase is the longest segment, from the end of the burst: runs 0-199 are removed, and
// the estimate is the 10-ms level alone.
TEST(BenchExcursions, CutTheyEndThePhaseAsPilotHasIt) {
  std::uint64_t run = 0;
  bench_session s(with_burst(false, run));
  s.run();
  ASSERT_EQ(s.stopped_because(), stop_reason::converged);
  const analysis& a = primary_of(s);
  EXPECT_EQ(a.warmup.excursions, 0u);
  EXPECT_GE(a.warmup.removed_begin, 198u);
  EXPECT_LE(a.warmup.removed_begin, 202u);
  ASSERT_TRUE(a.mean);
  EXPECT_NEAR(*a.mean, 0.010, 0.0001);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot::programs
