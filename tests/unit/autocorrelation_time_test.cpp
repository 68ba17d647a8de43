// The integrated autocorrelation time (stats/autocorrelation_time.hpp): hand-computed values,
// and the AR(1) closed form tau = (1 + phi) / (1 - phi) by seeded simulation.

#include "mcpilot/stats/autocorrelation_time.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "../support/ar1_study.hpp"
#include "../support/expect_rel.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

TEST(AutocorrelationTime, AutocovariancesByHand) {
  // The first 12 digits of pi. Exact values from Python's fractions, direct sums
  // (1/12) sum_{i<12-k} (x_i - 13/3)(x_{i+k} - 13/3): 53/9, -49/108, -14/27, 29/18, -101/54.
  const std::vector<double> x = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8};
  const auto g = autocovariances(x, 4);
  ASSERT_EQ(g.size(), 5u);
  EXPECT_REL(g[0], 53.0 / 9, 1e-13);
  EXPECT_REL(g[1], -49.0 / 108, 1e-12);
  EXPECT_REL(g[2], -14.0 / 27, 1e-12);
  EXPECT_REL(g[3], 29.0 / 18, 1e-12);
  EXPECT_REL(g[4], -101.0 / 54, 1e-12);
  EXPECT_EQ(autocovariances(x, 100).size(), 12u);  // clamped to n - 1
  EXPECT_TRUE(autocovariances({}, 3).empty());
}

TEST(AutocorrelationTime, AutocovariancesMatchDirectSums) {
  // Against the definition summed term by term, at every length from 1 to 70 (odd, even, one
  // past a power of two: each pads differently) and at 1,000 and 4,097, on lognormal readings
  // (skewed, with a nonzero mean to subtract). The FFT's error is O(log n) ulps of gamma_0.
  std::mt19937_64 gen(20261206);
  std::lognormal_distribution<double> draw(1.0, 0.7);
  std::vector<std::size_t> lengths;
  for (std::size_t n = 1; n <= 70; ++n) lengths.push_back(n);
  lengths.push_back(1000);
  lengths.push_back(4097);
  for (std::size_t n : lengths) {
    std::vector<double> x(n);
    for (double& v : x) v = draw(gen);
    double m = 0;
    for (double v : x) m += v;
    m /= static_cast<double>(n);
    const auto g = autocovariances(x, n - 1);
    ASSERT_EQ(g.size(), n);
    double g0 = 0;
    for (double v : x) g0 += (v - m) * (v - m);
    g0 /= static_cast<double>(n);
    for (std::size_t k = 0; k < n; ++k) {
      double direct = 0;
      for (std::size_t i = 0; i + k < n; ++i) direct += (x[i] - m) * (x[i + k] - m);
      direct /= static_cast<double>(n);
      EXPECT_NEAR(g[k], direct, 1e-12 * std::max(g0, 1e-300)) << "n = " << n << ", lag " << k;
    }
  }
}

TEST(AutocorrelationTime, GeyerInitialSequenceByHand) {
  // Pi's digits: Gamma_0 = g0 + g1 = 587/108, Gamma_1 = g2 + g3 = 59/54, Gamma_2 = g4 + g5 < 0
  // stops the sum; tau = (-g0 + 2 (Gamma_0 + Gamma_1)) / g0 = 129/106 (Python, fractions).
  const std::vector<double> x = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8};
  const auto t = integrated_autocorrelation_time(x);
  EXPECT_REL(t.tau, 129.0 / 106, 1e-12);
  EXPECT_EQ(t.window, 4u);
  EXPECT_FALSE(t.truncated);
  // 1..12, a trend: gamma = 143/12, 143/16, 145/24, 53/16, ...; the pairs stop at the third,
  // tau = 4.06993006993007 (Python, fractions).
  std::vector<double> trend(12);
  for (std::size_t i = 0; i < trend.size(); ++i) trend[i] = static_cast<double>(i + 1);
  EXPECT_REL(integrated_autocorrelation_time(trend).tau, 4.06993006993007, 1e-12);
}

TEST(AutocorrelationTime, DegenerateSeries) {
  EXPECT_EQ(integrated_autocorrelation_time(std::vector<double>{7, 7, 7, 7, 7}).tau, 1);
  EXPECT_EQ(integrated_autocorrelation_time(std::vector<double>{1, 2}).tau, 1);
  // Alternating readings: gamma_1 = -gamma_0 (nearly), no positive pair; tau falls to 1/n.
  std::vector<double> alt(100);
  for (std::size_t i = 0; i < alt.size(); ++i) alt[i] = i % 2 ? 1 : -1;
  EXPECT_LT(integrated_autocorrelation_time(alt).tau, 0.05);
  const auto need = readings_for_precision(std::vector<double>{-1, 1, -1, 1}, 0.01);
  EXPECT_FALSE(need.readings_needed);  // mean 0: no relative width
}

TEST(AutocorrelationTime, Ar1ClosedForm) {
  // 40 AR(1) series of 20000 readings per phi. The estimator's own spread gives the tolerance
  // (4 standard errors of the mean of 40), plus its known downward bias: each gamma_k with the
  // 1/n divisor and the estimated mean is low by about (k + tau) gamma_0 / n, so tau is low by
  // about tau (window + tau) / n, under 0.2% at phi = 0.9 (tau 19, window ~ 100).
  for (const double phi : {0.0, 0.5, 0.68, 0.9}) {
    const double exact = (1 + phi) / (1 - phi);
    std::mt19937_64 gen(20261203);
    std::vector<double> x(20000);
    double sum = 0, sum_sq = 0, bias = 0;
    const int m = 40;
    for (int s = 0; s < m; ++s) {
      test::fill_ar1(x, phi, 100, gen);
      const auto t = integrated_autocorrelation_time(x);
      sum += t.tau;
      sum_sq += t.tau * t.tau;
      bias += exact * static_cast<double>(t.window + 20) / 20000.0 / m;
      EXPECT_FALSE(t.truncated);
    }
    const double mean = sum / m, sd = std::sqrt((sum_sq - m * mean * mean) / (m - 1));
    EXPECT_NEAR(mean, exact, 4 * sd / std::sqrt(double(m)) + bias) << "phi " << phi;
    // And per series: Madras and Sokal's variance 2 (2 W + 1) tau^2 / n gives sd/tau of 2-15%
    // here; the observed spread must be of that order, not zero (an estimator that returned
    // a constant would pass the mean check only by accident).
    EXPECT_GT(sd, 0.005 * exact) << "phi " << phi;
    EXPECT_LT(sd, 0.25 * exact) << "phi " << phi;
  }
}

TEST(AutocorrelationTime, ReadingsNeededForAr1) {
  // AR(1), phi 0.68, mean 100, unit marginal sd: cv = 0.01, tau = 1.68/0.32 = 5.25, so +-1% at
  // 95% needs tau (1.959964 * 0.01 / 0.01)^2 = 20.17 readings. One series of 10^5: tau's sd is
  // about tau sqrt(2 (2W + 1) / n) = 5.25 * 0.03 (W ~ 20); 15% covers 5 of those.
  std::mt19937_64 gen(7);
  std::vector<double> x(100000);
  test::fill_ar1(x, 0.68, 100, gen);
  const auto need = readings_for_precision(x, 0.01, 0.95);
  EXPECT_EQ(need.n, x.size());
  EXPECT_NEAR(need.cv, 0.01, 0.0005);
  EXPECT_REL(need.tau.tau, 5.25, 0.15);
  ASSERT_TRUE(need.readings_needed);
  EXPECT_REL(*need.readings_needed, 5.25 * 1.959964 * 1.959964, 0.2);
}

TEST(AutocorrelationTime, DriftIsSeenAsLongCorrelation) {
  // Independent readings around a slow sine of amplitude 3 sd over the whole series: lag 1 is
  // about 0.82 (4.5 / 5.5), but correlation persists for thousands of lags, so tau is in the
  // hundreds: a rule that looked at lag 1 alone would take it for AR(1) with tau ~ 10.
  std::mt19937_64 gen(11);
  boost::random::normal_distribution<double> normal;
  std::vector<double> x(20000);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = 3 * std::sin(2 * 3.14159265358979 * static_cast<double>(i) / 20000.0) + normal(gen);
  EXPECT_GT(integrated_autocorrelation_time(x).tau, 100);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
