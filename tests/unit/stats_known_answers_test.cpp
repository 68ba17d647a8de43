// Known answers for the descriptive core: summary statistics, t and normal quantiles, the AR(1)
// variance inflation and the coverage it implies, the t interval, batch means and their lag-1
// autocorrelation, the choice of subsession size, and the required number of batch means.
//
// Every expected value is independent of the code under test: a closed form worked by hand, a
// number printed in the Pilot method's own description (its tables are reproduced in
// docs/statistics.md), or the
// output of the R call quoted beside it (R 4.x, `options(digits = 17)`).

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

#include "../support/expect_rel.hpp"
#include "../support/subsession_by_definition.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/stats/autocorrelation.hpp"
#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/interval.hpp"
#include "mcpilot/stats/sample_size.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

// The textbook example: mean 5, sum of squared deviations 32.
const std::vector<double> small_sample = {2, 4, 4, 4, 5, 5, 7, 9};

// ---------------------------------------------------------------------------------------------
// Summary statistics

TEST(StatsSummary, MeanAndVarianceByHand) {
  // mean = 40/8 = 5; variance = 32/7.
  EXPECT_DOUBLE_EQ(mean(small_sample), 5.0);
  EXPECT_DOUBLE_EQ(variance(small_sample), 32.0 / 7.0);
}

TEST(StatsSummary, VarianceKeepsItsDigitsUnderALargeOffset) {
  // Adding 1e9 changes nothing in exact arithmetic; a one-pass sum of squares would lose every
  // digit of 32/7 here (x^2 ~ 1e18 against a spread of ~10).
  std::vector<double> shifted;
  for (double v : small_sample) shifted.push_back(1e9 + v);
  EXPECT_DOUBLE_EQ(mean(shifted), 1e9 + 5);
  EXPECT_REL(variance(shifted), 32.0 / 7.0, 1e-12);
}

TEST(StatsSummary, DegenerateInputsAreNaN) {
  EXPECT_TRUE(std::isnan(mean(std::vector<double>{})));
  EXPECT_TRUE(std::isnan(variance(std::vector<double>{3.0})));
}

TEST(StatsSummary, SkewnessByHand) {
  // {1, 2, 3, 4, 10}: mean 4, deviations -3 -2 -1 0 6, m2 = 50 / 5 = 10, m3 = 180 / 5 = 36,
  // g1 = 36 / 10^1.5, G1 = g1 sqrt(5 * 4) / 3 = 1.697056274847714 (Excel SKEW, R e1071
  // skewness(type = 2)); a symmetric sample has 0, and so has any sample of fewer than 3 values
  // or of equal ones.
  const std::vector<double> x = {1, 2, 3, 4, 10};
  EXPECT_REL(skewness(x), 36 / std::pow(10.0, 1.5) * std::sqrt(20.0) / 3, 1e-14);
  EXPECT_REL(skewness(x), 1.697056274847714, 1e-14);
  std::vector<double> mirrored;
  for (double v : x) mirrored.push_back(-v);
  EXPECT_REL(skewness(mirrored), -1.697056274847714, 1e-14);
  EXPECT_EQ(skewness(std::vector<double>{1, 2, 3, 4, 5}), 0.0);
  EXPECT_EQ(skewness(std::vector<double>{1, 9}), 0.0);
  EXPECT_EQ(skewness(std::vector<double>{7, 7, 7, 7}), 0.0);
  // Under a large offset the moments about the mean keep their digits.
  std::vector<double> shifted;
  for (double v : x) shifted.push_back(1e9 + v);
  EXPECT_REL(skewness(shifted), 1.697056274847714, 1e-6);
}

TEST(StatsSummary, HarmonicMeanByHand) {
  // 3 / (1 + 1/2 + 1/4) = 12/7: the rate of a run whose three equal pieces ran at 1, 2 and 4.
  EXPECT_DOUBLE_EQ(harmonic_mean(std::vector<double>{1, 2, 4}), 12.0 / 7.0);
}

// R: median(c(5, 1, 4, 2, 3)) = 3; median(c(7, 1, 4, 2)) = 3 (the mean of 2 and 4).
TEST(StatsSummary, MedianByHand) {
  std::vector<double> odd{5, 1, 4, 2, 3}, even{7, 1, 4, 2}, none;
  EXPECT_DOUBLE_EQ(median_in_place(odd), 3.0);
  EXPECT_DOUBLE_EQ(median_in_place(even), 3.0);
  EXPECT_TRUE(std::isnan(median_in_place(none)));
}

TEST(StatsSummary, HarmonicMeanNamesTheBadReading) {
  const std::vector<double> x = {1, 2, 0, 4};
  try {
    harmonic_mean(x);
    FAIL() << "a zero rate must be rejected";
  } catch (const reading_error& e) {
    EXPECT_EQ(e.index(), 2u);
  }
}

// ---------------------------------------------------------------------------------------------
// Quantiles and distribution functions

TEST(StatsDistributions, StudentQuantilesMatchR) {
  // R: qt(c(0.975, 0.995, 0.95), df) for each df.
  struct row {
    double df, q975, q995, q95;
  };
  const row rows[] = {
      {1, 12.706204736174694, 63.656741162871526, 6.3137515146750376},
      {2, 4.3026527297494619, 9.9248432009182892, 2.9199855803537238},
      {5, 2.5705818356363137, 4.0321429835552287, 2.0150483733330224},
      {10, 2.2281388519862739, 3.16927267261695, 1.8124611228116756},
      {30, 2.0422724563012378, 2.7499956535672254, 1.6972608865939569},
      {100, 1.9839715185235516, 2.6258905214380182, 1.6602343260853394},
      {1000, 1.9623390808264076, 2.5807546980659501, 1.6463788172854634},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.df);
    EXPECT_REL(t_quantile(r.df, 0.975), r.q975, 1e-12);
    EXPECT_REL(t_quantile(r.df, 0.995), r.q995, 1e-12);
    EXPECT_REL(t_quantile(r.df, 0.95), r.q95, 1e-12);
    // The two-sided critical value at confidence c is the (1 + c)/2 quantile.
    EXPECT_REL(t_critical(r.df, 0.95), r.q975, 1e-12);
    EXPECT_REL(t_critical(r.df, 0.99), r.q995, 1e-12);
    EXPECT_REL(t_critical(r.df, 0.90), r.q95, 1e-12);
    // Symmetry: the lower quantile is the negative of the upper one.
    EXPECT_REL(t_quantile(r.df, 0.025), -r.q975, 1e-12);
  }
}

TEST(StatsDistributions, FractionalDegreesOfFreedomMatchR) {
  // Welch's df is fractional. R: qt(0.975, 7.5); qt(0.975, 2.5).
  EXPECT_REL(t_quantile(7.5, 0.975), 2.3330396268649736, 1e-12);
  EXPECT_REL(t_quantile(2.5, 0.975), 3.5746548420036919, 1e-12);
}

TEST(StatsDistributions, StudentCdfMatchesR) {
  // R: pt(-2.1, 7); pt(1.3, 12.4).
  EXPECT_REL(t_cdf(7, -2.1), 0.036935598106461298, 1e-12);
  EXPECT_REL(t_cdf(12.4, 1.3), 0.89137648927802748, 1e-12);
}

TEST(StatsDistributions, NormalMatchesR) {
  // R: qnorm(c(0.975, 0.995, 0.95, 0.8, 0.1)); pnorm(1.5); pnorm(-0.3).
  EXPECT_REL(normal_quantile(0.975), 1.9599639845400536, 1e-14);
  EXPECT_REL(normal_quantile(0.995), 2.5758293035488999, 1e-14);
  EXPECT_REL(normal_quantile(0.8), 0.84162123357291441, 1e-14);
  EXPECT_REL(normal_quantile(0.1), -1.2815515655446008, 1e-14);
  EXPECT_REL(normal_critical(0.95), 1.9599639845400536, 1e-14);
  EXPECT_REL(normal_critical(0.90), 1.6448536269514715, 1e-14);
  EXPECT_REL(normal_cdf(1.5), 0.93319279873114191, 1e-14);
  EXPECT_REL(normal_cdf(-0.3), 0.38208857781104733, 1e-14);
}

TEST(StatsDistributions, StudentTendsToNormal) {
  // t_df -> z as df -> infinity; R: qt(0.975, 1e9) - qnorm(0.975) -> 2.4e-9.
  EXPECT_NEAR(t_critical(1e9, 0.95), 1.9599639845400536, 1e-8);
}

TEST(StatsDistributions, OutOfDomainArgumentsThrowDomainError) {
  // The header promises std::domain_error for df <= 0 and for p outside (0, 1); p = 0 and p = 1
  // have no finite quantile, so they belong to the same contract.
  EXPECT_THROW(t_quantile(0, 0.5), std::domain_error);
  EXPECT_THROW(t_quantile(-1, 0.5), std::domain_error);
  EXPECT_THROW(t_quantile(5, 1.5), std::domain_error);
  EXPECT_THROW(t_quantile(5, 0), std::domain_error);
  EXPECT_THROW(t_quantile(5, 1), std::domain_error);
  EXPECT_THROW(t_critical(5, 1), std::domain_error);
  EXPECT_THROW(normal_quantile(0), std::domain_error);
  EXPECT_THROW(normal_quantile(1), std::domain_error);
  EXPECT_THROW(normal_quantile(-0.1), std::domain_error);
}

// ---------------------------------------------------------------------------------------------
// Autocorrelation, gamma_n and the coverage of an interval that ignores it

TEST(StatsAutocorrelation, LinearSeriesMatchesRAcf) {
  // R: acf(1:5, plot = FALSE, lag.max = 2)$acf -> 1, 0.4, -0.1 (same estimator: both sums about
  // the overall mean, numerator over n - k terms, denominator over n).
  const std::vector<double> x = {1, 2, 3, 4, 5};
  EXPECT_NEAR(autocorrelation(x, 1), 0.4, 1e-15);
  EXPECT_NEAR(autocorrelation(x, 2), -0.1, 1e-15);
  EXPECT_NEAR(autocorrelation(x), 0.4, 1e-15);  // lag 1 by default
}

TEST(StatsAutocorrelation, DegenerateSeries) {
  const std::vector<double> constant(10, 3.5);
  EXPECT_EQ(autocorrelation(constant), 0.0);  // nothing varies, nothing to correlate
  const std::vector<double> two = {1, 2};
  EXPECT_TRUE(std::isnan(autocorrelation(two, 2)));
}

TEST(StatsAutocorrelation, VarianceInflationSeedValue) {
  // Seed: gamma_n = 8.96 for n = 1000, rho = 0.8. Closed form: 1 + 2 [4 - 0.8 (1 - 0.8^1000) /
  // (1000 * 0.04)] = 1 + 2 (4 - 0.02) = 8.96. R, the defining sum:
  //   k <- 1:999; 1 + 2 * sum((1 - k/1000) * 0.8^k)  -> 8.9600000000000026
  EXPECT_REL(ar1_variance_inflation(1000, 0.8), 8.96, 1e-13);
  // Effective sample size 1000 / 8.96 ~ 112 (the seed's figure).
  EXPECT_EQ(std::lround(1000 / ar1_variance_inflation(1000, 0.8)), 112);
}

TEST(StatsAutocorrelation, VarianceInflationLimits) {
  // Independent readings inflate nothing; for large n the factor tends to (1 + rho)/(1 - rho).
  EXPECT_DOUBLE_EQ(ar1_variance_inflation(50, 0.0), 1.0);
  EXPECT_REL(ar1_variance_inflation(100000000, 0.5), 3.0, 1e-7);
  EXPECT_REL(ar1_variance_inflation(100000000, 0.9), 19.0, 1e-7);
  // n = 2 by hand: Var(mean) = sigma^2/2 (1 + rho), so gamma_2 = 1 + rho.
  EXPECT_REL(ar1_variance_inflation(2, 0.3), 1.3, 1e-14);
}

TEST(StatsAutocorrelation, NaiveCoverageTableOfTheSeeds) {
  // docs/statistics.md, "Coverage of a nominal 95% interval that ignores AR(1)
  // autocorrelation", gamma = (1 + rho)/(1 - rho). R, for each rho:
  //   g <- (1 + r)/(1 - r); 2 * pnorm(qnorm(0.975)/sqrt(g)) - 1
  struct row {
    double rho, gamma, coverage_r, coverage_table;
  };
  const row rows[] = {
      {0.0, 1, 0.94999999999999996, 0.950},   {0.1, 1.222, 0.92374711866751591, 0.924},
      {0.2, 1.5, 0.89046881614762485, 0.890}, {0.5, 3, 0.74219135946393067, 0.742},
      {0.8, 9, 0.48645085470830507, 0.486},   {0.9, 19, 0.34703470130973146, 0.347},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.rho);
    const double gamma = (1 + r.rho) / (1 - r.rho);
    EXPECT_NEAR(gamma, r.gamma, 5e-4);  // the table prints gamma to 3 decimals
    const double c = naive_interval_coverage(gamma, 0.95);
    EXPECT_REL(c, r.coverage_r, 1e-12);
    EXPECT_NEAR(c, r.coverage_table, 5e-4);  // and the coverage to 3
  }
}

TEST(StatsAutocorrelation, NaiveCoverageAtOtherLevels) {
  // R: 2 * pnorm(qnorm(0.995)/sqrt(9)) - 1 -> 0.6094441527420702
  EXPECT_REL(naive_interval_coverage(9, 0.99), 0.6094441527420702, 1e-12);
  // No inflation: the nominal level, at any level.
  EXPECT_NEAR(naive_interval_coverage(1, 0.90), 0.90, 1e-14);
}

// ---------------------------------------------------------------------------------------------
// The t interval

TEST(StatsInterval, HandComputedInterval) {
  // mean 5, s = sqrt(32/7) = 2.1380899352993952, t*_7 = 2.3646242515927844 (R: qt(0.975, 7)),
  // half-width t* s / sqrt(8) = 1.7874879182362102. R: t.test(c(2,4,4,4,5,5,7,9))$conf.int
  //   -> 3.2125120817637907 6.7874879182362102
  const t_interval iv = mean_interval(small_sample, 0.95);
  EXPECT_EQ(iv.count, 8u);
  EXPECT_DOUBLE_EQ(iv.mean, 5.0);
  EXPECT_REL(iv.sd, 2.1380899352993952, 1e-14);
  EXPECT_REL(iv.low(), 3.2125120817637907, 1e-13);
  EXPECT_REL(iv.high(), 6.7874879182362102, 1e-13);
  EXPECT_REL(iv.half_width, 1.7874879182362102, 1e-13);
}

TEST(StatsInterval, OtherConfidenceMatchesR) {
  // R: t.test(c(2,4,4,4,5,5,7,9), conf.level = 0.9)$conf.int -> 3.5678331919051978
  // 6.4321668080948022
  const t_interval iv = mean_interval(small_sample, 0.90);
  EXPECT_REL(iv.low(), 3.5678331919051978, 1e-13);
  EXPECT_REL(iv.high(), 6.4321668080948022, 1e-13);
}

TEST(StatsInterval, NeedsTwoValues) {
  EXPECT_THROW(mean_interval(std::vector<double>{1.0}, 0.95), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Batch means and their lag-1 autocorrelation

TEST(StatsSubsession, BatchMeansByHand) {
  // q = 2 over 9 readings: h = 4 batches (1,3) (5,7) (2,2) (8,6); the 9th reading is left out.
  const std::vector<double> x = {1, 3, 5, 7, 2, 2, 8, 6, 100};
  const auto expect_all_near = [](const std::vector<double>& got, const std::vector<double>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-14) << i;
  };
  expect_all_near(batch_means(x, 2), {2, 6, 2, 7});
  expect_all_near(batch_means(x, 3), {3, 11.0 / 3, 38});
  expect_all_near(batch_means(x, 1), x);
  EXPECT_TRUE(batch_means(x, 10).empty());
}

TEST(StatsSubsession, BatchAutocorrelationIsAboutTheMeanOfTheReadingsUsed) {
  // Batch means 2, 6, 2, 7 about their mean 4.25 (the 8 readings used, not the 100 left over):
  // deviations -2.25, 1.75, -2.25, 2.75; numerator 3 products = -14.0625, denominator 20.75;
  // rho_1(2) = -14.0625/20.75 = -0.677710843373494 (also numpy, same arithmetic). About the mean
  // of all nine readings (15) the value would be entirely different (~ -0.4).
  const std::vector<double> x = {1, 3, 5, 7, 2, 2, 8, 6, 100};
  EXPECT_NEAR(batch_autocorrelation(x, 2), -14.0625 / 20.75, 1e-14);
  // q = 1 is the ordinary lag-1 autocorrelation.
  EXPECT_NEAR(batch_autocorrelation(x, 1), autocorrelation(x, 1), 1e-14);
  // Fewer than 2 batches: undefined.
  EXPECT_TRUE(std::isnan(batch_autocorrelation(x, 5)));
}

TEST(StatsSubsession, BatchAutocorrelationOfALinearTrend) {
  // x = 1..9. q = 1: deviations -4..4, sum of products 40, sum of squares 60 -> 2/3.
  // q = 2: means 1.5 3.5 5.5 7.5 about 4.5 -> (3 - 1 + 3)/20 = 0.25.
  // q = 3: means 2 5 8 -> deviations -3 0 3 -> 0.
  const std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_NEAR(batch_autocorrelation(x, 1), 2.0 / 3.0, 1e-14);
  EXPECT_NEAR(batch_autocorrelation(x, 2), 0.25, 1e-14);
  EXPECT_NEAR(batch_autocorrelation(x, 3), 0.0, 1e-14);
}

TEST(StatsSubsession, ChoosesTheSmallestQualifyingSize) {
  // Same trend: |rho_1(q)| = 2/3, 0.25, 0 for q = 1, 2, 3 (q may go up to n/3 = 3).
  const std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  auto c = choose_subsession(x, 0.7);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->size, 1u);
  EXPECT_EQ(c->count, 9u);
  c = choose_subsession(x, 0.3);  // q = 2 and q = 3 both qualify: the smaller is taken
  ASSERT_TRUE(c);
  EXPECT_EQ(c->size, 2u);
  EXPECT_EQ(c->count, 4u);
  EXPECT_NEAR(c->autocorrelation, 0.25, 1e-14);
  c = choose_subsession(x, 0.25);  // the limit itself qualifies (|rho| <= limit)
  ASSERT_TRUE(c);
  EXPECT_EQ(c->size, 2u);
  c = choose_subsession(x, 0.2);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->size, 3u);
  EXPECT_EQ(c->count, 3u);
}

TEST(StatsSubsession, NoQualifyingSizeIsNotEnoughData) {
  // x = 0 0 0 1 1 1 0 0 0. q = 1: mean 1/3, sum of products 8/9, sum of squares 2 -> 4/9.
  // q = 2: means 0 .5 1 0 about .375 -> -0.203125/0.6875 = -0.2955. q = 3: means 0 1 0 -> -2/3.
  // None is within 0.25, and q cannot exceed n/3 = 3.
  const std::vector<double> x = {0, 0, 0, 1, 1, 1, 0, 0, 0};
  EXPECT_NEAR(batch_autocorrelation(x, 1), 4.0 / 9.0, 1e-14);
  EXPECT_NEAR(batch_autocorrelation(x, 2), -0.203125 / 0.6875, 1e-14);
  EXPECT_NEAR(batch_autocorrelation(x, 3), -2.0 / 3.0, 1e-14);
  EXPECT_FALSE(choose_subsession(x, 0.25));
  ASSERT_TRUE(choose_subsession(x, 0.3));
  EXPECT_EQ(choose_subsession(x, 0.3)->size, 2u);
  // Fewer than 3 readings can never give 3 batches.
  EXPECT_FALSE(choose_subsession(std::vector<double>{1, 2}, 0.99));
}

TEST(StatsSubsession, AgreesWithTheDefinitionOnAr1Series) {
  // AR(1) series from a fixed linear congruential recurrence (no library generator needed for
  // agreement between two computations of the same statistic).
  std::uint64_t state = 12345;
  auto uniform = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;
  };
  for (double rho : {0.0, 0.5, 0.8, 0.95}) {
    std::vector<double> x(3000);
    double v = 0;
    for (double& xi : x) {
      v = rho * v + uniform();
      xi = 50 + v;
    }
    for (double limit : {0.8, 0.2, 0.1, 0.05}) {
      SCOPED_TRACE(testing::Message() << "rho " << rho << " limit " << limit);
      const auto expected = test::subsession_by_definition(x, limit);
      const auto got = choose_subsession(x, limit);
      ASSERT_EQ(got.has_value(), expected.has_value());
      if (!got) continue;
      EXPECT_EQ(got->size, expected->q);
      EXPECT_EQ(got->count, x.size() / expected->q);
      // The definition's own value, not batch_autocorrelation (which shares the library's code).
      EXPECT_NEAR(got->autocorrelation, expected->rho, 1e-12);
    }
  }
}

TEST(StatsSubsession, PooledLag1OverSeriesMatchesR) {
  // Adjacent pairs within each series, about the grand mean of all batch means used. R:
  //   pooled <- function(l, q) { bm <- lapply(l, function(x) { h <- floor(length(x)/q)
  //     sapply(1:h, function(j) mean(x[((j-1)*q+1):(j*q)])) }); g <- mean(unlist(bm))
  //     sum(sapply(bm, function(y) sum((head(y,-1)-g)*(tail(y,-1)-g)))) /
  //     sum(sapply(bm, function(y) sum((y-g)^2))) }
  const std::vector<double> a{1, 3, 2, 5, 4, 6, 8}, b{2, 1, 7, 0, 3, 4},
      far{102, 101, 107, 100, 103, 104};
  const std::vector<batch_correlogram> near_pair{batch_correlogram(a), batch_correlogram(b)};
  EXPECT_NEAR(*pooled_lag1(near_pair, 1), -0.038378468184083726, 1e-14);
  EXPECT_NEAR(*pooled_lag1(near_pair, 2), -0.028368794326241131, 1e-14);
  // A second series about 100 higher: the pairs are taken about the grand mean, so the gap
  // between the series shows as correlation (the streams are meant to share one mean).
  const std::vector<batch_correlogram> far_pair{batch_correlogram(a), batch_correlogram(far)};
  EXPECT_NEAR(*pooled_lag1(far_pair, 1), 0.8428046487940225, 1e-14);
  EXPECT_NEAR(*pooled_lag1(far_pair, 2), 0.66855005421304792, 1e-14);
  // One series: its own rho_1(q). By hand for a, q = 2: batch means 2, 3.5, 5 (the 7th reading
  // left over), their mean 3.5, deviations -1.5, 0, 1.5: lag-1 sum (-1.5)(0) + (0)(1.5) = 0, so
  // rho_1(2) = 0 exactly. A series with fewer than 2 batches: none.
  EXPECT_NEAR(*pooled_lag1(std::span(near_pair).first(1), 2), 0.0, 1e-15);
  EXPECT_FALSE(pooled_lag1(near_pair, 4));
}

TEST(StatsSubsession, Lag1FromAnySumsOfTheReadings) {
  // prefix_lag1 reads rho_1(q) off prefix sums taken about any centre (the change-point search
  // passes slices of the whole series' sums). For a = 1 3 2 5 4 6 8 and q = 1, by the definition
  // in exact fractions (Python): mean 29/7, rho_1(1) = 269/854.
  const std::vector<double> a{1, 3, 2, 5, 4, 6, 8};
  for (double start : {0.0, 1000.0, -3.5}) {
    std::vector<double> sum{start};
    for (double v : a) sum.push_back(sum.back() + v);
    EXPECT_NEAR(*prefix_lag1(sum, 1, 0), 269.0 / 854.0, 1e-14) << start;
    EXPECT_NEAR(*prefix_lag1(sum, 2, 0), 0.0, 1e-14) << start;  // by hand, as above
    EXPECT_FALSE(prefix_lag1(sum, 4, 0)) << start;              // one batch
  }
  // Alternating +-1 (h = 10): every lag-1 product is -1 about the mean 0, so rho_1(1) = -9/10;
  // pairs sum to 0, so the means at q = 2 are all equal: nothing to correlate.
  std::vector<double> alt{0};
  for (int i = 0; i < 10; ++i) alt.push_back(alt.back() + (i % 2 ? 1.0 : -1.0));
  EXPECT_NEAR(*prefix_lag1(alt, 1, 0), -0.9, 1e-15);
  EXPECT_FALSE(prefix_lag1(alt, 2, 0));
  // A constant stretch read off sums that carry rounding errors (0.1 is not a double, and the
  // sums start at 1e6): within the noise bound it is constant; real variation of the same size
  // as the readings is not mistaken for noise.
  std::vector<double> flat{1e6}, wavy{1e6};
  for (int i = 0; i < 4000; ++i) {
    flat.push_back(flat.back() + 0.1);
    wavy.push_back(wavy.back() + 0.1 + (i % 7 == 0 ? 0.05 : 0.0));
  }
  const double noise = 16 * std::numeric_limits<double>::epsilon() * 1.0004e6;
  for (std::size_t q : {1, 3, 10}) {
    EXPECT_FALSE(prefix_lag1(flat, q, noise)) << q;
    EXPECT_TRUE(prefix_lag1(wavy, q, noise)) << q;
  }
}

TEST(StatsSubsession, Lag1FromSumsMatchesTheDefinitionForEveryBatchCount) {
  // prefix_lag1 takes the batches two at a time (and q = 1 by adjacent loads), with a last odd
  // batch apart. Against rho_1(q) by its definition, in long double from the batch means, for
  // every q up to L / 2 of seeded AR(1) series whose lengths make h both even and odd.
  std::mt19937_64 rng(2026);
  std::normal_distribution<double> normal;
  for (std::size_t length : {7, 8, 9, 10, 101, 1000, 1001}) {
    std::vector<double> x(length), sum{5.0};
    double v = 0;
    for (double& r : x) sum.push_back(sum.back() + (r = 3 + (v = 0.6 * v + normal(rng))));
    for (std::size_t q = 1; q <= length / 2; ++q) {
      const std::size_t h = length / q;
      std::vector<long double> means(h);
      long double grand = 0;
      for (std::size_t j = 0; j < h; ++j) {
        for (std::size_t i = j * q; i < (j + 1) * q; ++i) means[j] += x[i];
        grand += means[j] /= q;
      }
      grand /= h;
      long double num = 0, den = 0;
      for (std::size_t j = 0; j < h; ++j) {
        den += (means[j] - grand) * (means[j] - grand);
        if (j > 0) num += (means[j - 1] - grand) * (means[j] - grand);
      }
      EXPECT_NEAR(*prefix_lag1(sum, q, 0), static_cast<double>(num / den), 1e-12)
          << "length " << length << ", q " << q;
    }
  }
}

TEST(StatsSubsession, LargeOffsetDoesNotChangeTheBatchAutocorrelation) {
  // rho_1(q) is shift-invariant; readings near 1e9 must give what readings near 0 give.
  std::uint64_t state = 99;
  std::vector<double> x(20000), shifted(20000);
  double v = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    v = 0.8 * v + (static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5);
    x[i] = v;
    shifted[i] = 1e9 + v;
  }
  for (std::size_t q : {1, 8, 32, 100})
    EXPECT_NEAR(batch_autocorrelation(shifted, q), batch_autocorrelation(x, q), 1e-6) << q;
}

// ---------------------------------------------------------------------------------------------
// Required number of batch means

TEST(StatsSampleSize, SeedHeadlineNumbers) {
  // Seed: 7 batches for c_v 5% with +-5% (whole width 0.10), 99 for 25% with +-5%, 2404 for 25%
  // with +-1%. By hand for the first: h = 6 needs (2 * 2.5706 * 0.5)^2 = 6.61 > 6; h = 7 needs
  // (2 * 2.4469 * 0.5)^2 = 5.99 <= 7.
  EXPECT_EQ(required_batches(0.05, 0.10, 0.95), std::optional<std::size_t>(7));
  EXPECT_EQ(required_batches(0.25, 0.10, 0.95), std::optional<std::size_t>(99));
  EXPECT_EQ(required_batches(0.25, 0.02, 0.95), std::optional<std::size_t>(2404));
}

TEST(StatsSampleSize, WholeTableOfTheSeeds) {
  // docs/statistics.md, "Batch means needed at 95%", columns +-1%, +-2%, +-5%, +-10% (whole
  // widths 0.02, 0.04, 0.10, 0.20). Recomputed in R with the definition itself:
  //   req <- function(cv, p) { h <- 2; while (h < (2*qt(0.975, h-1)*cv/p)^2) h <- h + 1; h }
  const double widths[] = {0.02, 0.04, 0.10, 0.20};
  struct row {
    double cv;
    std::size_t h[4];
  };
  const row rows[] = {
      {0.05, {99, 27, 7, 4}}, {0.10, {387, 99, 18, 7}}, {0.25, {2404, 603, 99, 27}}};
  for (const row& r : rows)
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(required_batches(r.cv, widths[j], 0.95), std::optional<std::size_t>(r.h[j]))
          << "c_v " << r.cv << " width " << widths[j];
}

TEST(StatsSampleSize, OtherConfidenceLevels) {
  // R (the same req() with qt(0.5 + conf/2, h - 1)): c_v 25%, width 0.10 -> 70 at 90%, 170 at 99%.
  EXPECT_EQ(required_batches(0.25, 0.10, 0.90), std::optional<std::size_t>(70));
  EXPECT_EQ(required_batches(0.25, 0.10, 0.99), std::optional<std::size_t>(170));
}

TEST(StatsSampleSize, AbsoluteWidthIsTheSameEquation) {
  // sd 5 with whole width 2 is c_v 25% with width 10% of a mean of 20.
  EXPECT_EQ(required_batches(5.0, 2.0, 0.95), std::optional<std::size_t>(99));
}

TEST(StatsSampleSize, ResultIsTheSmallestSolution) {
  // The defining inequality holds at h* and fails at h* - 1, over a sweep of c_v / p.
  for (double k = 0.05; k < 40; k *= 1.37) {
    const auto h = required_batches(k, 1.0, 0.95);
    ASSERT_TRUE(h);
    const auto need = [k](std::size_t hh) {
      return std::pow(2 * t_critical(static_cast<double>(hh - 1), 0.95) * k, 2);
    };
    EXPECT_GE(static_cast<double>(*h), need(*h)) << k;
    if (*h > 2) {
      EXPECT_LT(static_cast<double>(*h - 1), need(*h - 1)) << k;
    }
  }
}

TEST(StatsSampleSize, NoSpreadNeedsTheMinimumNotZero) {
  EXPECT_EQ(required_batches(0.0, 0.10, 0.95), std::optional<std::size_t>(2));
}

TEST(StatsSampleSize, UnreachableIsNulloptNeverZero) {
  // A relative width around a mean of 0 is a width of 0.
  EXPECT_EQ(required_batches(1.0, 0.0, 0.95), std::nullopt);
  EXPECT_EQ(required_batches(1.0, -0.1, 0.95), std::nullopt);
  // sd / width overflows (c_v of a mean that is nearly 0).
  EXPECT_EQ(required_batches(1e300, 1e-300, 0.95), std::nullopt);
  EXPECT_EQ(required_batches(std::numeric_limits<double>::infinity(), 1.0, 0.95), std::nullopt);
  EXPECT_EQ(required_batches(std::nan(""), 1.0, 0.95), std::nullopt);
  EXPECT_EQ(required_batches(1.0, std::nan(""), 0.95), std::nullopt);
  // Beyond any run that can be made (10^15 batches and more).
  EXPECT_EQ(required_batches(1e8, 1.0, 0.95), std::nullopt);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
