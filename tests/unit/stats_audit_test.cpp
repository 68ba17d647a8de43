// Regression tests for the statistical defects an audit against the Pilot method found (issue 15,
// section 2), each checked against a hand derivation or a seeded simulation whose threshold
// comes from the math.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/changepoint.hpp"
#include "mcpilot/stats/proportion.hpp"
#include "mcpilot/stats/wps.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

using nlohmann::json;
using test::column_csv;
using test::run_mcpilot;
using test::temp_file;

// 1. Alternating 0/1: lag-1 -1, so q = 2 and every batch mean is exactly 0.5. A zero-width
// [0.5, 0.5] "converged" claimed certainty; the degenerate-batch rule gives no interval.
TEST(StatsAudit, ProportionWithEqualBatchMeansHasNoInterval) {
  std::vector<double> x(1000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i % 2);
  analysis_options opt;
  opt.kind = quantity_kind::proportion;
  opt.remove_warmup = false;
  const analysis a = analyze(x, opt);
  ASSERT_TRUE(a.subsession_size);
  EXPECT_EQ(*a.subsession_size, 2u);
  EXPECT_FALSE(a.ci_low);
  EXPECT_FALSE(a.ci_high);
  EXPECT_FALSE(a.converged);
  EXPECT_NE(a.status.find("no variation"), std::string::npos) << a.status;
}

// 2. A negative slope. w = 1..5, T = 9 7 6 3 1. By hand: w-bar 3, T-bar 5.2,
// Sxy = (-2)(3.8) + (-1)(1.8) + 0 + (1)(-2.2) + (2)(-4.2) = -20, Sxx = 10, beta = -2,
// alpha = 5.2 + 6 = 11.2; residuals -0.2 -0.2 0.8 -0.2 -0.2, RSS 0.8, sigma^2 = 0.8/3,
// SE = sqrt(0.8/30) = 0.163299, delta = qt(0.975, 3) SE = 3.182446 * 0.163299 = 0.519691.
// beta + delta = -1.48 <= 0: duration does not grow with work, and there is no rate interval
// (the old code printed "rate -0.5 [0.67, unbounded)": the lower end above the estimate).
TEST(StatsAudit, WpsNegativeSlopeSaysDurationDoesNotGrow) {
  const std::vector<double> w = {1, 2, 3, 4, 5}, t = {9, 7, 6, 3, 1};
  const auto f = fit_wps(w, t, 0.95);
  ASSERT_TRUE(f);
  EXPECT_NEAR(f->beta, -2, 1e-14);
  EXPECT_NEAR(f->alpha, 11.2, 1e-13);
  EXPECT_NEAR(f->beta_half_width, 3.1824463052837078 * std::sqrt(0.8 / 30), 1e-12);
  EXPECT_EQ(f->verdict, wps_verdict::no_growth);
  EXPECT_FALSE(f->rate_low);
  EXPECT_FALSE(f->rate_high);

  std::string csv = "w,t\n";
  for (std::size_t i = 0; i < w.size(); ++i)
    csv += std::to_string(w[i]) + "," + std::to_string(t[i]) + "\n";
  const temp_file file(csv);
  // Residuals' lag-1 by hand: (0.04 - 0.16 - 0.16 + 0.04) / 0.8 = -0.3, beyond normal's 0.2, and
  // 5 rounds allow no grouping: --ac 0.5 fits the 5 rounds as they are.
  const auto r = run_mcpilot({"analyze", file.path(), "--wps", "0,1", "--ac", "0.5"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("rate                   none: duration does not grow with work"),
            std::string::npos)
      << r.out;
  const auto j = json::parse(
      run_mcpilot({"analyze", file.path(), "--wps", "0,1", "--json", "--ac", "0.5"}).out);
  EXPECT_TRUE(j["wps"]["rate"].is_null());
  EXPECT_EQ(j["wps"]["verdict"], "duration does not grow with work");
  EXPECT_NEAR(j["wps"]["beta_ci_high"].get<double>(), -2 + 0.519691, 1e-6);
}

// 3. WPS on autocorrelated rounds: errors AR(1) with phi 0.7 and a work amount that grows
// round after round (as Pilot schedules it). For a slowly varying regressor the OLS slope's
// variance is inflated by about (1 + phi)/(1 - phi) = 5.7 over what the raw fit assumes, so the
// raw 95% interval covers with probability about P(|Z| < 1.96 / sqrt(5.7)) = 0.59: the shortfall
// is 0.36. Grouped into subsessions whose residual means have an estimated |rho_1| <= 0.1, the
// inflation left is (1 + rho_b)/(1 - rho_b) for the true rho_b, which the estimate from h ~ 40
// batches (sd ~ 1/sqrt(h) = 0.16) sometimes understates; we require the grouped fit to remove at
// least three quarters of the raw shortfall, coverage >= 0.95 - 0.09 = 0.86, less 3 binomial sd
// (sqrt(0.86 * 0.14 / 1000) = 0.011): gate 0.827. The raw fit must stay below 0.59 plus 3 sd
// (0.016): 0.61 (the defect this test guards against).
TEST(StatsAudit, WpsSubsessionsKeepCoverageOnAutocorrelatedRounds) {
  constexpr int reps = 1000;
  constexpr std::size_t rounds = 240;
  constexpr double alpha = 2, beta = 0.5, phi = 0.7;
  std::mt19937_64 rng(20261130);
  std::normal_distribution<double> noise(0, 1);
  int grouped_cover = 0, raw_cover = 0, grouped_fits = 0;
  for (int r = 0; r < reps; ++r) {
    std::vector<double> w(rounds), t(rounds);
    double e = noise(rng) / std::sqrt(1 - phi * phi);
    for (std::size_t j = 0; j < rounds; ++j) {
      e = phi * e + noise(rng);
      w[j] = 10 + static_cast<double>(j);
      t[j] = alpha + beta * w[j] + e;
    }
    const auto raw = fit_wps(w, t, 0.95);
    ASSERT_TRUE(raw);
    raw_cover += std::abs(raw->beta - beta) <= raw->beta_half_width;
    const auto g = fit_wps_subsessions(w, t, 0.95, 0.1);
    if (!g) continue;
    ++grouped_fits;
    EXPECT_GT(g->subsession_size, 1u);
    grouped_cover += std::abs(g->beta - beta) <= g->beta_half_width;
  }
  // With 240 rounds a subsession size within 240/3 is found nearly always.
  ASSERT_GE(grouped_fits, reps * 95 / 100);
  const double grouped = static_cast<double>(grouped_cover) / grouped_fits;
  const double naive = static_cast<double>(raw_cover) / reps;
  std::cout << "WPS coverage on AR(0.7) rounds: subsessions " << grouped << ", raw " << naive
            << '\n';
  EXPECT_GE(grouped, 0.827) << "raw " << naive;
  EXPECT_LE(naive, 0.61) << "grouped " << grouped;
}

// Independent rounds: no grouping, the raw fit unchanged.
TEST(StatsAudit, WpsIndependentRoundsAreNotGrouped) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0, 1);
  std::vector<double> w(200), t(200);
  for (std::size_t j = 0; j < w.size(); ++j) {
    w[j] = 10 + static_cast<double>(j % 50);
    t[j] = 1 + 0.25 * w[j] + noise(rng);
  }
  const auto raw = fit_wps(w, t, 0.95);
  const auto g = fit_wps_subsessions(w, t, 0.95, 0.2);
  ASSERT_TRUE(raw && g);
  ASSERT_TRUE(g->residual_autocorrelation);
  if (std::abs(*g->residual_autocorrelation) <= 0.2) {
    EXPECT_EQ(g->subsession_size, 1u);
    EXPECT_EQ(g->beta, raw->beta);
    EXPECT_EQ(g->beta_half_width, raw->beta_half_width);
  }
}

// 4. One rule for the change-point test's autocorrelation limit.
TEST(StatsAudit, ChangepointLimitIsCappedAtNormals) {
  EXPECT_EQ(changepoint_autocorrelation_limit(0.8), 0.2);
  EXPECT_EQ(changepoint_autocorrelation_limit(0.2), 0.2);
  EXPECT_EQ(changepoint_autocorrelation_limit(0.1), 0.1);
}

TEST(StatsAudit, ChangepointsCommandUsesTheSameLimitAsAnalyze) {
  // AR(1), phi 0.8, no change. `changepoints --preset quick` used quick's 0.8 and found 23
  // change-points where `analyze --preset quick` found none: both must now agree exactly, and
  // agree with normal's limit, which is the cap.
  std::mt19937_64 rng(11);
  std::normal_distribution<double> noise(0, 1);
  std::vector<double> x(5000);
  double e = 0;
  for (double& v : x) v = e = 0.8 * e + noise(rng);
  const temp_file f(column_csv(x));
  const auto cp_quick =
      json::parse(run_mcpilot({"changepoints", f.path(), "--preset", "quick", "--json"}).out);
  const auto cp_normal =
      json::parse(run_mcpilot({"changepoints", f.path(), "--preset", "normal", "--json"}).out);
  const auto an_quick =
      json::parse(run_mcpilot({"analyze", f.path(), "--preset", "quick", "--json"}).out);
  EXPECT_EQ(cp_quick["changepoints"], cp_normal["changepoints"]);
  EXPECT_EQ(cp_quick["changepoints"], an_quick["warmup"]["changepoints"]);
}

// 6. Under --wilson, required_samples must come from Wilson's width, as convergence does. At
// p-hat = 1/2 Wilson's whole width is 2 z sqrt(n/4 + z^2/4) / (n + z^2) = z / sqrt(n + z^2), so
// width <= w needs n >= z^2/w^2 - z^2. With z = 1.959963984540054 (qnorm(0.975)), z^2 =
// 3.841458820694124 and w = 0.1: n >= 384.1458820694 - 3.8414588207 = 380.30, so 381 trials.
// (Wald's t formula gives about 385.)
TEST(StatsAudit, WilsonRequiredSamplesFollowWilsonsWidth) {
  ASSERT_EQ(wilson_trials_needed(0.5, 0.1, 0.95), 381u);
  // 0,0,1,1 repeated: p-hat 1/2 and lag-1 about 0, so q = 1 and Wilson's interval applies.
  std::vector<double> x(200);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>((i / 2) % 2);
  analysis_options opt;
  opt.kind = quantity_kind::proportion;
  opt.remove_warmup = false;
  opt.wilson = true;
  opt.requirements.ci_abs = 0.1;
  const analysis a = analyze(x, opt);
  ASSERT_EQ(a.subsession_size, 1u);
  ASSERT_TRUE(a.required_samples);
  EXPECT_EQ(*a.required_samples, 381u);
  EXPECT_FALSE(a.converged);
  // And at the required number, Wilson's width meets the target: converged.
  std::vector<double> y(400);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<double>((i / 2) % 2);
  const analysis b = analyze(y, opt);
  EXPECT_TRUE(b.converged);
  EXPECT_LE(*b.required_samples, y.size());
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
