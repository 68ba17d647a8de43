// compare_means: what `mcpilot compare` reports, composed from Welch's test (itself checked
// against R in stats_welch_wps_test.cpp). The moments here are worked by hand:
//   A: mean 10, variance 4, 20 means; B: mean 12, variance 9, 30 means.
//   s^2 = 4/20 + 9/30 = 0.5, t = -2 / sqrt(0.5) = -2.8284271247461903,
//   df = 0.25 / ((4/20)^2 / 19 + (9/30)^2 / 29) = 47.99651567944251.
#include "mcpilot/stats/mean_comparison.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "../support/expect_rel.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

const sample_moments a{10, 4, 20}, b{12, 9, 30};

TEST(MeanComparison, OrdinaryIsWelchsTestAsItIs) {
  const mean_comparison c = compare_means(a, b, quantity_kind::ordinary, 0.95, 0, 2);
  EXPECT_REL(c.t, -2.8284271247461903, 1e-14);
  EXPECT_REL(c.test.df, 47.99651567944251, 1e-12);
  EXPECT_EQ(c.shown.diff, c.test.diff);
  EXPECT_EQ(c.shown.diff_low, c.test.diff_low);
  const welch_result w = welch_test(a, b, 0.95);
  EXPECT_EQ(c.test.p, w.p);
  EXPECT_LT(c.test.p, 0.05);  // |t| 2.83 on 48 df: p about 0.007
  EXPECT_TRUE(c.significant);
  EXPECT_FALSE(compare_means(a, b, quantity_kind::ordinary, 0.999, 0, 2).significant);
}

// For a rate the moments are of the reciprocals: 1/y-bar = 0.1 and 1/12. The rates' difference
// is 0.1 - 1/12 = 1/60, its variances by the delta method 4 / 10^4 and 9 / 12^4, so its own t
// would be 2.838855414979632; t is reported with the sign of the rates' difference, +2.83.
TEST(MeanComparison, RateTestsTheReciprocalsAndShowsTheRates) {
  const mean_comparison c = compare_means(a, b, quantity_kind::rate, 0.95, 0, 2);
  EXPECT_REL(c.t, 2.8284271247461903, 1e-14);
  EXPECT_EQ(c.test.p, welch_test(a, b, 0.95).p);
  EXPECT_REL(c.shown.diff, 1.0 / 60, 1e-12);
  EXPECT_REL(c.shown.t, 2.838855414979632, 1e-12);
  EXPECT_LT(c.shown.diff_low, c.shown.diff);
  EXPECT_GT(c.shown.diff_high, c.shown.diff);
}

TEST(MeanComparison, BatchesOfBAtLeastTheMinimumSampleSize) {
  const auto nb = required_b(a, b, 0.95, 0.8);
  ASSERT_TRUE(nb);
  EXPECT_EQ(compare_means(a, b, quantity_kind::ordinary, 0.95, 0.8, 2).b_batches, *nb);
  EXPECT_EQ(compare_means(a, b, quantity_kind::ordinary, 0.95, 0.8, 100000).b_batches, 100000);
  // A's own uncertainty too large for this difference: no number of B means suffices.
  const sample_moments noisy_a{10, 400, 3};
  EXPECT_FALSE(compare_means(noisy_a, b, quantity_kind::ordinary, 0.95, 0, 2).b_batches);
}

TEST(MeanComparison, NoVariationOnEitherSideIsAnError) {
  EXPECT_THROW(compare_means({1, 0, 5}, {2, 0, 5}, quantity_kind::ordinary, 0.95, 0, 2),
               std::invalid_argument);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
