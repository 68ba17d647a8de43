// Known answers for rates (harmonic mean, interval from the reciprocals) and proportions (Wald,
// Wilson, the zero-event bound), both as building blocks and through analyze().
//
// Expected values come from closed forms worked in the comments or from the R call quoted beside
// them (R 4.x, `options(digits = 17)`).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "../support/expect_rel.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/stats/adjusted_interval.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/precision.hpp"
#include "mcpilot/stats/proportion.hpp"
#include "mcpilot/stats/rate.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

analysis_options options_for(quantity_kind kind, const char* preset_name) {
  analysis_options o;
  o.kind = kind;
  o.requirements = *preset(preset_name);
  o.remove_warmup = false;  // these tests are about the interval, not the change-points
  o.requirements.interval = interval_method::pilot;  // R's numbers are Pilot's t intervals
  return o;
}

// ---------------------------------------------------------------------------------------------
// Rates

TEST(StatsRate, ReciprocalsAndTheirErrors) {
  const std::vector<double> x = {2, 4, 0.5};
  EXPECT_EQ(reciprocals(x), (std::vector<double>{0.5, 0.25, 2}));
  const double bad_values[] = {0.0, -1.0, std::numeric_limits<double>::infinity(),
                               std::numeric_limits<double>::quiet_NaN()};
  for (double bad : bad_values) {
    const std::vector<double> y = {1, 2, 3, bad, 5};
    try {
      reciprocals(y);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const reading_error& e) {
      EXPECT_EQ(e.index(), 3u) << bad;
    }
  }
}

TEST(StatsRate, IntervalFromTheReciprocalInterval) {
  // ybar = 0.5, d = 0.1: [1/0.6, 1/0.4]. Asymmetric about the rate 2: 1/3 below, 1/2 above.
  const rate_bounds r = rate_interval(0.5, 0.1);
  EXPECT_DOUBLE_EQ(r.low, 1 / 0.6);
  ASSERT_TRUE(r.high);
  EXPECT_DOUBLE_EQ(*r.high, 1 / 0.4);
  EXPECT_GT(*r.high - 2, 2 - r.low);
}

TEST(StatsRate, NoUpperEndWhenTheHalfWidthReachesTheMean) {
  // 1/(ybar - d) is infinite at d = ybar and negative beyond: the data do not bound the rate.
  EXPECT_FALSE(rate_interval(0.5, 0.5).high);
  EXPECT_FALSE(rate_interval(0.5, 0.7).high);
  EXPECT_DOUBLE_EQ(rate_interval(0.5, 0.7).low, 1 / 1.2);
  EXPECT_TRUE(rate_interval(0.5, 0.4999).high);
}

TEST(StatsRate, ReciprocalWidthsGiveTheRequestedRateWidth) {
  // Closed form for p = 0.10: r = (sqrt(1.01) - 1)/0.1 = 0.049875621120889502 (R), and the
  // returned value is the whole reciprocal width 2r.
  EXPECT_REL(reciprocal_relative_width(0.10), 2 * 0.049875621120889502, 1e-13);
  // The defining property, for several p: mapping ybar +- r ybar back spans p / ybar.
  for (double p : {0.01, 0.1, 0.2, 0.5, 1.0}) {
    const double ybar = 0.37;
    const double d = reciprocal_relative_width(p) * ybar / 2;
    const rate_bounds b = rate_interval(ybar, d);
    ASSERT_TRUE(b.high);
    EXPECT_REL(*b.high - b.low, p / ybar, 1e-12);
  }
  // Absolute width W on the rate scale.
  for (double w : {0.001, 0.3, 2.0}) {
    const double ybar = 0.37;
    const double d = reciprocal_absolute_width(w, ybar) / 2;
    const rate_bounds b = rate_interval(ybar, d);
    ASSERT_TRUE(b.high);
    EXPECT_REL(*b.high - b.low, w, 1e-12);
  }
}

TEST(StatsRate, ReciprocalWidthsKeepTheirDigitsForTinyWidths) {
  // A rate near 1e9 (bytes/s, say) with a whole width of 1: W ybar = 1e-9, and the series
  // expansion d = W ybar^2 / 2 (1 - (W ybar)^2 / 4 + ...) is exact to double precision. Written as
  // sqrt(1 + (W ybar)^2) - 1 this is 0, and the width would look unreachable.
  const double ybar = 1e-9;
  EXPECT_REL(reciprocal_absolute_width(1.0, ybar), 1.0 * ybar * ybar, 1e-15);
  EXPECT_REL(reciprocal_relative_width(1e-9), 1e-9, 1e-15);
}

TEST(StatsRate, AnalyzeUsesTheHarmonicMeanAndMapsTheInterval) {
  // Rates x = 1/y for y = 2 4 4 4 5 5 7 9: the reciprocals are the t-interval example, whose
  // lag-1 autocorrelation 13/32 = 0.406 is within quick's 0.8, so q = 1. R:
  //   ci <- t.test(c(2,4,4,4,5,5,7,9))$conf.int; 1/mean(y); 1/ci[2]; 1/ci[1]
  //   -> 0.2, 0.14732991233962431, 0.31128287600118915
  const std::vector<double> y = {2, 4, 4, 4, 5, 5, 7, 9};
  std::vector<double> x;
  for (double v : y) x.push_back(1 / v);
  const analysis a = analyze(x, options_for(quantity_kind::rate, "quick"));
  ASSERT_EQ(a.subsession_size, std::optional<std::size_t>(1));
  ASSERT_TRUE(a.mean && a.ci_low && a.ci_high);
  EXPECT_REL(*a.mean, 0.2, 1e-13);
  EXPECT_REL(*a.ci_low, 0.14732991233962431, 1e-12);
  EXPECT_REL(*a.ci_high, 0.31128287600118915, 1e-12);
  EXPECT_REL(*a.ci_width, 0.31128287600118915 - 0.14732991233962431, 1e-12);
  // The harmonic mean, not the arithmetic mean of the rates (0.2561...).
  EXPECT_LT(*a.mean, 0.25);
}

TEST(StatsRate, AdjustedIntervalMovesOnTheReciprocalScale) {
  // Durations y alternating short and long (lag-1 negative, so A = 1) and skewed to the right:
  // the adjusted interval on the reciprocals moves up, [y - G(t) se, y - G(-t) se], and the
  // rate's interval is its image under 1/y, so it moves down: interval_shift < 0 in the rate's
  // own direction.
  const std::vector<double> y = {1, 9, 2, 8, 1.5, 6, 2.5, 12, 1, 7, 2, 20};
  std::vector<double> x;
  for (double v : y) x.push_back(1 / v);
  analysis_options o = options_for(quantity_kind::rate, "quick");
  o.requirements.interval = interval_method::adjusted;
  // These 12 durations' skewness puts the sides more than 1.3x apart, where the interval reported
  // would be its symmetric envelope
  // (AdjustedInterval.NoVerdictWhileTheSidesDifferByMoreThanTheRatio): without the side rule, the
  // adjusted interval itself and its image.
  o.requirements.max_side_ratio = std::numeric_limits<double>::infinity();
  const analysis a = analyze(x, o);
  ASSERT_EQ(a.subsession_size, std::optional<std::size_t>(1));
  const double lag1 = batch_autocorrelation(y, 1);
  ASSERT_LT(lag1, 0);
  const t_interval iv = adjusted_mean_interval(y, lag1, skewness(y), 0.95);
  ASSERT_GT(iv.shift, 0);
  ASSERT_GT(iv.low(), 0);
  ASSERT_TRUE(a.mean && a.ci_low && a.ci_high && a.subsession_skewness);
  EXPECT_REL(*a.mean, 1 / iv.mean, 1e-13);
  EXPECT_REL(*a.ci_low, 1 / iv.high(), 1e-13);
  EXPECT_REL(*a.ci_high, 1 / iv.low(), 1e-13);
  EXPECT_REL(*a.subsession_skewness, skewness(y), 1e-13);
  EXPECT_REL(a.interval_shift, -iv.shift / iv.half_width, 1e-13);
  EXPECT_LT(a.interval_shift, 0);
}

TEST(StatsRate, AnalyzeSizesTheRunOnTheRateScale) {
  // 60 rates 1/y with y = 1 + 0.3 sin(j) (deterministic, lag-1 of y ~0.54, within quick's 0.8).
  // A whole width of p = 20% of the harmonic mean needs a half-width r ybar on the reciprocal
  // scale with 2r/(1 - r^2) = p, r = p/(sqrt(1 + p^2) + 1); then h* is the smallest h with
  // h >= (2 t*_{h-1} s_y / (2 r ybar))^2, and convergence means the mapped width is <= p.
  std::vector<double> x, y;
  for (int j = 0; j < 60; ++j) {
    y.push_back(1 + 0.3 * std::sin(j));
    x.push_back(1 / y.back());
  }
  analysis_options o = options_for(quantity_kind::rate, "quick");
  const analysis a = analyze(x, o);
  ASSERT_EQ(a.subsession_size, std::optional<std::size_t>(1));
  double ybar = 0, ss = 0;
  for (double v : y) ybar += v / 60;
  for (double v : y) ss += (v - ybar) * (v - ybar);
  const double sy = std::sqrt(ss / 59);
  EXPECT_REL(*a.mean, 1 / ybar, 1e-12);
  const double r = 0.20 / (std::sqrt(1 + 0.04) + 1);
  std::size_t h = 2;
  while (static_cast<double>(h) <
         std::pow(2 * t_critical(static_cast<double>(h - 1), 0.95) * sy / (2 * r * ybar), 2))
    ++h;
  EXPECT_EQ(a.required_samples, std::optional<std::size_t>(std::max<std::size_t>(h, 30)));
  EXPECT_NEAR(a.target_width, 0.20 * *a.mean, 1e-12);
  // The verdict from the interval written out here: on the reciprocals ybar +- d with
  // d = t*_59 sy / sqrt(60), whose ends invert to the rate's [1/(ybar + d), 1/(ybar - d)]; it is
  // met when that width is at most 20% of the harmonic mean 1/ybar, with 60 >= 30 subsessions.
  const double d = t_critical(59, 0.95) * sy / std::sqrt(60.0);
  const double width = 1 / (ybar - d) - 1 / (ybar + d);
  EXPECT_REL(*a.ci_width, width, 1e-10);
  EXPECT_EQ(a.converged, width <= 0.20 / ybar);
  // Ask for 1% instead: far from met, and the readings needed scale like 1/p^2.
  o.requirements.ci_perc = 0.01;
  const analysis b = analyze(x, o);
  EXPECT_FALSE(b.converged);
  EXPECT_GT(*b.required_samples, 300 * h);
}

TEST(StatsRate, AnalyzeReportsNoUpperEnd) {
  // y = 0.1 10 0.1 10: lag-1 -0.75 (within 0.8), mean 5.05, d = qt(0.975, 3) s / 2 = 9.095 > 5.05.
  // R: 1 / t.test(c(.1, 10, .1, 10))$conf.int[2] -> 0.070696050045909398
  const std::vector<double> x = {10, 0.1, 10, 0.1};
  const analysis a = analyze(x, options_for(quantity_kind::rate, "quick"));
  ASSERT_TRUE(a.ci_low);
  EXPECT_REL(*a.ci_low, 0.070696050045909398, 1e-12);
  EXPECT_FALSE(a.ci_high);
  EXPECT_FALSE(a.ci_width);
  EXPECT_FALSE(a.converged);
}

TEST(StatsRate, AnalyzeNamesTheReadingThatIsNotARate) {
  std::vector<double> x(40, 3.0);
  x[17] = -2;
  try {
    analyze(x, options_for(quantity_kind::rate, "quick"));
    FAIL() << "a negative rate must be rejected";
  } catch (const reading_error& e) {
    EXPECT_EQ(e.index(), 17u);
  }
  x[17] = 3;
  x[5] = 0;
  try {
    analyze(x, options_for(quantity_kind::rate, "quick"));
    FAIL() << "a zero rate must be rejected";
  } catch (const reading_error& e) {
    EXPECT_EQ(e.index(), 5u);
  }
}

// ---------------------------------------------------------------------------------------------
// Proportions: the building blocks

TEST(StatsProportion, WaldIsTheSeedFormula) {
  // p-hat +- t*_{h-1} sqrt(p-hat (1 - p-hat) / h). R:
  //   0.3 + c(-1, 1) * qt(0.975, 49) * sqrt(0.3 * 0.7 / 50) -> 0.1697646397422391
  //   0.43023536025776088
  const proportion_bounds b = wald_interval(0.3, 50, 0.95);
  EXPECT_REL(b.low, 0.1697646397422391, 1e-12);
  EXPECT_REL(b.high, 0.43023536025776088, 1e-12);
}

TEST(StatsProportion, WaldIsClippedToTheUnitInterval) {
  // R: 0.15 + c(-1, 1) * qt(0.975, 19) * sqrt(0.15 * 0.85 / 20) -> -0.0171... 0.31711456934874116
  const proportion_bounds b = wald_interval(0.15, 20, 0.95);
  EXPECT_EQ(b.low, 0.0);
  EXPECT_REL(b.high, 0.31711456934874116, 1e-12);
  // And its failure at the edge: no event gives zero width, which Wilson does not.
  const proportion_bounds z = wald_interval(0.0, 20, 0.95);
  EXPECT_EQ(z.low, 0.0);
  EXPECT_EQ(z.high, 0.0);
}

TEST(StatsProportion, WilsonMatchesRPropTest) {
  // R: prop.test(x, n, correct = FALSE)$conf.int, the Wilson score interval.
  struct row {
    int x, n;
    double low, high;
  };
  const row rows[] = {
      {0, 10, 0, 0.27753279986288915},
      {1, 10, 0.017876213095072892, 0.40415002679523837},
      {3, 20, 0.052368745896216609, 0.36041886474075691},
      {10, 100, 0.055229137060675094, 0.17436566150491345},
      {97, 100, 0.91548063570947225, 0.98974547597596108},
      {20, 20, 0.83887484194718065, 1},
      {50, 100, 0.40383153036599567, 0.59616846963400427},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(testing::Message() << r.x << "/" << r.n);
    const proportion_bounds b = wilson_interval(static_cast<double>(r.x) / r.n, r.n, 0.95);
    EXPECT_NEAR(b.low, r.low, 1e-12);
    EXPECT_NEAR(b.high, r.high, 1e-12);
  }
  // R: prop.test(3, 20, correct = FALSE, conf.level = 0.9)$conf.int
  const proportion_bounds b90 = wilson_interval(0.15, 20, 0.90);
  EXPECT_NEAR(b90.low, 0.061582410477368336, 1e-12);
  EXPECT_NEAR(b90.high, 0.32182807567530669, 1e-12);
}

// Exact coverage of an interval rule for Binomial(n, p): the sum of P(k) over the k whose interval
// contains p. No simulation: the binomial probabilities are summed.
template <class Rule>
double exact_coverage(int n, double p, Rule rule) {
  double c = 0;
  for (int k = 0; k <= n; ++k) {
    const double log_pmf = std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) +
                           k * std::log(p) + (n - k) * std::log1p(-p);
    const proportion_bounds b = rule(static_cast<double>(k) / n, static_cast<std::size_t>(n));
    if (b.low <= p && p <= b.high) c += std::exp(log_pmf);
  }
  return c;
}

TEST(StatsProportion, ExactCoverageOfWaldAndWilsonMatchesR) {
  // Why Wilson is offered: near 0 the Wald interval covers far less than 95%. R, with pr the
  // binomial probabilities and the two rules applied to every k = 0..n:
  //   k <- 0:n; ph <- k/n; pr <- dbinom(k, n, p); hw <- qt(0.975, n-1) * sqrt(ph * (1-ph) / n)
  //   sum(pr[pmax(0, ph-hw) <= p & p <= pmin(1, ph+hw)])                       # Wald (t*)
  //   sum(pr[sapply(k, function(x) { ci <- prop.test(x, n, correct=FALSE)$conf.int
  //                                  ci[1] <= p & p <= ci[2] })])                # Wilson
  struct row {
    int n;
    double p, wald, wilson;
  };
  const row rows[] = {
      {100, 0.02, 0.86644850412659724, 0.94916955463049968},
      {100, 0.05, 0.87746283634851319, 0.9658911766162499},
      {50, 0.10, 0.87891664206632381, 0.97030828908808842},
      {20, 0.10, 0.87603725600046467, 0.95682550471553673},
      {30, 0.50, 0.95722605474293232, 0.95722605474293232},
      {1000, 0.50, 0.94632215035498968, 0.94632215035498968},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(testing::Message() << "n " << r.n << " p " << r.p);
    const double wald = exact_coverage(
        r.n, r.p, [](double ph, std::size_t n) { return wald_interval(ph, n, 0.95); });
    const double wilson = exact_coverage(
        r.n, r.p, [](double ph, std::size_t n) { return wilson_interval(ph, n, 0.95); });
    EXPECT_NEAR(wald, r.wald, 1e-9);
    EXPECT_NEAR(wilson, r.wilson, 1e-9);
  }
}

TEST(StatsProportion, ZeroEventBoundIsClopperPearson) {
  // 1 - 0.05^(1/n). R: sapply(c(1, 10, 100, 1000), function(n) 1 - 0.05^(1/n)), and the exact
  // one-sided Clopper-Pearson bound binom.test(0, 100, alternative = "less")$conf.int[2] gives the
  // same 0.029513049607039932.
  EXPECT_REL(zero_events_upper_bound(1, 0.95), 0.95, 1e-14);
  EXPECT_REL(zero_events_upper_bound(10, 0.95), 0.2588655508930523, 1e-13);
  EXPECT_REL(zero_events_upper_bound(100, 0.95), 0.029513049607039932, 1e-13);
  EXPECT_REL(zero_events_upper_bound(1000, 0.95), 0.0029912495450953314, 1e-13);
  // The rule of three: n (1 - e^(-c/n)) with c = -ln(0.05) = 2.9957 lies in (c - c^2/(2n), c),
  // since x - x^2/2 < 1 - e^(-x) < x: just under 3/n.
  const double c = -std::log(0.05);
  for (std::size_t n : {100u, 1000u, 100000u, 10000000u}) {
    const double nn = static_cast<double>(n);
    const double nb = nn * zero_events_upper_bound(n, 0.95);
    EXPECT_LT(nb, c);
    EXPECT_GT(nb, c - c * c / (2 * nn));
    EXPECT_NEAR(zero_events_upper_bound(n, 0.95), 3 / nn, 0.02 * 3 / nn);  // 1.6% off at n = 100
  }
  // Keeps its digits for rare events: 1e12 trials, bound 2.9957e-12.
  EXPECT_REL(zero_events_upper_bound(1000000000000ULL, 0.95), -std::log(0.05) * 1e-12, 1e-9);
}

TEST(StatsProportion, TrialsNeededForAZeroEventBound) {
  // ln(0.05)/ln(0.99) = 298.07 -> 299; ln(0.05)/ln(0.95) = 58.40 -> 59 (R: log(0.05)/log(0.99)).
  EXPECT_EQ(zero_events_trials_needed(0.01, 0.95), 299u);
  EXPECT_EQ(zero_events_trials_needed(0.05, 0.95), 59u);
  // Consistent with the bound itself: n is enough, n - 1 is not.
  for (double b : {0.3, 0.05, 0.001}) {
    const std::size_t n = zero_events_trials_needed(b, 0.95);
    EXPECT_LE(zero_events_upper_bound(n, 0.95), b);
    EXPECT_GT(zero_events_upper_bound(n - 1, 0.95), b);
  }
}

TEST(StatsProportion, TrialsNeededForABoundNoCountHoldsSaturate) {
  // ln(0.05) / ln(1 - 1e-300) is about 3e300 trials: the largest size_t, not a wrapped cast
  // (undefined behaviour, which UBSan reports).
  EXPECT_EQ(zero_events_trials_needed(1e-300, 0.95), std::numeric_limits<std::size_t>::max());
  // 3e15 trials still fit: ln(0.05)/ln(1 - 1e-15) = 2.9957e15.
  EXPECT_NEAR(static_cast<double>(zero_events_trials_needed(1e-15, 0.95)), 2.9957e15, 0.001e15);
}

TEST(StatsProportion, TrialsNeededForAWidthOfOneOrMore) {
  // A bound of 1 or more asks for nothing: one trial already gives a bound below 1.
  EXPECT_EQ(zero_events_trials_needed(1.0, 0.95), 1u);
  EXPECT_EQ(zero_events_trials_needed(2.0, 0.95), 1u);
}

TEST(StatsProportion, CheckBinaryNamesTheReading) {
  const std::vector<double> x = {0, 1, 1, 0, 0.5, 1};
  try {
    check_binary(x);
    FAIL() << "0.5 is not a 0/1 reading";
  } catch (const reading_error& e) {
    EXPECT_EQ(e.index(), 4u);
  }
  EXPECT_NO_THROW(check_binary(std::vector<double>{0, 1, 1, 0}));
}

// ---------------------------------------------------------------------------------------------
// Proportions through analyze()

std::vector<double> three_in_twenty() {
  // Events at readings 2, 9 and 15 (0-based). R: x <- rep(0, 20); x[c(3, 10, 16)] <- 1;
  // acf(x)$acf[2] -> -0.185, so q = 1 at every preset's limit above 0.185.
  std::vector<double> x(20, 0.0);
  x[2] = x[9] = x[15] = 1;
  return x;
}

TEST(StatsProportionAnalyze, WaldByDefault) {
  const analysis a = analyze(three_in_twenty(), options_for(quantity_kind::proportion, "quick"));
  ASSERT_EQ(a.subsession_size, std::optional<std::size_t>(1));
  EXPECT_DOUBLE_EQ(*a.mean, 0.15);
  EXPECT_EQ(*a.ci_low, 0.0);  // clipped, as in R's -0.0171
  EXPECT_REL(*a.ci_high, 0.31711456934874116, 1e-12);
  EXPECT_FALSE(a.one_sided);
}

TEST(StatsProportionAnalyze, WilsonOnRequest) {
  // R: prop.test(3, 20, correct = FALSE)$conf.int
  analysis_options o = options_for(quantity_kind::proportion, "quick");
  o.wilson = true;
  const analysis a = analyze(three_in_twenty(), o);
  EXPECT_NEAR(*a.ci_low, 0.052368745896216609, 1e-12);
  EXPECT_NEAR(*a.ci_high, 0.36041886474075691, 1e-12);
}

TEST(StatsProportionAnalyze, NoEventsGiveAOneSidedBoundNotZeroWidth) {
  const std::vector<double> x(100, 0.0);
  const analysis a = analyze(x, options_for(quantity_kind::proportion, "quick"));
  EXPECT_TRUE(a.one_sided);
  EXPECT_EQ(*a.mean, 0.0);
  EXPECT_EQ(*a.ci_low, 0.0);
  // R: binom.test(0, 100, alternative = "less")$conf.int[2]
  EXPECT_REL(*a.ci_high, 0.029513049607039932, 1e-12);
  ASSERT_TRUE(a.ci_width);
  EXPECT_GT(*a.ci_width, 0.0);
  // Not converged, and not given up: p may be as large as the bound, and a relative width needs
  // fewer trials the larger p is, so what it needs at p = bound is a lower bound on the need.
  // R: u <- 1 - 0.05^(1/100); s <- sqrt(u*(1-u)); h <- 2
  //    while (2*qt(0.975, h-1)*s/sqrt(h) > 0.2*u) h <- h+1; h  -> 12635
  EXPECT_FALSE(a.converged);
  EXPECT_FALSE(a.unreachable);
  EXPECT_EQ(a.required_samples, std::optional<std::size_t>(12635));
}

TEST(StatsOrdinaryAnalyze, ReadingsThatNeverVaryGiveNoZeroWidthInterval) {
  // All zeros (an estimator whose events have not happened yet) must not read as "0 +- 0,
  // converged", for a relative width nor an absolute one. A nonzero constant gets the
  // zero-events interval instead (stats_constant_readings_test.cpp), never a zero width.
  const std::vector<double> zeros(200, 0.0), fives(200, 5.0);
  analysis_options o = options_for(quantity_kind::ordinary, "quick");
  analysis a = analyze(zeros, o);
  EXPECT_EQ(*a.mean, 0.0);
  EXPECT_FALSE(a.ci_low);
  EXPECT_FALSE(a.ci_high);
  EXPECT_FALSE(a.converged);
  EXPECT_FALSE(a.unreachable);
  a = analyze(fives, o);
  EXPECT_TRUE(a.constant);
  ASSERT_TRUE(a.ci_width);
  EXPECT_GT(*a.ci_width, 0.0);
  o.requirements.ci_abs = 1.0;
  EXPECT_FALSE(analyze(zeros, o).converged);
  EXPECT_FALSE(
      analyze(std::vector<double>(200, 2.0), options_for(quantity_kind::rate, "quick")).converged);
}

TEST(StatsProportionAnalyze, NoEventsWithAnAbsoluteWidth) {
  analysis_options o = options_for(quantity_kind::proportion, "quick");
  o.requirements.ci_abs = 0.05;  // bound 0.0295 <= 0.05 with 100 >= 30 readings
  const std::vector<double> x(100, 0.0);
  analysis a = analyze(x, o);
  EXPECT_TRUE(a.converged);
  EXPECT_EQ(a.required_samples, std::optional<std::size_t>(59));  // ln .05 / ln .95 -> 59
  o.requirements.ci_abs = 0.01;  // needs 299 trials without an event
  a = analyze(x, o);
  EXPECT_FALSE(a.converged);
  EXPECT_EQ(a.required_samples, std::optional<std::size_t>(299));
}

TEST(StatsProportionAnalyze, AllEventsMirrorNoEvents) {
  analysis_options o = options_for(quantity_kind::proportion, "quick");
  const std::vector<double> x(100, 1.0);
  analysis a = analyze(x, o);
  EXPECT_TRUE(a.one_sided);
  EXPECT_EQ(*a.ci_high, 1.0);
  EXPECT_REL(*a.ci_low, 1 - 0.029513049607039932, 1e-12);
  EXPECT_TRUE(a.converged);  // width 0.0295 of a mean of 1 <= quick's 0.20
  // A relative width of 1% of a mean of 1 needs a bound of 0.01: 299 readings without a miss
  // (as for no events), not merely the preset's minimum of 30.
  o.requirements.ci_perc = 0.01;
  a = analyze(x, o);
  EXPECT_FALSE(a.converged);
  EXPECT_EQ(a.required_samples, std::optional<std::size_t>(299));
}

TEST(StatsProportionAnalyze, NamesTheReadingThatIsNotZeroOrOne) {
  std::vector<double> x = three_in_twenty();
  x[11] = 2;
  try {
    analyze(x, options_for(quantity_kind::proportion, "quick"));
    FAIL() << "2 is not a 0/1 reading";
  } catch (const reading_error& e) {
    EXPECT_EQ(e.index(), 11u);
  }
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

// P(X >= x) and P(X <= x) for X ~ Binomial(n, p), by summing the probabilities term by term: a
// computation independent of the beta quantiles the interval uses.
double binomial_upper_tail(int x, int n, double p) {
  double sum = 0;
  for (int k = x; k <= n; ++k)
    sum += std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) +
                    k * std::log(p) + (n - k) * std::log1p(-p));
  return sum;
}

// Clopper-Pearson: the ends are the p at which the binomial tails are (1 - c)/2. At 0 and n events
// the ends have closed forms, 1 - ((1-c)/2)^(1/n) and ((1-c)/2)^(1/n); between, the tails summed
// directly must equal 0.025, and R gives binom.test(5, 20)$conf.int = 0.08657147 0.49104587.
TEST(StatsProportion, ClopperPearsonMatchesItsDefinitionAndR) {
  auto b = clopper_pearson_interval(0, 10, 0.95);
  EXPECT_EQ(b.low, 0);
  EXPECT_NEAR(b.high, 1 - std::pow(0.025, 0.1), 1e-12);
  b = clopper_pearson_interval(10, 10, 0.95);
  EXPECT_NEAR(b.low, std::pow(0.025, 0.1), 1e-12);
  EXPECT_EQ(b.high, 1);
  b = clopper_pearson_interval(5, 20, 0.95);
  EXPECT_NEAR(b.low, 0.08657147, 1e-7);
  EXPECT_NEAR(b.high, 0.49104587, 1e-7);
  EXPECT_NEAR(binomial_upper_tail(5, 20, b.low), 0.025, 1e-10);
  EXPECT_NEAR(1 - binomial_upper_tail(6, 20, b.high), 0.025, 1e-10);
  b = clopper_pearson_interval(930, 1000, 0.95);
  EXPECT_NEAR(binomial_upper_tail(930, 1000, b.low), 0.025, 1e-9);
  EXPECT_NEAR(1 - binomial_upper_tail(931, 1000, b.high), 0.025, 1e-9);
  b = clopper_pearson_interval(0, 0, 0.95);
  EXPECT_EQ(b.low, 0);
  EXPECT_EQ(b.high, 1);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
