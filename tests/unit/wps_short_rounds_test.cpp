// The WPS fit's intercept interval and its exclusion of rounds too short to hold a stable phase
// (stats/wps.hpp, fit_wps_stable; docs/statistics.md, "Workloads that report one number").
#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <vector>

#include "../support/expect_rel.hpp"
#include "mcpilot/rng.hpp"
#include "mcpilot/stats/wps.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

// The data of StatsWps.MatchesRLm. SE(alpha) = sigma sqrt(1/h + wbar^2 / Sww) with
// sigma = 0.16133909331065049 (R: summary(m)$sigma), h = 10, wbar = 5.5, Sww = 82.5:
// 0.11021558305192032 (computed by hand in double precision), times qt(0.975, 8).
TEST(WpsShortRounds, InterceptIntervalIsTheTextbookOne) {
  const std::vector<double> w = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const std::vector<double> t = {3.1, 4.9, 7.2, 8.8, 11.1, 13.0, 14.8, 17.2, 19.1, 20.9};
  const auto f = fit_wps(w, t, 0.95);
  ASSERT_TRUE(f);
  EXPECT_REL(f->alpha_half_width, 2.3060041352041658 * 0.11021558305192032, 1e-11);
  // alpha = 1.03 > 0: nothing is too short, the stable fit is the grouped fit.
  const auto g = fit_wps_stable(w, t, 0.95, 1);  // limit 1: ten rounds, no grouping
  const auto grouped = fit_wps_subsessions(w, t, 0.95, 1);
  ASSERT_TRUE(g && grouped);
  EXPECT_EQ(g->excluded_rounds, 0u);
  EXPECT_EQ(g->work_cutoff, 0.0);
  EXPECT_EQ(g->beta, grouped->beta);
  EXPECT_EQ(g->alpha, grouped->alpha);
}

// Rounds of w >= 100 run at the stable rate after a warm-up that did work for free (alpha < 0):
// T = -0.5 + 0.01 w; shorter ones never leave the warm-up and run at twice the rate,
// T = 0.005 w (the two lines meet at w = 100). The line through all rounds has alpha < 0; the
// rounds whose fitted duration is below |alpha| go, until the fit is the stable line's:
// alpha = -0.5, beta = 0.01, and the cut-off -2 alpha / beta = 100 leaves out w = 20 ... 80.
TEST(WpsShortRounds, RoundsThatNeverLeaveTheWarmUpAreLeftOut) {
  philox_stream rng(20261204, 1);
  boost::random::normal_distribution<double> noise(0, 1e-6);
  std::vector<double> w, t;
  for (int j = 0; j < 200; ++j) {
    const double wj = 20.0 * (1 + (7 * j) % 20);  // 20 ... 400, each ten times, mixed
    w.push_back(wj);
    t.push_back((wj >= 100 ? -0.5 + 0.01 * wj : 0.005 * wj) + noise(rng));
  }
  const auto raw = fit_wps(w, t, 0.95);
  ASSERT_TRUE(raw);
  ASSERT_LT(raw->alpha + raw->alpha_half_width, 0);
  const auto f = fit_wps_stable(w, t, 0.95, 0.3);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->excluded_rounds, 40u);  // w = 20, 40, 60, 80, ten rounds each
  EXPECT_GT(f->work_cutoff, 80);
  EXPECT_LE(f->work_cutoff, 100 + 1e-6);
  EXPECT_NEAR(f->alpha, -0.5, 1e-5);
  EXPECT_REL(f->beta, 0.01, 1e-6);
  ASSERT_TRUE(f->rate_low && f->rate_high);
  EXPECT_LE(*f->rate_low, 100);
  EXPECT_GE(*f->rate_high, 100);
  // The grouped fit alone keeps the bias: its interval lies wholly above the stable 100 per
  // second (its rate is 108.6).
  const auto all = fit_wps_subsessions(w, t, 0.95, 0.3);
  ASSERT_TRUE(all && all->rate_low);
  EXPECT_GT(*all->rate_low, 105);
}

// A study: T = 0.001 w + N(0, 0.01^2), alpha exactly 0, the case in which a negative estimate is
// most often seen. A round is left out only when alpha's whole 95% interval is below 0, which
// for alpha = 0 happens with probability 0.025 per fit. Over 400 seeds the count is
// Binomial(400, 0.025) if nothing else leaves rounds out: mean 10, P(X > 20) = 0.002. The rate's
// 95% interval must keep its coverage: Binomial(400, 0.95) has P(X < 368) = 0.003 (92%).
TEST(WpsShortRounds, AnInterceptOfZeroRarelyLeavesRoundsOut) {
  int excluded = 0, covered = 0;
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    philox_stream rng(20261204, seed);
    boost::random::normal_distribution<double> noise(0, 0.01);
    std::vector<double> w, t;
    for (int j = 0; j < 60; ++j) {
      const double wj = 50.0 * (1 + (3 * j) % 10);
      w.push_back(wj);
      t.push_back(0.001 * wj + noise(rng));
    }
    const auto f = fit_wps_stable(w, t, 0.95, 0.2);
    ASSERT_TRUE(f);
    excluded += f->excluded_rounds > 0;
    covered += f->rate_low && f->rate_high && *f->rate_low <= 1000 && 1000 <= *f->rate_high;
  }
  EXPECT_LE(excluded, 20);
  EXPECT_GE(covered, 368);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
