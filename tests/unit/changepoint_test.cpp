// Change-point detection: known answers on step series, the stable-phase rule, and a small
// seeded study of its error rates (the full study is tests/validation/changepoints.cpp).
#include <gtest/gtest.h>

#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "mcpilot/error.hpp"
#include "mcpilot/io/readings_csv.hpp"
#include "mcpilot/stats/changepoint.hpp"
#include "stats/changepoint_parts.hpp"

using namespace mcpilot;

namespace MCPILOT_TEST_FILE {

// Levels held for the given lengths, plus noise of the given sd.
std::vector<double> steps(const std::vector<std::pair<std::size_t, double>>& parts, double sd,
                          std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  boost::random::normal_distribution<double> noise(0, sd);
  std::vector<double> x;
  for (auto [len, level] : parts)
    for (std::size_t i = 0; i < len; ++i) x.push_back(level + (sd > 0 ? noise(rng) : 0.0));
  return x;
}

bool found_near(const changepoint_result& r, std::size_t where, std::size_t tolerance) {
  for (std::size_t c : r.changepoints)
    if (static_cast<std::size_t>(std::labs(static_cast<long>(c) - static_cast<long>(where))) <=
        tolerance)
      return true;
  return false;
}

TEST(Changepoints, NoiselessStepIsFoundExactly) {
  const auto x = steps({{100, 0.0}, {200, 5.0}}, 0, 1);
  const changepoint_result r = detect_changepoints(x);
  ASSERT_EQ(r.changepoints, std::vector<std::size_t>{100});
  ASSERT_EQ(r.p_values.size(), 1u);
  // Every mean is tied within its side, so the test is Fisher's exact test on lower/higher:
  // the table [[100, 0], [0, 200]] is the most extreme one with these margins, and its
  // probability is 1 / C(300, 100) = 2.4048569665297775e-82 (Python: 1/math.comb(300, 100)).
  // (Not "p <= alpha/n", which the pruning itself guarantees for every change-point kept.)
  EXPECT_NEAR(r.p_values[0], 2.4048569665297775e-82, 1e-12 * 2.4048569665297775e-82);
  EXPECT_EQ(r.stable_begin, 100u);
  EXPECT_EQ(r.stable_end, 300u);
  EXPECT_TRUE(r.accepted);
}

TEST(Changepoints, WarmupAndCooldownOnNoisyReadings) {
  // 50 readings 3 sd low, 400 stable, 50 readings 2 sd high.
  const auto x = steps({{50, -3.0}, {400, 0.0}, {50, 2.0}}, 1.0, 7);
  const changepoint_result r = detect_changepoints(x);
  ASSERT_EQ(r.changepoints.size(), 2u);
  EXPECT_NEAR(static_cast<double>(r.changepoints[0]), 50, 3);
  EXPECT_NEAR(static_cast<double>(r.changepoints[1]), 450, 3);
  // Not "p <= alpha/n" (the pruning guarantees it) but the power the shifts give: by the normal
  // approximation of the rank-sum test, a shift of d sd between 50 and 400 iid readings has
  // P(X < Y) = Phi(d / sqrt 2), z = (Phi(d/sqrt 2) - 1/2) n1 n2 / sqrt(n1 n2 (n1 + n2 + 1) / 12):
  // 11.1 for d = 3 and 9.7 for d = 2, p ~ 1e-28 and 3e-22. z has sd ~ 1 around that, so p must
  // be below 1e-12 (z > 7.1) on any seed.
  for (double p : r.p_values) EXPECT_LT(p, 1e-12);
  EXPECT_EQ(r.stable_begin, r.changepoints[0]);
  EXPECT_EQ(r.stable_end, r.changepoints[1]);
  EXPECT_TRUE(r.accepted);
}

// The segments a result's change-points cut, by hand: readings 1 1 1 | 2 4 6 6 | 5 5, the
// middle one the stable phase; means 1, 4.5, 5, or as a rate's reciprocals 1, 1/4.5, 1/5.
TEST(Changepoints, SegmentsAndTheirMeans) {
  const std::vector<double> x = {1, 1, 1, 2, 4, 6, 6, 5, 5};
  changepoint_result r;
  r.n = x.size();
  r.changepoints = {3, 7};
  r.stable_begin = 3;
  r.stable_end = 7;
  r.accepted = true;
  const auto s = changepoint_segments(x, r, false);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].begin, 0u);
  EXPECT_EQ(s[0].end, 3u);
  EXPECT_EQ(s[1].begin, 3u);
  EXPECT_EQ(s[1].end, 7u);
  EXPECT_EQ(s[2].end, 9u);
  EXPECT_DOUBLE_EQ(s[0].mean, 1);
  EXPECT_DOUBLE_EQ(s[1].mean, 4.5);
  EXPECT_DOUBLE_EQ(s[2].mean, 5);
  EXPECT_FALSE(s[0].stable);
  EXPECT_TRUE(s[1].stable);
  EXPECT_FALSE(s[2].stable);
  EXPECT_DOUBLE_EQ(changepoint_segments(x, r, true)[1].mean, 1 / 4.5);
  r.accepted = false;  // the longest segment does not hold half: none is the stable phase
  for (const auto& seg : changepoint_segments(x, r, false)) EXPECT_FALSE(seg.stable);
  r.changepoints.clear();  // no change-point: one segment, the whole series
  EXPECT_EQ(changepoint_segments(x, r, false).size(), 1u);
}

TEST(Changepoints, ConstantSeriesHasNone) {
  for (double level : {0.0, 0.1, 1e9 + 0.25}) {
    const std::vector<double> x(1000, level);
    const changepoint_result r = detect_changepoints(x);
    EXPECT_TRUE(r.changepoints.empty()) << level;
    EXPECT_EQ(r.stable_begin, 0u);
    EXPECT_EQ(r.stable_end, 1000u);
    EXPECT_TRUE(r.accepted);
  }
}

TEST(Changepoints, NoStablePhaseWhenNoSegmentHoldsHalf) {
  // Three clear levels of 100 readings: the longest segment holds a third.
  const auto x = steps({{100, 0.0}, {100, 5.0}, {100, 10.0}}, 0.5, 3);
  const changepoint_result r = detect_changepoints(x);
  ASSERT_EQ(r.changepoints.size(), 2u);
  EXPECT_NEAR(static_cast<double>(r.changepoints[0]), 100, 2);
  EXPECT_NEAR(static_cast<double>(r.changepoints[1]), 200, 2);
  EXPECT_EQ(r.stable_end - r.stable_begin, 100u);
  EXPECT_FALSE(r.accepted);
  // Exactly half is not more than half.
  const auto half = steps({{100, 0.0}, {100, 5.0}}, 0.5, 4);
  const changepoint_result h = detect_changepoints(half);
  ASSERT_EQ(h.changepoints.size(), 1u);
  EXPECT_FALSE(h.accepted);
}

TEST(Changepoints, ShortSeriesAreNotSplit) {
  const auto x = steps({{29, 0.0}, {30, 50.0}}, 0.1, 5);  // 59 < 2 min_segment
  const changepoint_result r = detect_changepoints(x);
  EXPECT_TRUE(r.changepoints.empty());
  EXPECT_EQ(r.proposed, 0u);
  EXPECT_TRUE(r.accepted);
  EXPECT_EQ(r.stable_end, 59u);
  EXPECT_FALSE(detect_changepoints(std::vector<double>{}).accepted);
}

TEST(Changepoints, NonFiniteReadingIsRejectedByIndex) {
  std::vector<double> x(100, 1.0);
  x[42] = std::nan("");
  try {
    detect_changepoints(x);
    FAIL() << "no exception";
  } catch (const reading_error& e) {
    EXPECT_EQ(e.index(), 42u);
  }
}

TEST(Changepoints, SuccessRateChangeIsFoundWithFisher) {
  // 0/1 readings, 50% then 95% after 300 of 1000: the subsession means are mostly tied, so the
  // classes test decides; the change is found within 20 readings.
  std::mt19937_64 rng(11);
  std::vector<double> x(1000);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = boost::random::bernoulli_distribution<double>(i < 300 ? 0.5 : 0.95)(rng) ? 1 : 0;
  const changepoint_result r = detect_changepoints(x);
  EXPECT_TRUE(found_near(r, 300, 20));
  EXPECT_TRUE(r.accepted);
}

TEST(Changepoints, DetectionIsDueEveryRoundThenEveryPercent) {
  EXPECT_TRUE(changepoint_detection_due(60, 0));
  EXPECT_TRUE(changepoint_detection_due(61, 60));
  EXPECT_TRUE(changepoint_detection_due(200, 199));
  EXPECT_FALSE(changepoint_detection_due(200, 200));
  EXPECT_FALSE(changepoint_detection_due(203, 201));  // 0.995% more
  EXPECT_TRUE(changepoint_detection_due(204, 201));   // 1.5% more
  EXPECT_FALSE(changepoint_detection_due(1009, 1000));
  EXPECT_TRUE(changepoint_detection_due(1010, 1000));
}

TEST(Changepoints, ConcurrentCallsAgreeWithSerial) {
  std::vector<std::vector<double>> series;
  for (std::uint64_t s = 0; s < 8; ++s)
    series.push_back(steps({{40 + 10 * s, -1.0}, {400, 0.0}}, 1.0, 100 + s));
  std::vector<changepoint_result> serial;
  for (const auto& x : series) serial.push_back(detect_changepoints(x));
  std::vector<changepoint_result> parallel(series.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < series.size(); ++i)
    threads.emplace_back([&, i] { parallel[i] = detect_changepoints(series[i]); });
  for (auto& t : threads) t.join();
  for (std::size_t i = 0; i < series.size(); ++i) {
    EXPECT_EQ(parallel[i].changepoints, serial[i].changepoints);
    EXPECT_EQ(parallel[i].p_values, serial[i].p_values);
  }
}

// A small version of the validation study, seeded. The revised Pilot reports a false rate of at
// most 0.7% on independent readings and about 96% detection of this warm-up; the thresholds are
// those of the issue (2% and 90%). With 400 series and a true false rate of 0.7% the count
// exceeds 8 (2%) with probability 1.5e-3; with 300 series and 96% detection fewer than 270 (90%)
// are found with probability < 1e-5. So a failure means the method got worse, not bad luck.
TEST(Changepoints, SmallStudyFalseRateOnIndependentReadings) {
  std::mt19937_64 rng(20240601);
  boost::random::normal_distribution<double> normal;
  int reported = 0, series = 0;
  for (std::size_t n : {100, 300, 1000}) {
    const int count = n == 1000 ? 100 : 150;
    for (int s = 0; s < count; ++s, ++series) {
      std::vector<double> x(n);
      for (double& v : x) v = normal(rng);
      if (!detect_changepoints(x).changepoints.empty()) ++reported;
    }
  }
  ASSERT_EQ(series, 400);
  EXPECT_LE(reported, 8) << "false change-points in " << reported << " of 400 iid series";
}

TEST(Changepoints, SmallStudyDetectsOneSdWarmup) {
  std::mt19937_64 rng(20240602);
  boost::random::normal_distribution<double> normal;
  int found = 0;
  for (int s = 0; s < 300; ++s) {
    std::vector<double> x(500);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = normal(rng) - (i < 50 ? 1.0 : 0.0);
    if (found_near(detect_changepoints(x), 50, 20)) ++found;
  }
  EXPECT_GE(found, 270) << "1-sd warm-up of 50 among 500 found in " << found << " of 300";
}

// A series longer than max_points is searched on the means of b = ceil(n / max_points) readings,
// the last mean also taking the n mod b left over (changepoint.hpp, step 4). The reference is the
// search of those means, computed here, with the positions multiplied by b. The table bound is
// fixed at 2^18 so that both searches plan their tests alike (the long series' own bound, by
// its length in readings, is 2^18 too; the means', by their count, would be larger).
TEST(Changepoints, LongSeriesIsSearchedOnMeansOfItsReadings) {
  // 100,003 readings: b = 4, 25,000 means, the last of 7 readings. A warm-up of 2,001 readings
  // 1 sd low, a shift of 0.3 sd at 40,002, and the stable phase after it.
  const auto x = steps({{2001, -1.0}, {38001, 0.0}, {60001, 0.3}}, 1.0, 41);
  ASSERT_EQ(x.size(), 100003u);
  changepoint_options o;
  o.rank_table_work = std::size_t{1} << 18;
  const changepoint_result r = detect_changepoints(x, o);

  constexpr std::size_t b = 4, points = 25000;
  std::vector<double> means(points);
  for (std::size_t j = 0; j < points; ++j) {
    const std::size_t begin = j * b, end = j + 1 == points ? x.size() : begin + b;
    long double s = 0;
    for (std::size_t i = begin; i < end; ++i) s += x[i];
    means[j] = static_cast<double>(s / static_cast<long double>(end - begin));
  }
  changepoint_options whole = o;
  whole.max_points = 0;
  const changepoint_result ref = detect_changepoints(means, whole);
  ASSERT_EQ(ref.resolution, 1u);
  ASSERT_GE(ref.changepoints.size(), 2u) << "the reference must find both changes";

  EXPECT_EQ(r.resolution, b);
  EXPECT_EQ(r.n, x.size());
  EXPECT_EQ(r.proposed, ref.proposed);
  ASSERT_EQ(r.changepoints.size(), ref.changepoints.size());
  for (std::size_t k = 0; k < r.changepoints.size(); ++k)
    EXPECT_EQ(r.changepoints[k], b * ref.changepoints[k]);
  EXPECT_EQ(r.p_values, ref.p_values);
  // Where the search reading by reading (max_points = 0) puts them: 2002 and 39963.
  EXPECT_TRUE(found_near(r, 2002, b));
  EXPECT_TRUE(found_near(r, 39963, b));
  // The stable phase is counted in readings: the last segment ends at n, not at b * 25,000.
  EXPECT_TRUE(r.accepted);
  EXPECT_EQ(r.stable_end, x.size());
  EXPECT_EQ(r.stable_begin, r.changepoints.back());
}

// max_points is a length in readings: a series of exactly max_points is searched reading by
// reading, one more is searched on means of 2; 0 searches every series reading by reading.
TEST(Changepoints, MaxPointsIsTheLongestSeriesSearchedReadingByReading) {
  const auto x = steps({{300, -2.0}, {700, 0.0}}, 1.0, 43);
  changepoint_options o;
  o.max_points = 1000;
  const changepoint_result at_limit = detect_changepoints(x, o);
  EXPECT_EQ(at_limit.resolution, 1u);
  EXPECT_TRUE(found_near(at_limit, 300, 5));
  o.max_points = 999;
  const changepoint_result past = detect_changepoints(x, o);
  EXPECT_EQ(past.resolution, 2u);
  ASSERT_FALSE(past.changepoints.empty());
  for (std::size_t c : past.changepoints) EXPECT_EQ(c % 2, 0u);
  EXPECT_TRUE(found_near(past, 300, 2));
  o.max_points = 0;
  EXPECT_EQ(detect_changepoints(x, o).changepoints, at_limit.changepoints);
}

// The search reading by reading past 2^18 readings rebuilds each test's prefix sums from every
// 64th (sparse_prefix_sums.hpp). With max_points = 0 it is still the way a long series can be
// searched: a 1-sd warm-up of 500 among 300,000 readings is found where it is.
TEST(Changepoints, WholeResolutionSearchOfALongSeries) {
  const auto x = steps({{500, -1.0}, {299500, 0.0}}, 1.0, 47);
  changepoint_options o;
  o.max_points = 0;
  const changepoint_result r = detect_changepoints(x, o);
  EXPECT_EQ(r.resolution, 1u);
  EXPECT_TRUE(found_near(r, 500, 20));
  EXPECT_TRUE(r.accepted);
  EXPECT_EQ(r.stable_end, x.size());
}

TEST(Changepoints, ShiftsBelowTheMinimumAreMerged) {
  // Three levels of 10,000 readings, 100, 100.3 and 100.6, noise sd 1. Each step is 0.3 / (sd
  // sqrt(2 / 10^4)) = 21 standard errors of the difference of two neighbours' means, so the exact
  // test keeps both (p far below alpha / n) and no segment holds more than half. Steps of 0.3% are
  // below a minimum of 0.5% of the mean: merged smallest first, one segment is left. A step of 1%
  // is above it and stays.
  const std::vector<double> x = steps({{10000, 100}, {10000, 100.3}, {10000, 100.6}}, 1, 31);
  const changepoint_result kept = detect_changepoints(x);
  EXPECT_EQ(kept.changepoints.size(), 2u);
  EXPECT_FALSE(kept.accepted);
  changepoint_options o;
  o.min_relative_shift = 0.005;
  const changepoint_result merged = detect_changepoints(x, o);
  EXPECT_TRUE(merged.changepoints.empty());
  EXPECT_EQ(merged.p_values.size(), merged.changepoints.size());
  EXPECT_TRUE(merged.accepted);
  EXPECT_EQ(merged.stable_begin, 0u);
  EXPECT_EQ(merged.stable_end, x.size());

  const std::vector<double> y = steps({{10000, 100}, {10000, 101}, {10000, 101.3}}, 1, 32);
  const changepoint_result one = detect_changepoints(y, o);
  ASSERT_EQ(one.changepoints.size(), 1u);
  EXPECT_TRUE(found_near(one, 10000, 30));
  EXPECT_EQ(one.p_values.size(), 1u);
  EXPECT_TRUE(one.accepted);
  EXPECT_EQ(one.stable_begin, one.changepoints[0]);
}

// The fallback test on few batches (stats/changepoint_parts.hpp): Student's pooled t on batch
// medians. Each batch below is constant but for one far reading, so its median is the constant.
// SciPy 1.10.1: scipy.stats.ttest_ind([1.0, 1.2, 0.9, 1.1], [1.5, 1.4, 1.7, 1.6, 1.45, 1.55],
// equal_var=True).pvalue = 0.0002015932083735124; ([2.0, 2.3, 1.9, 2.2], [1.0, 1.2, 0.8, 1.1,
// 0.9]) gives 2.6123138781849047e-05.
TEST(Changepoints, FewBatchTestIsPooledTOnBatchMedians) {
  auto batches = [](std::vector<double>& x, const std::vector<double>& values, std::size_t q) {
    for (const double v : values) {
      for (std::size_t i = 0; i < q; ++i) x.push_back(v);
      x[x.size() - q / 2] = 100;  // a far reading: not the median of 10 or 11
    }
  };
  std::vector<double> x;
  batches(x, {1.0, 1.2, 0.9, 1.1}, 10);
  batches(x, {1.5, 1.4, 1.7, 1.6, 1.45, 1.55}, 10);
  const auto r = detail::few_batch_test(x, 40, true, 40, 60, true);
  EXPECT_TRUE(r.valid);  // 6 batches of the longer side: too few for the corrected rule to judge
  EXPECT_NEAR(r.p, 0.0002015932083735124, 1e-12);

  // The shorter side on the right, 45 readings: q = 11, and the reading past its 4 batches is
  // not used.
  std::vector<double> y;
  batches(y, {1.0, 1.2, 0.8, 1.1, 0.9}, 11);
  batches(y, {2.0, 2.3, 1.9, 2.2}, 11);
  y.push_back(-50);
  const auto s = detail::few_batch_test(y, 55, false, 45, 55, true);
  EXPECT_TRUE(s.valid);
  EXPECT_NEAR(s.p / 2.6123138781849047e-05, 1, 1e-9);

  // With 8 batches of the longer side the corrected rule has judged q: no test.
  std::vector<double> z;
  batches(z, {1.0, 1.2, 0.9, 1.1}, 10);
  batches(z, {1.5, 1.4, 1.7, 1.6, 1.45, 1.55, 1.5, 1.5}, 10);
  EXPECT_FALSE(detail::few_batch_test(z, 40, true, 40, 80, true).valid);
  // With fewer than 8, only if the plain rule chose q or less.
  EXPECT_FALSE(detail::few_batch_test(x, 40, true, 40, 60, false).valid);
}

// docs/statistics.md, "A step among wandering runs": a recorded bench session, 20 runs of 30 ms,
// then about 3.5 ms until run 300 and 5.6 ms after, each level wandering over tens of runs. The
// rank test cannot test the step (no q with 8 batches of either side has uncorrelated means);
// the fallback finds it, and without it nothing is found.
TEST(Changepoints, AStepAmongWanderingRunsIsFound) {
  const std::vector<double> x =
      read_readings(std::string(MCPILOT_SOURCE_DIR) + "/docs/data/step-among-wandering-runs.csv")
          .values;
  ASSERT_EQ(x.size(), 640u);
  const changepoint_result r = detect_changepoints(x);
  ASSERT_EQ(r.changepoints.size(), 1u);
  EXPECT_NEAR(static_cast<double>(r.changepoints[0]), 300, 10);
  EXPECT_LE(r.p_values[0], 0.01 / 640);
  EXPECT_TRUE(r.accepted);
  changepoint_options without;
  without.few_batch_fallback = false;
  EXPECT_TRUE(detect_changepoints(x, without).changepoints.empty());
}

}  // namespace MCPILOT_TEST_FILE
