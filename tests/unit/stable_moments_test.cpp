// stable_moments: what compare and bench give Welch's test for one analysed series.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "../support/expect_rel.hpp"
#include "mcpilot/rng.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/precision.hpp"
#include "mcpilot/stats/stable_moments.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

// By hand: readings 3 to 8 of 9 (two of warm-up, one left over), in subsessions of 2: means
// 2, 6, 10; their mean 6 and variance ((-4)^2 + 0 + 4^2) / 2 = 16, times the inflation 1.5.
TEST(StableMoments, TheStablePhasesSubsessionMeansWithTheIntervalsInflation) {
  const std::vector<double> x = {100, 100, 1, 3, 5, 7, 9, 11, 50};
  analysis a;
  a.warmup.removed_begin = 2;
  a.n_used = 6;
  a.subsession_size = 2;
  a.subsession_count = 3;
  a.variance_inflation = 1.5;
  const auto m = stable_moments(x, a);
  ASSERT_TRUE(m);
  EXPECT_DOUBLE_EQ(m->mean, 6);
  EXPECT_DOUBLE_EQ(m->variance, 24);
  EXPECT_EQ(m->count, 3);
  a.variance_inflation = 1;  // Pilot's interval
  EXPECT_DOUBLE_EQ(stable_moments(x, a)->variance, 16);
}

TEST(StableMoments, NoneWithoutTwoSubsessionMeans) {
  const std::vector<double> x = {1, 2, 3, 4};
  analysis a;  // no subsession size: no interval
  EXPECT_FALSE(stable_moments(x, a));
  a.n_used = 2;
  a.subsession_size = 2;
  a.subsession_count = 1;
  EXPECT_FALSE(stable_moments(x, a));
  a.n_used = 6;  // more readings than there are
  a.subsession_count = 3;
  EXPECT_THROW(stable_moments(x, a), std::invalid_argument);
}

// On an analysis analyze() made of AR(1) readings (rho 0.8): the moments' mean is the reported
// mean, their count the subsession count, and their variance carries the reported inflation.
TEST(StableMoments, AgreesWithAnalyze) {
  philox_stream rng(7, 0);
  std::vector<double> x;
  double y = 0;
  for (int i = 0; i < 20000; ++i) {
    y = 0.8 * y + (static_cast<double>(rng() % 2001) - 1000) / 1000;
    x.push_back(10 + y);
  }
  analysis_options o;
  o.requirements = *preset("normal");
  const analysis a = analyze(x, o);
  ASSERT_TRUE(a.subsession_size && a.mean);
  ASSERT_GT(a.variance_inflation, 1);
  const auto m = stable_moments(x, a);
  ASSERT_TRUE(m);
  EXPECT_EQ(a.interval, interval_method::adjusted);
  EXPECT_REL(m->mean, *a.mean, 1e-12);
  EXPECT_EQ(m->count, static_cast<double>(*a.subsession_count));
  // The subsession means' variance by plain sums, times the reported inflation.
  const std::size_t q = *a.subsession_size, h = *a.subsession_count;
  std::vector<double> means(h, 0.0);
  for (std::size_t j = 0; j < h; ++j)
    for (std::size_t i = 0; i < q; ++i) means[j] += x[a.warmup.removed_begin + j * q + i] / q;
  double mean = 0, var = 0;
  for (double v : means) mean += v / h;
  for (double v : means) var += (v - mean) * (v - mean) / (h - 1);
  EXPECT_REL(m->variance, var * a.variance_inflation, 1e-9);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
