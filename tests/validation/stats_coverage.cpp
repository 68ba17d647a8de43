// Full-size validation of the statistics core by seeded simulation: the studies that
// tests/unit/stats_simulation_test.cpp runs small, at sizes whose binomial error is a fraction of
// a percent, plus the presets across several autocorrelations, Welch's size and power, and the
// exact coverage of the two proportion intervals. Prints one table per study and exits 1 when a
// check fails. `ctest -L validation`, or run validate_stats_coverage directly (about a minute).
//
// Every check compares an estimate with a value from the mathematics, allowing 4 binomial (or
// empirical) standard errors; the comments say where each value comes from. The numbers are
// recorded in docs/validation.md.

#include <boost/random/normal_distribution.hpp>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "../support/ar1_study.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/autocorrelation.hpp"
#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/interval.hpp"
#include "mcpilot/stats/precision.hpp"
#include "mcpilot/stats/proportion.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "mcpilot/stats/welch.hpp"

namespace {

using namespace mcpilot;
using test::ar1_batch_lag1;
using test::fill_ar1;

int failures = 0;

// Prints the verdict of one check and counts the failures.
const char* verdict(bool ok) {
  if (!ok) ++failures;
  return ok ? "ok" : "FAIL";
}

double binomial_sd(double p, double m) {
  return std::sqrt(p * (1 - p) / m);
}

// 1. The t interval on iid normal readings covers at the nominal level; a z interval covers
// 2 F_{n-1}(1.96) - 1, which is what the harness must reproduce too.
void iid_t_interval() {
  std::printf("\n1. iid N(10, 2^2): coverage of the 95%% interval, 100000 samples each\n");
  std::printf("%6s %10s %10s %12s %12s %6s\n", "n", "t interval", "expected", "z interval",
              "expected", "check");
  std::mt19937_64 gen(101);
  boost::random::normal_distribution<double> normal(10.0, 2.0);
  const int m = 100000;
  for (std::size_t n : {5, 10, 30}) {
    int t_cov = 0, z_cov = 0;
    std::vector<double> x(n);
    for (int s = 0; s < m; ++s) {
      for (double& xi : x) xi = normal(gen);
      const t_interval iv = mean_interval(x, 0.95);
      t_cov += iv.low() <= 10 && 10 <= iv.high();
      const double z_half = normal_critical(0.95) * iv.sd / std::sqrt(static_cast<double>(n));
      z_cov += std::abs(iv.mean - 10) <= z_half;
    }
    const double t_rate = static_cast<double>(t_cov) / m, z_rate = static_cast<double>(z_cov) / m;
    const double z_expected = 2 * t_cdf(static_cast<double>(n - 1), normal_critical(0.95)) - 1;
    const bool ok = std::abs(t_rate - 0.95) <= 4 * binomial_sd(0.95, m) &&
                    std::abs(z_rate - z_expected) <= 4 * binomial_sd(z_expected, m);
    std::printf("%6zu %10.4f %10.4f %12.4f %12.4f %6s\n", n, t_rate, 0.95, z_rate, z_expected,
                verdict(ok));
  }
}

// 2. analyze() per preset on AR(1) series: coverage, the subsession size chosen, and the naive
// interval on the raw readings beside the prediction 2 Phi(1.96/sqrt(gamma_n)) - 1.
void ar1_presets() {
  std::printf(
      "\n2. AR(1) around 10, unit variance: analyze() without warm-up removal, 2000 series each\n");
  std::printf("%5s %6s %8s %9s %7s %8s %9s %9s %6s\n", "rho", "n", "preset", "coverage", "mean q",
              "no int.", "naive", "predicted", "check");
  const int m = 2000;
  const char* presets[] = {"quick", "normal", "strict"};
  for (double rho : {0.0, 0.5, 0.8, 0.9}) {
    for (std::size_t n : {2000, 20000}) {
      std::mt19937_64 gen(1000 + static_cast<std::uint64_t>(rho * 10) * 7 + n);
      int covered[3] = {0, 0, 0}, with_interval[3] = {0, 0, 0}, naive = 0;
      double q_sum[3] = {0, 0, 0};
      std::vector<double> x(n);
      for (int s = 0; s < m; ++s) {
        fill_ar1(x, rho, 10, gen);
        for (int p = 0; p < 3; ++p) {
          analysis_options o;
          o.requirements = *preset(presets[p]);
          // Pilot's interval, which this study documents; interval_coverage.cpp puts the
          // correlation-adjusted default beside it.
          o.requirements.interval = interval_method::pilot;
          o.remove_warmup = false;
          const analysis a = analyze(x, o);
          if (!a.ci_high) continue;
          ++with_interval[p];
          covered[p] += *a.ci_low <= 10 && 10 <= *a.ci_high;
          q_sum[p] += static_cast<double>(*a.subsession_size);
        }
        const t_interval iv = mean_interval(x, 0.95);
        naive += iv.low() <= 10 && 10 <= iv.high();
      }
      const double naive_rate = static_cast<double>(naive) / m;
      const double predicted = naive_interval_coverage(ar1_variance_inflation(n, rho), 0.95);
      for (int p = 0; p < 3; ++p) {
        const double cov = static_cast<double>(covered[p]) / std::max(1, with_interval[p]);
        // Checks: the naive interval matches its prediction (row of the first preset only);
        // at rho = 0 every preset is nominal; strict keeps >= 90% (issue 2 asks it at rho = 0.8).
        bool ok = true;
        std::string what;
        if (p == 0) ok = ok && std::abs(naive_rate - predicted) <= 4 * binomial_sd(predicted, m);
        if (rho == 0.0) ok = ok && std::abs(cov - 0.95) <= 4 * binomial_sd(0.95, m);
        if (p == 2) ok = ok && cov >= 0.90;
        const bool checked = p == 0 || rho == 0.0 || p == 2;
        std::printf("%5.1f %6zu %8s %9.4f %7.1f %8d %9.4f %9.4f %6s\n", rho, n, presets[p], cov,
                    q_sum[p] / std::max(1, with_interval[p]), m - with_interval[p], naive_rate,
                    predicted, checked ? verdict(ok) : "-");
      }
    }
  }
}

// 3. The seed's 0.80 / 0.36 / 0.08: mean batch-mean lag-1 autocorrelation against the exact value.
void batch_autocorrelation_table() {
  std::printf("\n3. AR(1) rho = 0.8: mean of rho_1(q) over 200 series of 131072 readings\n");
  std::printf("%5s %10s %10s %10s %6s\n", "q", "mean", "exact", "tolerance", "check");
  const std::size_t qs[] = {1, 2, 4, 8, 16, 32, 64, 128};
  for (const auto& row : test::batch_lag1_study(131072, qs, 200, 0.8, 303))
    std::printf("%5zu %10.4f %10.4f %10.4f %6s\n", row.q, row.mean, row.exact, row.tolerance,
                verdict(row.ok()));
}

// 4. Welch: the size of the test under H0 with unequal variances and sizes, and the power of the
// seed's example (c_v 25%, a 2% difference) at the n of its two formulas.
void welch_size_and_power() {
  std::printf("\n4. Welch's test at p < 0.05\n");
  std::printf("%-44s %9s %9s %6s\n", "case", "rejects", "expected", "check");
  std::mt19937_64 gen(404);
  boost::random::normal_distribution<double> normal;
  {
    // H0 true, sd 1 with 8 readings against sd 4 with 30: Welch's rejection rate is ~0.05
    // (Student's pooled test would not be).
    const int m = 40000;
    int rejects = 0;
    std::vector<double> a(8), b(30);
    for (int s = 0; s < m; ++s) {
      for (double& v : a) v = 50 + normal(gen);
      for (double& v : b) v = 50 + 4 * normal(gen);
      rejects += welch_test(moments(a), moments(b), 0.95).p < 0.05;
    }
    const double r = static_cast<double>(rejects) / m;
    // Welch's approximation is not exact: allow 0.005 beyond 4 binomial sd.
    std::printf("%-44s %9.4f %9.4f %6s\n", "H0, n 8 sd 1 vs n 30 sd 4 (40000 pairs)", r, 0.05,
                verdict(std::abs(r - 0.05) <= 4 * binomial_sd(0.05, m) + 0.005));
  }
  for (double power : {0.0, 0.8}) {
    // The seed's equal-n formula n = 2 ((t* + z) c_v / eps)^2 with c_v 25%, eps 2% and exact
    // quantiles (t* at Welch's df 2n - 2 for equal variances and sizes): 1201 and 2453 in the
    // seed with t* = 1.96, z = 0.84. Simulate pairs of that size with a true 2% difference: the
    // rejection rate is Phi(d/se - t*) + Phi(-d/se - t*), se = 25 sqrt(2/n): ~0.5 without power,
    // ~0.8 with it.
    double n = power > 0 ? 2453 : 1201;
    for (int it = 0; it < 3; ++it) {
      const double z = power > 0 ? normal_quantile(power) : 0;
      n = std::ceil(2 * std::pow((t_critical(2 * n - 2, 0.95) + z) * 25 / 2, 2));
    }
    const std::size_t size = static_cast<std::size_t>(n);
    const double se = 25 * std::sqrt(2 / n), t_star = t_critical(2 * n - 2, 0.95);
    const double expected = normal_cdf(2 / se - t_star) + normal_cdf(-2 / se - t_star);
    const int m = 3000;
    int rejects = 0;
    std::vector<double> a(size), b(size);
    for (int s = 0; s < m; ++s) {
      for (double& v : a) v = 100 + 25 * normal(gen);
      for (double& v : b) v = 98 + 25 * normal(gen);
      rejects += welch_test(moments(a), moments(b), 0.95).p < 0.05;
    }
    const double r = static_cast<double>(rejects) / m;
    char label[64];
    std::snprintf(label, sizeof label, "2%% difference, n = %zu each (power %.1f)", size, power);
    std::printf("%-44s %9.4f %9.4f %6s\n", label, r, expected,
                verdict(std::abs(r - expected) <= 4 * binomial_sd(expected, m)));
  }
}

// 5. Exact coverage of Wald and Wilson for Binomial(n, p): no simulation, the binomial
// probabilities are summed; the table behind "prefer Wilson". Gates, each from the math:
//  - Wilson's interval is the inversion of the score test, so it holds p exactly when
//    |k - n p| <= z sqrt(n p (1 - p)): the coverage summed from wilson_interval must equal the sum
//    over those k, computed here without the library (to 1e-9, rounding at the edges aside);
//  - Wald's interval has width 0 at k = 0 and k = n, so its coverage is at most
//    1 - (1 - p)^n - p^n;
//  - where n p < 5 (Wald's rule of thumb fails) Wilson must cover at least as often as Wald.
void proportion_coverage() {
  std::printf("\n5. Exact coverage of the nominal 95%% proportion intervals\n");
  std::printf("%6s %6s %8s %8s %12s %8s\n", "n", "p", "Wald", "Wilson", "score-test", "check");
  const double z = 1.959963984540054;  // R: qnorm(0.975)
  for (int n : {20, 100, 1000}) {
    for (double p : {0.01, 0.05, 0.1, 0.3, 0.5}) {
      double wald = 0, wilson = 0, score = 0;
      for (int k = 0; k <= n; ++k) {
        const double pmf =
            std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) +
                     k * std::log(p) + (n - k) * std::log1p(-p));
        const double ph = static_cast<double>(k) / n;
        const proportion_bounds a = wald_interval(ph, static_cast<std::size_t>(n), 0.95);
        const proportion_bounds b = wilson_interval(ph, static_cast<std::size_t>(n), 0.95);
        if (a.low <= p && p <= a.high) wald += pmf;
        if (b.low <= p && p <= b.high) wilson += pmf;
        if (std::abs(k - n * p) <= z * std::sqrt(n * p * (1 - p))) score += pmf;
      }
      const bool ok = std::abs(wilson - score) <= 1e-9 &&
                      wald <= 1 - std::pow(1 - p, n) - std::pow(p, n) + 1e-12 &&
                      (n * p >= 5 || wilson >= wald);
      std::printf("%6d %6.2f %8.4f %8.4f %12.4f %8s\n", n, p, wald, wilson, score, verdict(ok));
    }
  }
}

}  // namespace

int main() {
  const auto start = std::chrono::steady_clock::now();
  iid_t_interval();
  ar1_presets();
  batch_autocorrelation_table();
  welch_size_and_power();
  proportion_coverage();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("\n%d check(s) failed; %.0f s\n", failures, seconds);
  return failures == 0 ? 0 : 1;
}
