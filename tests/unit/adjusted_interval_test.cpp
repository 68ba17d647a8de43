// The correlation-adjusted interval (stats/adjusted_interval.hpp) and where it is the default.
//
// Known answers are worked by hand in the comments; t quantiles quote R (`qt`, R 4.x,
// `options(digits = 17)`). The AR(1) closed forms are those of docs/statistics.md: gamma_n and the
// exact lag-1 autocorrelation of AR(1) batch means.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/special_functions/digamma.hpp>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include <nlohmann/json.hpp>

#include "../../examples/mm1_queue/mm1_model.hpp"
#include "../../examples/pi/pi_model.hpp"
#include "../support/ar1_study.hpp"
#include "cli_test_support.hpp"
#include "mcpilot/session.hpp"
#include "mcpilot/stats/adjusted_interval.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/autocorrelation.hpp"
#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/sample_size.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

TEST(AdjustedInterval, BiasCorrectionOfTheLag1) {
  // (h r + 1) / (h - 4): h = 8, r = 0.1 -> 1.8 / 4 = 0.45; h = 104, r = 0.2 -> 21.8 / 100.
  EXPECT_DOUBLE_EQ(corrected_lag1(0.1, 8), 0.45);
  EXPECT_DOUBLE_EQ(corrected_lag1(0.2, 104), 0.218);
  // Below 8 batches the estimate is used as it is.
  EXPECT_DOUBLE_EQ(corrected_lag1(0.3, 7), 0.3);
}

TEST(AdjustedInterval, InflationIsTheAr1FactorOfTheCorrectedLag1) {
  // (1 + r) / (1 - r): r = 0.5 -> 3, r = 0.9 -> 19 (h < 8: no correction).
  EXPECT_DOUBLE_EQ(correlation_inflation(0.5, 5), 3.0);
  EXPECT_NEAR(correlation_inflation(0.9, 5), 19.0, 1e-12);
  // h = 8, r = 0.1: corrected 0.45 -> 1.45 / 0.55.
  EXPECT_NEAR(correlation_inflation(0.1, 8), 1.45 / 0.55, 1e-12);
  // A negative estimate never narrows: (100 (-0.3) + 1) / 96 < 0 -> 1.
  EXPECT_DOUBLE_EQ(correlation_inflation(-0.3, 100), 1.0);
  // Capped at r = 0.99: 1.99 / 0.01 = 199.
  EXPECT_NEAR(correlation_inflation(0.999, 5), 199.0, 1e-9);
  // It is the limit of the AR(1) gamma_n (docs/statistics.md): (1 + 0.8) / (1 - 0.8) = 9.
  EXPECT_NEAR(correlation_inflation(0.8, 5), ar1_variance_inflation(10'000'000, 0.8), 1e-5);
}

TEST(AdjustedInterval, HandWorkedFiveBatches) {
  // Batch means 1..5: mean 3, deviations -2 -1 0 1 2, sum of squares 10, s^2 = 10 / 4 = 2.5;
  // lag-1 = ((-2)(-1) + (-1)(0) + (0)(1) + (1)(2)) / 10 = 0.4; h = 5 < 8, so A = 1.4 / 0.6 = 7/3.
  // Half-width t*_4 sqrt(2.5 A / 5) = qt(0.975, 4) sqrt(7/6).
  const std::vector<double> y = {1, 2, 3, 4, 5};
  const double lag1 = batch_autocorrelation(y, 1);
  EXPECT_NEAR(lag1, 0.4, 1e-15);
  const t_interval iv = adjusted_mean_interval(y, lag1, skewness(y), 0.95);
  const double qt4 = 2.7764451051977987;  // qt(0.975, 4)
  EXPECT_DOUBLE_EQ(iv.mean, 3.0);
  EXPECT_NEAR(iv.half_width, qt4 * std::sqrt(7.0 / 6.0), 1e-12);
  EXPECT_NEAR(iv.sd, std::sqrt(2.5 * 7.0 / 3.0), 1e-14);
  // Pilot's is the same without A.
  EXPECT_NEAR(mean_interval(y, 0.95).half_width, qt4 * std::sqrt(0.5), 1e-12);
}

TEST(AdjustedInterval, SkewnessQuantileInvertsWillinksCubic) {
  // Willink (2005): the skewness-adjusted quantile G is the inverse of the cubic
  //   z = y + beta + 2 beta y^2 + (4/3) beta^2 y^3,
  // which is (1 + 2 beta y)^3 = 1 + 6 beta (z - beta) expanded; beta = 0 is Student's t itself.
  for (const double beta : {-0.15, -0.01, -1e-9, 0.0, 1e-9, 0.002, 0.05, 0.15}) {
    double previous = -1e300;
    for (const double z : {-4.0, -1.96, -0.5, 0.0, 0.5, 1.96, 4.0}) {
      const double y = skewness_adjusted_quantile(z, beta);
      EXPECT_NEAR(y + beta + 2 * beta * y * y + 4.0 / 3 * beta * beta * y * y * y, z, 1e-12)
          << beta << " " << z;
      EXPECT_GT(y, previous) << "increasing in z";
      previous = y;
    }
  }
  EXPECT_EQ(skewness_adjusted_quantile(1.96, 0.0), 1.96);
  // Right skew moves both quantiles down, so the interval x - G(t) se .. x - G(-t) se moves up.
  EXPECT_LT(skewness_adjusted_quantile(1.96, 0.05), 1.96);
  EXPECT_LT(skewness_adjusted_quantile(-1.96, 0.05), -1.96);
  // To first order in beta the interval moves up by (1 + 2 z^2) beta (G(z) = z - beta -
  // 2 beta z^2 + O(beta^2)) and keeps its width 2z. At beta = 5e-4, z = 1.96 (Python): the move
  // is 0.004341659 against 0.0043416, the width 3.920029 against 3.92.
  const double z = 1.96, b = 5e-4;
  const double gu = skewness_adjusted_quantile(z, b), gl = skewness_adjusted_quantile(-z, b);
  EXPECT_NEAR(-(gu + gl) / 2, b * (1 + 2 * z * z), 1e-6);
  EXPECT_NEAR(gu - gl, 2 * z, 1e-4);
}

TEST(AdjustedInterval, HandWorkedSkewedBatches) {
  // Batch means {1, 2, 3, 4, 10}: mean 4, s^2 = 50 / 4 = 12.5, lag-1 = (6 + 2 + 0 + 0) / 50 =
  // 0.16, A = 1.16 / 0.84 (h < 8), se = sqrt(12.5 A / 5); skewness G1 = 1.697056274847714,
  // beta = G1 / (6 sqrt 5) = 0.1265, far outside the expansion's range: 6 beta (t + beta) = 2.2
  // with t = qt(0.975, 4) = 2.7764451051977987 (uncapped, the interval was [0.739, 19.16]).
  // Capped: beta_max = (sqrt(t^2 + 4 (0.8) / 6) - t) / 2 = 0.047219953695775347, and then
  // (mpmath, 25 digits) G(t) = 2.2276905862389955, G(-t) = -4.3964089316183869, so
  // [4 - G(t) se, 4 - G(-t) se] = [-0.13917916713937818, 12.168784467821069], and the width is
  // (G(t) - G(-t)) / (2 t) = 1.1929102263639875 times the symmetric interval's.
  const std::vector<double> y = {1, 2, 3, 4, 10};
  const double lag1 = batch_autocorrelation(y, 1);
  EXPECT_NEAR(lag1, 0.16, 1e-15);
  const double t4 = 2.7764451051977987;
  EXPECT_NEAR(capped_skew_beta(1.697056274847714 / (6 * std::sqrt(5.0)), t4), 0.047219953695775347,
              1e-15);
  EXPECT_EQ(capped_skew_beta(-1.0, t4), -capped_skew_beta(1.0, t4));
  EXPECT_EQ(capped_skew_beta(0.01, t4), 0.01);  // within range: untouched
  const t_interval iv = adjusted_mean_interval(y, lag1, skewness(y), 0.95);
  EXPECT_DOUBLE_EQ(iv.mean, 4.0);
  EXPECT_NEAR(iv.low(), -0.13917916713937818, 1e-12);
  EXPECT_NEAR(iv.high(), 12.168784467821069, 1e-12);
  EXPECT_NEAR(iv.width_factor, 1.1929102263639875, 1e-12);
  EXPECT_NEAR(iv.sd, std::sqrt(12.5 * 1.16 / 0.84), 1e-14);
  // Without skewness it is the symmetric interval of HandWorkedFiveBatches' form.
  const t_interval sym = adjusted_mean_interval(y, lag1, 0.0, 0.95);
  EXPECT_EQ(sym.shift, 0.0);
  EXPECT_NEAR(sym.half_width, 2.7764451051977987 * std::sqrt(2.5 * 1.16 / 0.84), 1e-12);
}

TEST(AdjustedInterval, SideRatioBetaMatchesMpmath) {
  // mpmath (30 digits): findroot of -G(-t, beta) / G(t, beta) = 1.3 with G as in
  // skewness_adjusted_quantile, at t = qnorm(0.975) and t = qt(0.975, 49) = 2.0095752344892088.
  EXPECT_NEAR(side_ratio_beta(1.959963984540054, 1.3), 0.028812060057012790, 1e-14);
  EXPECT_NEAR(side_ratio_beta(2.0095752344892088, 1.3), 0.028251565245827852, 1e-14);
  // At the cap the sides are 2.0292 apart (mpmath); a looser ratio never binds before the cap.
  EXPECT_EQ(side_ratio_beta(1.959963984540054, 2.1), capped_skew_beta(1.0, 1.959963984540054));
  EXPECT_LT(side_ratio_beta(1.959963984540054, 2.0), capped_skew_beta(1.0, 1.959963984540054));
}

// 3,000 independent lognormal(0, 1.5) readings: the batch means' skewness puts beta = B / (6
// sqrt h) above the 1.3x sides' beta. Without the rule (an infinite ratio) they converge with
// sides further apart than 1.3x. With it, a width between the interval's and its symmetric
// envelope's gives no verdict and the envelope as the interval, and a width the envelope meets
// gives the verdict on the envelope.
TEST(AdjustedInterval, NoVerdictWhileTheSidesDifferByMoreThanTheRatio) {
  std::mt19937_64 gen(35);
  std::normal_distribution<double> z(0, 1.5);
  std::vector<double> x(3000);
  for (double& v : x) v = std::exp(z(gen));
  analysis_options o;
  o.remove_warmup = false;
  o.requirements = *preset("normal");
  // Without the rule (an infinite ratio): the adjusted interval as it is, and its longer side.
  o.requirements.max_side_ratio = std::numeric_limits<double>::infinity();
  o.requirements.ci_perc = 1.0;
  const analysis free = analyze(x, o);
  ASSERT_TRUE(free.mean && free.ci_low && free.ci_high && free.subsession_skewness);
  EXPECT_TRUE(free.converged) << free.status;
  const double m = *free.mean, lo = *free.ci_low, hi = *free.ci_high;
  const double longer = std::max(m - lo, hi - m);
  EXPECT_GT((hi - m) / (m - lo), 1.3);
  // A width the adjusted interval meets and its symmetric envelope does not: held back.
  o.requirements.max_side_ratio = 1.3;
  o.requirements.ci_perc = (hi - lo + 2 * longer) / 2 / m;
  const analysis held = analyze(x, o);
  // No verdict, and not the lopsided interval either: its envelope, mean -+ the longer side.
  EXPECT_DOUBLE_EQ(*held.mean, m);
  EXPECT_DOUBLE_EQ(*held.ci_low, m - longer);
  EXPECT_DOUBLE_EQ(*held.ci_high, m + longer);
  EXPECT_DOUBLE_EQ(*held.ci_width, 2 * longer);
  EXPECT_GT(*held.ci_width, held.target_width);
  EXPECT_LE(hi - lo, held.target_width);  // the adjusted interval would have met it
  EXPECT_FALSE(held.converged);
  EXPECT_TRUE(held.symmetric_envelope);
  EXPECT_NE(held.status.find("sides differ by more than 1.3x"), std::string::npos) << held.status;
  EXPECT_NE(held.status.find("symmetric envelope"), std::string::npos) << held.status;
  ASSERT_TRUE(held.subsession_count && held.subsession_size && held.required_samples);
  const double h = static_cast<double>(*held.subsession_count);
  const double beta_v = side_ratio_beta(t_critical(h - 1, 0.95), 1.3);
  const double b = *held.subsession_skewness;
  EXPECT_GT(b / (6 * std::sqrt(h)), beta_v);
  // The readings still needed: more than it has, at least those at which beta falls to beta_v
  // (h_v = (B / (6 beta_v))^2 batch means) or those at which the envelope's width, falling as
  // 1 / sqrt(h), meets the target (h_e), whichever is fewer, and no more than the envelope's.
  const double grow = 2 * longer / held.target_width;
  const auto q = *held.subsession_size;
  const auto h_v = static_cast<std::size_t>(std::ceil(b * b / (36 * beta_v * beta_v)));
  const auto h_e = static_cast<std::size_t>(std::ceil(h * grow * grow));
  EXPECT_GT(*held.required_samples, held.n_used);
  EXPECT_GE(*held.required_samples, q * std::min(h_v, h_e));
  EXPECT_LE(*held.required_samples, q * std::max(h_e, o.requirements.min_samples));
  // A width the envelope meets: the verdict, on the envelope, mean -+ the longer side.
  o.requirements.ci_perc = 2 * longer / m * 1.01;
  const analysis wide = analyze(x, o);
  EXPECT_TRUE(wide.converged) << wide.status;
  EXPECT_TRUE(wide.symmetric_envelope);
  EXPECT_DOUBLE_EQ(*wide.ci_low, m - longer);
  EXPECT_DOUBLE_EQ(*wide.ci_high, m + longer);
  EXPECT_DOUBLE_EQ(*wide.ci_width, 2 * longer);
  EXPECT_NE(wide.status.find("symmetric envelope"), std::string::npos) << wide.status;
}

// Seeded simulation: the skewness adjustment on independent, strongly skewed values. Means of
// h = 30 Exp(1) values (skewness 2): the t interval covers less than 95% and misses mostly on
// one side, because a low mean comes with a low s. The Cornish-Fisher error of the t ratio is
// O(h^-1/2) and the adjusted one's O(1/h). 20,000 samples give a coverage to a binomial sd of
// at most 0.0018; each threshold sits about 4 sd beyond what the intervals measure here (t:
// 0.929, with 6.4% of misses below the truth and 0.7% above; adjusted: 0.948, 3.3% and 1.9%).
TEST(AdjustedInterval, SkewnessAdjustmentOnExponentialMeans) {
  std::mt19937_64 gen(2005);
  std::exponential_distribution<double> exp1(1.0);
  std::vector<double> y(30);
  const int m = 20'000;
  int t_cover = 0, t_low = 0, adj_cover = 0, adj_low = 0, adj_high = 0;
  for (int s = 0; s < m; ++s) {
    for (double& v : y) v = exp1(gen);
    const t_interval t = mean_interval(y, 0.95);
    // A lag-1 of -1 corrects to below 0, so A = 1: only the skewness acts.
    const t_interval a = adjusted_mean_interval(y, -1.0, skewness(y), 0.95);
    t_cover += t.low() <= 1 && 1 <= t.high();
    t_low += t.high() < 1;
    adj_cover += a.low() <= 1 && 1 <= a.high();
    adj_low += a.high() < 1;
    adj_high += a.low() > 1;
  }
  EXPECT_LE(t_cover, 0.937 * m);
  EXPECT_GE(t_low, 0.057 * m) << "the t interval misses mostly below";
  EXPECT_GE(adj_cover, 0.941 * m);
  EXPECT_LE(adj_low, 0.038 * m);
  EXPECT_LE(adj_high, 0.025 * m) << "and not by moving the misses to the other side";
}

// The estimator's target, in closed form. For AR(1) readings (unit variance) in batches of q,
// a batch mean has variance gamma_q / q and adjacent ones the lag-1 autocorrelation r(q) of
// ar1_batch_lag1; the mean of h batches has variance gamma_{hq} / (hq). With the exact r(q) the
// adjusted estimate (gamma_q / q) A(r(q)) / h must be at least that (the batch means' correlation
// beyond lag 1 is smaller than AR(1)'s r^k), and close to it; Pilot's (A = 1) is too small.
TEST(AdjustedInterval, Ar1BatchMeansVarianceClosedForm) {
  const std::size_t h = 1'000'000;  // many batches: the bias correction is negligible (< 1e-5)
  for (const double rho : {0.5, 0.8, 0.9, 0.95}) {
    for (const double limit : {0.2, 0.1}) {
      // The q the normal and strict presets aim at: the first whose exact r(q) is within limit.
      std::size_t q = 1;
      while (test::ar1_batch_lag1(q, rho) > limit) ++q;
      const double r = test::ar1_batch_lag1(q, rho);
      const double truth = ar1_variance_inflation(h * q, rho);  // (hq) Var(mean)
      const double batch = ar1_variance_inflation(q, rho);      // q Var(batch mean)
      const double adjusted = batch * correlation_inflation(r, h);
      // (1 + r) / (1 - r) exceeds the true 1 + 2 r / (1 - rho^q) of these ARMA(1,1)-like means by
      // about 2 r^2, at most 0.08 for r <= 0.2.
      EXPECT_GE(adjusted, truth * (1 - 1e-9)) << rho << " " << q;
      EXPECT_LE(adjusted, truth * (1 + 2 * r * r / (1 - r))) << rho << " " << q;
      EXPECT_LT(batch, truth * (1 - r)) << "Pilot's estimate is biased low by about r";
    }
  }
  // At q = 1 the readings themselves are AR(1): the factor is exact, gamma_n -> (1+rho)/(1-rho).
  EXPECT_NEAR(correlation_inflation(0.9, h), ar1_variance_inflation(1'000'000'000, 0.9), 1e-3);
}

TEST(AdjustedInterval, AnalyzeUsesItByDefaultAndPilotOnRequest) {
  std::mt19937_64 gen(16);
  std::vector<double> x(5000);
  test::fill_ar1(x, 0.8, 10, gen);
  analysis_options o;
  o.remove_warmup = false;
  o.requirements = *preset("normal");
  o.requirements.ci_perc = 0.01;  // so that the width, not the 50 subsessions, sets the need
  const analysis adj = analyze(x, o);
  o.requirements.interval = interval_method::pilot;
  const analysis pil = analyze(x, o);
  EXPECT_EQ(adj.interval, interval_method::adjusted);
  EXPECT_EQ(pil.interval, interval_method::pilot);
  EXPECT_EQ(pil.variance_inflation, 1.0);
  ASSERT_TRUE(adj.subsession_size && pil.subsession_size);
  EXPECT_EQ(*adj.subsession_size, *pil.subsession_size);  // same batches
  const auto batches =
      batch_means(std::span<const double>(x).first(adj.n_used), *adj.subsession_size);
  const double lag1 = *adj.subsession_autocorrelation;
  // The interval written out from docs/statistics.md in this test, not by adjusted_mean_interval:
  // se = s sqrt(A / h), beta = B / (6 sqrt h) capped at (sqrt(t^2 + 0.8 * 4 / 6) - t) / 2,
  // G(z) = (cbrt(1 + 6 beta (z - beta)) - 1) / (2 beta), [x - G(t) se, x - G(-t) se].
  const double h = static_cast<double>(batches.size());
  double xbar = 0;
  for (double b : batches) xbar += b / h;
  double ss = 0;
  for (double b : batches) ss += (b - xbar) * (b - xbar);
  const double r = std::clamp((h * lag1 + 1) / (h - 4), 0.0, 0.99);
  const double sd_a = std::sqrt(ss / (h - 1) * (1 + r) / (1 - r));
  const double se = sd_a / std::sqrt(h);
  const double t = t_critical(h - 1, 0.95);
  const double beta_raw = skewness(batches) / (6 * std::sqrt(h));
  const double cap = (std::sqrt(t * t + 0.8 * 4 / 6) - t) / 2;
  const double beta = std::clamp(beta_raw, -cap, cap);
  const auto g = [&](double z) { return (std::cbrt(1 + 6 * beta * (z - beta)) - 1) / (2 * beta); };
  ASSERT_NE(beta, 0.0);
  EXPECT_NEAR(*adj.ci_low, xbar - g(t) * se, 1e-9 * std::abs(xbar));
  EXPECT_NEAR(*adj.ci_high, xbar - g(-t) * se, 1e-9 * std::abs(xbar));
  EXPECT_DOUBLE_EQ(adj.variance_inflation, (1 + r) / (1 - r));
  EXPECT_GT(adj.variance_inflation, 1.0);
  const t_interval plain = mean_interval(batches, 0.95);
  EXPECT_DOUBLE_EQ(*pil.ci_low, plain.low());
  // The required size follows the interval as it is: q max(h*, min) with sd s sqrt(A) times the
  // width's ratio to the symmetric interval's, (G(t) - G(-t)) / (2 t), then grown by the batch
  // means' variance growth, written out here from docs/statistics.md ("On heavy-tailed
  // readings"), not by variance_growth_exponent: the slope b of the mean over k = 1, 2, 4, 8 blocks
  // of ln s_m^2 - (psi((m-1)/2) - ln((m-1)/2)) against ln m, clamped to [0, 0.15], and
  // n = h*^(1/(1-b)) h^(-b/(1-b)). On these batches it adds 0.2%.
  const double width = 0.01 * std::abs(xbar);
  const double factor = (g(t) - g(-t)) / (2 * t);
  const double plain_h = static_cast<double>(*required_batches(sd_a * factor, width, 0.95));
  std::vector<double> lx, ly;
  for (std::size_t k = 1; k <= 8 && batches.size() / k >= 8; k *= 2) {
    const std::size_t m = batches.size() / k;
    double sum = 0;
    for (std::size_t i = 0; i < k; ++i) {
      const std::vector<double> block(batches.begin() + i * m, batches.begin() + (i + 1) * m);
      sum += std::log(variance(block));
    }
    const double half = (m - 1) / 2.0;
    lx.push_back(std::log(static_cast<double>(m)));
    ly.push_back(sum / k - (boost::math::digamma(half) - std::log(half)));
  }
  ASSERT_GE(lx.size(), 2u);
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < lx.size(); ++i) mx += lx[i] / lx.size(), my += ly[i] / lx.size();
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < lx.size(); ++i)
    sxy += (lx[i] - mx) * (ly[i] - my), sxx += (lx[i] - mx) * (lx[i] - mx);
  const double b = std::clamp(sxy / sxx, 0.0, 0.15);
  const double grown_h =
      plain_h > h ? std::ceil(std::pow(plain_h, 1 / (1 - b)) * std::pow(h, -b / (1 - b))) : plain_h;
  EXPECT_GE(grown_h, plain_h);
  EXPECT_LE(grown_h, 1.01 * plain_h);
  EXPECT_EQ(*adj.required_samples,
            *adj.subsession_size * std::max<std::size_t>(static_cast<std::size_t>(grown_h), 50));
  EXPECT_GT(*adj.required_samples, *pil.required_samples);
}

// Seeded simulation. AR(1), rho = 0.8, n = 2000, quick (limit 0.8, so mostly q = 1): Pilot's
// interval covers about 2 Phi(1.96 / 3) - 1 = 0.49 (docs/statistics.md); the adjusted interval
// must be nominal, 0.95 within 4 binomial sd for 400 series, 4 sqrt(0.95 0.05 / 400) = 0.044.
TEST(AdjustedInterval, CoverageOnAr1UnderQuick) {
  std::mt19937_64 gen(1616);
  std::vector<double> x(2000);
  int covered_adjusted = 0, covered_pilot = 0;
  const int m = 400;
  for (int s = 0; s < m; ++s) {
    test::fill_ar1(x, 0.8, 10, gen);
    analysis_options o;
    o.remove_warmup = false;
    o.requirements = *preset("quick");
    const analysis a = analyze(x, o);
    covered_adjusted += *a.ci_low <= 10 && 10 <= *a.ci_high;
    o.requirements.interval = interval_method::pilot;
    const analysis p = analyze(x, o);
    covered_pilot += *p.ci_low <= 10 && 10 <= *p.ci_high;
  }
  EXPECT_GE(covered_adjusted, static_cast<int>(std::floor((0.95 - 0.044) * m)));
  EXPECT_LE(covered_pilot, static_cast<int>(0.70 * m));
}

// Replication style stays Pilot's: replications are independent by construction. A session with
// no interval set must give bit-identical results to one that asks for Pilot's interval, and say
// so; a stream-style session gets the adjusted interval.
TEST(AdjustedInterval, ReplicationStyleKeepsPilotsIntervalStreamsAdjust) {
  auto pi = std::make_unique<examples::pi_model>();
  model_spec spec;
  pi->declare(spec);
  parameters p;
  p.set("darts", std::int64_t{100});
  pi->configure(p);
  session_settings s;
  s.seed = 3;
  s.threads = 1;
  s.engine.session_precision = *preset("normal");
  s.engine.session_precision.ci_perc = 0.02;
  const session_result by_default = run_session(*pi, spec, s);
  s.engine.session_precision.interval = interval_method::pilot;
  const session_result pilot = run_session(*pi, spec, s);
  const analysis &a = by_default.quantities.at(0).stats, &b = pilot.quantities.at(0).stats;
  EXPECT_EQ(a.interval, interval_method::pilot);
  EXPECT_EQ(by_default.replications, pilot.replications);
  EXPECT_EQ(*a.ci_low, *b.ci_low);
  EXPECT_EQ(*a.ci_high, *b.ci_high);
  EXPECT_EQ(*a.mean, *b.mean);
  EXPECT_EQ(a.required_samples, b.required_samples);

  auto mm1 = std::make_unique<examples::mm1_model>();
  model_spec mspec;
  mm1->declare(mspec);
  parameters mp;
  mp.set("arrival_rate", 0.5);
  mp.set("service_rate", 1.0);
  mm1->configure(mp);
  session_settings ms;
  ms.seed = 3;
  ms.threads = 1;
  ms.engine.session_precision = *preset("normal");
  ms.engine.session_precision.ci_perc = 0.2;
  ms.engine.streams = 2;
  const session_result r = run_session(*mm1, mspec, ms);
  EXPECT_EQ(r.quantities.at(0).stats.interval, interval_method::adjusted);
  EXPECT_GE(r.quantities.at(0).stats.variance_inflation, 1.0);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

// The storage quick-start config is replication style: its results must be those of the version
// before the adjusted interval existed, bit for bit. The values are that version's output
// (commit 0f43acd, `mcpilot run configs/storage/raid6-exponential.toml --seed 1 --json`), kept
// here as a regression anchor, not as known answers of the statistics.
TEST(AdjustedInterval, StorageQuickstartUnchangedBitForBit) {
  const test::temp_file json_out("", ".json");
  const auto r = test::run_mcpilot(
      {"run", std::string(MCPILOT_SOURCE_DIR) + "/configs/storage/raid6-exponential.toml", "--seed",
       "1", "--quiet", "--json", json_out.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(test::slurp(json_out.path()));
  EXPECT_EQ(j["replications"], 4695);
  const auto& q = j["quantities"];
  // Since issue 38 a fifth, optional quantity follows, durability_nines, derived from the same
  // readings: the four before it are unchanged.
  ASSERT_EQ(q.size(), 5u);
  EXPECT_EQ(q[4]["name"], "durability_nines");
  EXPECT_EQ(q[2]["name"], "mttdl_hours");
  EXPECT_EQ(q[2]["mean"].get<double>(), 2349744674382.632);
  EXPECT_EQ(q[2]["ci_low"].get<double>(), 2235351111395.8447);
  EXPECT_EQ(q[2]["ci_high"].get<double>(), 2464138237369.419);
  EXPECT_EQ(q[3]["ci_low"].get<double>(), 3.490953237160087e-08);
  EXPECT_EQ(q[3]["ci_high"].get<double>(), 3.755888126171679e-08);
  EXPECT_EQ(q[0]["ci_low"].get<double>(), 100023.98499962583);
  for (const auto& quantity : q) EXPECT_EQ(quantity["interval"], "pilot");
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
