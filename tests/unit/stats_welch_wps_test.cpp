// Known answers for Welch's comparison (t, df, p, the difference's interval, the readings of B
// needed, the power option) and for the duration-against-work regression (WPS).
//
// Expected values come from R (4.x, `options(digits = 17)`): t.test() for Welch, lm() and
// confint() for the regression, and the formulas evaluated in R where the comment says so.

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <stdexcept>
#include <vector>

#include "../support/expect_rel.hpp"
#include "mcpilot/stats/welch.hpp"
#include "mcpilot/stats/wps.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

// R: a <- c(19.2, 21.5, 20.1, 22.8, 18.9, 20.7, 21.1, 23.4)
//    b <- c(17.1, 18.6, 16.2, 19.9, 17.7, 15.8, 18.4, 16.9, 20.3, 17.2, 16.5)
const std::vector<double> sample_a = {19.2, 21.5, 20.1, 22.8, 18.9, 20.7, 21.1, 23.4};
const std::vector<double> sample_b = {17.1, 18.6, 16.2, 19.9, 17.7, 15.8,
                                      18.4, 16.9, 20.3, 17.2, 16.5};

std::vector<double> shifted(const std::vector<double>& x, double by) {
  std::vector<double> y;
  for (double v : x) y.push_back(v + by);
  return y;
}

// ---------------------------------------------------------------------------------------------
// Welch

TEST(StatsWelch, MomentsMatchR) {
  // R: mean(a); var(a); mean(b); var(b)
  const sample_moments a = moments(sample_a), b = moments(sample_b);
  EXPECT_REL(a.mean, 20.962499999999999, 1e-14);
  EXPECT_REL(a.variance, 2.5426785714285716, 1e-13);
  EXPECT_EQ(a.count, 8.0);
  EXPECT_REL(b.mean, 17.690909090909091, 1e-14);
  EXPECT_REL(b.variance, 2.1449090909090907, 1e-13);
  EXPECT_EQ(b.count, 11.0);
}

TEST(StatsWelch, MatchesRTTest) {
  // R: w <- t.test(a, b); w$statistic; w$parameter; w$p.value; w$conf.int
  const welch_result w = welch_test(moments(sample_a), moments(sample_b), 0.95);
  EXPECT_REL(w.diff, 20.962499999999999 - 17.690909090909091, 1e-13);
  EXPECT_REL(w.t, 4.5685011556676551, 1e-12);
  EXPECT_REL(w.df, 14.423542353063004, 1e-12);  // fractional: not floored
  EXPECT_REL(w.p, 0.00040678708056224652, 1e-9);
  EXPECT_REL(w.diff_low, 1.7398887392947544, 1e-12);
  EXPECT_REL(w.diff_high, 4.8032930788870605, 1e-12);
  // Exact rational arithmetic on the readings: s_a^2/8 + s_b^2/11 = 13899651/27104000, whose
  // square root is 0.716119094121754 (not diff/t, which holds by construction).
  EXPECT_REL(w.se, 0.716119094121754, 1e-14);
}

TEST(StatsWelch, OtherConfidenceMatchesR) {
  // R: t.test(a, b, conf.level = 0.9)$conf.int
  const welch_result w = welch_test(moments(sample_a), moments(sample_b), 0.90);
  EXPECT_REL(w.diff_low, 2.0128950156829006, 1e-12);
  EXPECT_REL(w.diff_high, 4.5302868024989138, 1e-12);
}

TEST(StatsWelch, NegativeDifferenceAndLargeP) {
  // R: b2 <- c(20.5, 21.9, 19.8, 22.6, 20.1, 21.4, 20.9); t.test(a, b2)
  const std::vector<double> b2 = {20.5, 21.9, 19.8, 22.6, 20.1, 21.4, 20.9};
  const welch_result w = welch_test(moments(sample_a), moments(b2), 0.95);
  EXPECT_REL(w.t, -0.097257688454458882, 1e-11);
  EXPECT_REL(w.df, 11.917768388536928, 1e-12);
  EXPECT_REL(w.p, 0.9241382354261034, 1e-12);
}

TEST(StatsWelch, SwappingTheSamplesFlipsTheSign) {
  const welch_result ab = welch_test(moments(sample_a), moments(sample_b), 0.95);
  const welch_result ba = welch_test(moments(sample_b), moments(sample_a), 0.95);
  EXPECT_DOUBLE_EQ(ab.t, -ba.t);
  EXPECT_DOUBLE_EQ(ab.df, ba.df);
  EXPECT_DOUBLE_EQ(ab.p, ba.p);
}

TEST(StatsWelch, RejectsWhatItCannotCompare) {
  EXPECT_THROW(welch_test({1, 1, 1}, {2, 1, 5}, 0.95), std::invalid_argument);
  EXPECT_THROW(welch_test({1, 0, 5}, {2, 0, 5}, 0.95), std::invalid_argument);  // no variation
}

TEST(StatsWelchRequiredB, FormulaByHand) {
  // B = b + 1.8 (R: b3 <- b + 1.8; t.test(a, b3): t 2.0549527601909019, df 14.423542353063004,
  // p 0.058462930102127927). n_B = s_B^2 / ((d / t*)^2 - s_A^2 / n_A) with t* = qt(0.975, df):
  //   var(b3) / ((d / qt(0.975, 14.423542353063004))^2 - var(a) / 8) -> 13.79096068997443
  const std::vector<double> b3 = shifted(sample_b, 1.8);
  const welch_result w = welch_test(moments(sample_a), moments(b3), 0.95);
  EXPECT_REL(w.t, 2.0549527601909019, 1e-11);
  EXPECT_REL(w.p, 0.058462930102127927, 1e-10);
  EXPECT_EQ(required_b(moments(sample_a), moments(b3), 0.95), std::optional<double>(14));
  // A power of 1/2 adds z_0.5 = 0: the same answer.
  EXPECT_EQ(required_b(moments(sample_a), moments(b3), 0.95, 0.5), std::optional<double>(14));
}

TEST(StatsWelchRequiredB, PowerRaisesTheRequirement) {
  // Original b, a clear difference. R: ts <- qt(0.975, 14.423542353062995)
  //   var(b) / ((d/ts)^2 - var(a)/8)              -> 1.060914125484576  -> 2
  //   var(b) / ((d/(ts + qnorm(0.8)))^2 - var(a)/8) -> 2.4181004137833457 -> 3
  EXPECT_EQ(required_b(moments(sample_a), moments(sample_b), 0.95), std::optional<double>(2));
  EXPECT_EQ(required_b(moments(sample_a), moments(sample_b), 0.95, 0.8), std::optional<double>(3));
}

TEST(StatsWelchRequiredB, NoNumberSufficesWhenTheDenominatorIsNotPositive) {
  // b3 with power 0.8: (d / (t* + z_0.8))^2 - s_A^2/n_A = -0.074058358726666024 (R, as above):
  // the baseline's own uncertainty exceeds what the required p allows.
  const std::vector<double> b3 = shifted(sample_b, 1.8);
  EXPECT_EQ(required_b(moments(sample_a), moments(b3), 0.95, 0.8), std::nullopt);
  EXPECT_EQ(required_b(moments(sample_a), moments(b3), 0.95, 0.9), std::nullopt);
  // b2 is nearly identical to a (t = -0.097): no number of B readings reaches p = 0.05.
  const std::vector<double> b2 = {20.5, 21.9, 19.8, 22.6, 20.1, 21.4, 20.9};
  EXPECT_EQ(required_b(moments(sample_a), moments(b2), 0.95), std::nullopt);
}

TEST(StatsWelchRequiredB, TheSeedsWorkedExample) {
  // Seed: c_v 25%, a 2% difference, equal n on both sides: n = 2 (t* c_v / eps)^2 = 1201 with
  // t* = 1.96, and 2453 for 80% power with z = 0.84. Against a baseline of exactly that size the
  // formula must ask for about as many B readings. With the exact quantiles (Welch df = 2 (n - 1)
  // for equal variances and sizes), R:
  //   ts <- qt(0.975, 2400); 625 / ((2/ts)^2 - 625/1201)                      -> 1202.34 -> 1203
  //   tp <- qt(0.975, 4904) + qnorm(0.8); 625 / ((2/tp)^2 - 625/2453)          -> 2454.24 -> 2455
  const sample_moments a1{100, 625, 1201}, b1{98, 625, 1201};
  EXPECT_EQ(required_b(a1, b1, 0.95), std::optional<double>(1203));
  const sample_moments a2{100, 625, 2453}, b2{98, 625, 2453};
  EXPECT_EQ(required_b(a2, b2, 0.95, 0.8), std::optional<double>(2455));
}

// ---------------------------------------------------------------------------------------------
// WPS: duration against work

// mean_b / mean_a by the delta method: a = (mean 10, variance 4, 16 values), b = (12, 9, 9).
// Welch's df = 1.25^2 / (0.25^2 / 15 + 1 / 8) = 12.0968, t = -2 / sqrt(1.25) = -1.78885,
// p = 0.098689; the ratio 1.2 times (1 +- t* sqrt(4 / 1600 + 9 / 1296)). t* and p from mpmath
// 1.3.0 (30 digits, Student's t through the regularised incomplete beta).
TEST(StatsWelchRatio, DeltaMethodMatchesTheFormula) {
  const sample_moments a{10, 4, 16}, b{12, 9, 9};
  const welch_result w95 = welch_test(a, b, 0.95);
  const ratio_interval r95 = welch_ratio(a, b, w95);
  EXPECT_DOUBLE_EQ(r95.ratio, 1.2);
  EXPECT_NEAR(r95.low, 0.94613420944782029, 1e-12);
  EXPECT_NEAR(r95.high, 1.4538657905521797, 1e-12);
  const ratio_interval r90 = welch_ratio(a, b, welch_test(a, b, 0.90));
  EXPECT_NEAR(r90.low, 0.99228979652550985, 1e-12);
  EXPECT_NEAR(r90.high, 1.4077102034744902, 1e-12);
}

// Separated needs both: at level 0.1 Welch's p = 0.0987 is within it, but the ratio's 90%
// interval [0.9923, 1.4077] still holds 1, so the two are not separated. Four times the values
// on each side separate them at 0.05 (t = -3.58; ratio interval about [1.08, 1.32]).
TEST(StatsWelchRatio, SeparatedNeedsTheTestAndTheRatioToAgree) {
  const sample_moments a{10, 4, 16}, b{12, 9, 9};
  EXPECT_NEAR(welch_test(a, b, 0.9).p, 0.098688991827209720, 1e-12);
  EXPECT_FALSE(separated(a, b, 0.1));
  EXPECT_FALSE(separated(a, b, 0.05));
  const sample_moments a4{10, 4, 64}, b4{12, 9, 36};
  EXPECT_TRUE(separated(a4, b4, 0.05));
  EXPECT_TRUE(separated(b4, a4, 0.05));  // either way round
  EXPECT_FALSE(separated(a4, a4, 0.05));
}

TEST(StatsWps, RecoversAKnownLine) {
  // T = alpha + w / v with alpha = 0.5 s and v = 250 units/s, w = 50, 100, ..., 1000, plus a
  // +-1e-9 s alternating disturbance. The naive rate sum(w)/sum(T) = 10500 / 52 = 201.92: the
  // seed's v / (1 + alpha v / w) bias, here 19% low.
  std::vector<double> w, t;
  for (int j = 1; j <= 20; ++j) {
    w.push_back(50.0 * j);
    t.push_back(0.5 + 50.0 * j / 250 + (j % 2 ? 1e-9 : -1e-9));
  }
  const auto f = fit_wps(w, t, 0.95);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->rounds, 20u);
  EXPECT_NEAR(f->alpha, 0.5, 1e-8);
  EXPECT_REL(f->beta, 1.0 / 250, 1e-8);
  EXPECT_REL(f->rate, 250, 1e-8);
  ASSERT_TRUE(f->rate_low && f->rate_high);
  EXPECT_LE(*f->rate_low, 250);
  EXPECT_GE(*f->rate_high, 250);
  EXPECT_LT(*f->rate_high - *f->rate_low, 1e-4);
  EXPECT_REL(f->naive_rate, 10500.0 / 52.0, 1e-12);
  EXPECT_LT(f->residual_sd, 2e-9);
}

TEST(StatsWps, MatchesRLm) {
  // R: wk <- 1:10; T <- c(3.1, 4.9, 7.2, 8.8, 11.1, 13.0, 14.8, 17.2, 19.1, 20.9)
  //    m <- lm(T ~ wk); coef(m); summary(m)$coefficients[2, 2]; summary(m)$sigma; confint(m)[2, ]
  const std::vector<double> w = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const std::vector<double> t = {3.1, 4.9, 7.2, 8.8, 11.1, 13.0, 14.8, 17.2, 19.1, 20.9};
  const auto f = fit_wps(w, t, 0.95);
  ASSERT_TRUE(f);
  EXPECT_REL(f->alpha, 1.0266666666666642, 1e-12);
  EXPECT_REL(f->beta, 1.9969696969696971, 1e-13);
  EXPECT_REL(f->residual_sd, 0.16133909331065049, 1e-12);
  const double lo = 1.9560084924236332, hi = 2.037930901515761;  // confint(m)[2, ]
  EXPECT_REL(f->beta_half_width, (hi - lo) / 2, 1e-11);
  // delta = t*_{h-2} SE(beta): SE = 0.017762849563336701 (summary), t*_8 = qt(0.975, 8).
  EXPECT_REL(f->beta_half_width, 2.3060041352041658 * 0.017762849563336701, 1e-11);
  EXPECT_REL(f->rate, 1 / 1.9969696969696971, 1e-13);
  ASSERT_TRUE(f->rate_low && f->rate_high);
  EXPECT_REL(*f->rate_low, 1 / hi, 1e-11);
  EXPECT_REL(*f->rate_high, 1 / lo, 1e-11);
  // R: 55 / 120.1
  EXPECT_REL(f->naive_rate, 0.45795170691090759, 1e-13);
}

TEST(StatsWps, OtherConfidenceMatchesR) {
  // R: confint(m, level = 0.9)[2, ] -> 1.9639388249232377 2.0300005690161562
  const std::vector<double> w = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const std::vector<double> t = {3.1, 4.9, 7.2, 8.8, 11.1, 13.0, 14.8, 17.2, 19.1, 20.9};
  const auto f = fit_wps(w, t, 0.90);
  ASSERT_TRUE(f);
  EXPECT_REL(*f->rate_low, 1 / 2.0300005690161562, 1e-11);
  EXPECT_REL(*f->rate_high, 1 / 1.9639388249232377, 1e-11);
}

TEST(StatsWps, NoIntervalWhenTheSlopeIntervalContainsZero) {
  // w = 1..5, T = 2 5 3 6 4: by hand beta = 5/10 = 0.5, alpha = 2.5, residuals -1 1.5 -1 1.5 -1,
  // sigma^2 = 7.5/3, SE = sqrt(2.5/10) = 0.5, delta = qt(0.975, 3) * 0.5 = 1.5912 > beta.
  const std::vector<double> w = {1, 2, 3, 4, 5};
  const std::vector<double> t = {2, 5, 3, 6, 4};
  const auto f = fit_wps(w, t, 0.95);
  ASSERT_TRUE(f);
  EXPECT_NEAR(f->beta, 0.5, 1e-14);
  EXPECT_NEAR(f->alpha, 2.5, 1e-14);
  const double delta = 3.1824463052837078 * 0.5;  // R: qt(0.975, 3)
  EXPECT_REL(f->beta_half_width, delta, 1e-12);
  EXPECT_DOUBLE_EQ(f->rate, 2.0);
  // The seed: no interval unless beta - delta > 0 (here 0.5 - 1.59 < 0), not even a lower end.
  EXPECT_FALSE(f->rate_low);
  EXPECT_FALSE(f->rate_high);
  EXPECT_EQ(f->verdict, mcpilot::wps_verdict::slope_contains_zero);
}

TEST(StatsWps, NotEnoughData) {
  // The same work in every round: the slope is not identified.
  const std::vector<double> same_w(10, 100.0);
  std::vector<double> t;
  for (int j = 0; j < 10; ++j) t.push_back(1.0 + 0.01 * j);
  EXPECT_FALSE(fit_wps(same_w, t, 0.95));
  // Two rounds leave no degree of freedom for the residual variance.
  EXPECT_FALSE(fit_wps(std::vector<double>{1, 2}, std::vector<double>{1, 2}, 0.95));
  EXPECT_THROW(fit_wps(std::vector<double>{1, 2, 3}, std::vector<double>{1, 2}, 0.95),
               std::invalid_argument);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
