// stats/scaling: the least-squares fitter against hand computations, exact-shape data, and the
// known answers of docs/scaling.md on seeded synthetic timings.
#include "mcpilot/stats/scaling.hpp"

#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "mcpilot/error.hpp"
#include "mcpilot/rng.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;

struct rows {
  std::vector<double> n, t;
};

// `runs` timings at each size 2^lo .. 2^hi: truth(n) times (1 + noise z), z standard normal,
// drawn from a Philox stream of the given seed (so each test's data are fixed).
template <class F>
rows synthetic(int lo, int hi, int runs, double noise, std::uint64_t seed, F truth) {
  rows r;
  philox_stream g(seed, 0);
  boost::random::normal_distribution<double> z;
  for (int e = lo; e <= hi; ++e) {
    const double n = std::ldexp(1.0, e);
    for (int j = 0; j < runs; ++j) {
      r.n.push_back(n);
      r.t.push_back(truth(n) * (1 + noise * z(g)));
    }
  }
  return r;
}

scaling_options preregistered(std::vector<scaling_shape> models) {
  scaling_options o;
  o.models = std::move(models);
  o.bootstrap = 1000;
  o.seed = 7;
  return o;
}

const std::vector<scaling_shape> linear_nlogn_quadratic = {
    scaling_shape::linear, scaling_shape::n_log_n, scaling_shape::quadratic};

const scaling_candidate& candidate(const scaling_result& r, scaling_shape s) {
  for (const auto& c : r.candidates)
    if (c.shape == s) return c;
  throw std::logic_error("no such candidate");
}

// ---- the fitter ------------------------------------------------------------------------------

TEST(ScalingFit, LineMatchesAHandComputation) {
  // x = 1..4, y = 2,3,5,6: xbar = 2.5, ybar = 4, Sxx = 5, Sxy = 7, so c = 7/5 = 1.4 and
  // d = 4 - 1.4 * 2.5 = 0.5. Residuals 0.1, -0.3, 0.3, -0.1: RSS = 0.2, s^2 = 0.2/2 = 0.1,
  // SE(c) = sqrt(0.1/5). Student's t with 2 df has the closed-form quantile
  // (2p - 1) / sqrt(2 p (1 - p)), so t_{2,0.975} = 0.95 / sqrt(0.04875) = 4.30265272974946
  // (R: qt(0.975, 2)) and the half-width is that times sqrt(0.02) = 0.608486984459331.
  const std::vector<double> x = {1, 2, 3, 4}, y = {2, 3, 5, 6}, w = {1, 1, 1, 1};
  const line_fit f = fit_line(x, y, w, 0.95);
  ASSERT_TRUE(f.identified);
  EXPECT_NEAR(f.c, 1.4, 1e-15);
  EXPECT_NEAR(f.d, 0.5, 1e-15);
  EXPECT_NEAR(f.residual_sd, std::sqrt(0.1), 1e-15);
  const double half = 0.95 / std::sqrt(0.04875) * std::sqrt(0.02);
  EXPECT_NEAR(*f.c_low, 1.4 - half, 1e-12);
  EXPECT_NEAR(*f.c_high, 1.4 + half, 1e-12);
}

TEST(ScalingFit, WeightsActAsRepeatedPoints) {
  // Weights (1, 1, 2, 2) minimise the same sum of squares as the points 3 and 4 given twice.
  // By hand (exact fractions): sw = 6, xbar = 17/6, ybar = 27/6 = 9/2,
  // Sxx = sum w (x - xbar)^2 = 55 - 6 (17/6)^2 = 41/6, Sxy = sum w x y - sw xbar ybar
  // = 86 - 6 (17/6)(9/2) = 19/2, so c = (19/2)/(41/6) = 57/41 and d = 9/2 - (57/41)(17/6) = 23/41.
  const std::vector<double> x = {1, 2, 3, 4}, y = {2, 3, 5, 6}, w = {1, 1, 2, 2};
  const line_fit f = fit_line(x, y, w, 0.95);
  EXPECT_NEAR(f.c, 57.0 / 41.0, 1e-15);
  EXPECT_NEAR(f.d, 23.0 / 41.0, 1e-15);
  const std::vector<double> x2 = {1, 2, 3, 3, 4, 4}, y2 = {2, 3, 5, 5, 6, 6}, w2(6, 1.0);
  const line_fit g = fit_line(x2, y2, w2, 0.95);
  EXPECT_NEAR(g.c, f.c, 1e-15);
  EXPECT_NEAR(g.d, f.d, 1e-15);
}

TEST(ScalingFit, OneDistinctXIsNotIdentified) {
  const std::vector<double> x = {3, 3, 3}, y = {1, 2, 3}, w = {1, 1, 1};
  const line_fit f = fit_line(x, y, w, 0.95);
  EXPECT_FALSE(f.identified);
  EXPECT_DOUBLE_EQ(f.d, 2);
  EXPECT_THROW(fit_line(x, std::vector<double>{1, 2}, w, 0.95), std::invalid_argument);
}

TEST(ScalingFit, ExactShapeDataReturnsItsCoefficientWithZeroResidual) {
  // T = c f(n) + d exactly, for every fixed shape: the fit returns c and d, the residual and
  // both validation errors are zero to rounding.
  std::vector<double> sizes;
  for (int e = 4; e <= 14; ++e) sizes.push_back(std::ldexp(1.0, e));
  for (auto s : {scaling_shape::log_n, scaling_shape::linear, scaling_shape::n_log_n,
                 scaling_shape::quadratic, scaling_shape::cubic}) {
    const double c = 2.5, d = 7;
    std::vector<double> t;
    for (double n : sizes) t.push_back(c * scaling_basis(s, n) + d);
    scaling_options o;
    o.models = {s};
    o.bootstrap = 0;
    const scaling_result r = analyze_scaling(sizes, t, o);
    const auto& k = r.candidates.at(0);
    EXPECT_NEAR(k.c, c, 1e-9 * c) << to_string(s);
    EXPECT_NEAR(k.d, d, 1e-6) << to_string(s);
    EXPECT_NEAR(*k.c_high - *k.c_low, 0, 1e-9 * c) << to_string(s);
    EXPECT_LT(k.rms_log_residual, 1e-12) << to_string(s);
    EXPECT_LT(*k.loso_error, 1e-9) << to_string(s);
    EXPECT_LT(*k.holdout_error, 1e-9) << to_string(s);
  }
  // The power law a n^b: exact 0.3 n^1.5 returns a = 0.3 and b = 1.5.
  std::vector<double> t;
  for (double n : sizes) t.push_back(0.3 * std::pow(n, 1.5));
  scaling_options o;
  o.models = {scaling_shape::power_law};
  o.bootstrap = 0;
  const scaling_result r = analyze_scaling(sizes, t, o);
  const auto& k = r.candidates.at(0);
  EXPECT_NEAR(k.c, 0.3, 1e-12);
  EXPECT_NEAR(*k.exponent, 1.5, 1e-12);
  EXPECT_LT(*k.loso_error, 1e-12);
}

TEST(ScalingFit, LocalExponentsOfExactQuadraticDataAreTwo) {
  std::vector<double> n, t;
  for (double x : {100.0, 150.0, 1000.0, 1024.0, 5000.0, 123456.0}) {
    n.push_back(x);
    t.push_back(0.5 * x * x);
  }
  scaling_options o;
  o.bootstrap = 0;
  const scaling_result r = analyze_scaling(n, t, o);
  ASSERT_EQ(r.steps.size(), 5u);
  for (const auto& s : r.steps) EXPECT_NEAR(s.exponent, 2.0, 1e-12);
  // and the ratio T_i / T_{i-1} is (n_i / n_{i-1})^2
  EXPECT_NEAR(r.steps[0].ratio, 2.25, 1e-12);
  for (const auto& z : r.normalized) EXPECT_NEAR(z.per_n2, 0.5, 1e-15);
}

TEST(ScalingSummary, PerSizeSummariesAreTheTextbookOnes) {
  // n = 10: 1, 2, 4 (median 2, mean 7/3, sd sqrt(7/3), MAD 1 -> 0.5); n = 20: 3, 5 (median 4).
  const std::vector<double> n = {20, 10, 10, 20, 10}, t = {3, 1, 2, 5, 4};
  scaling_options o;
  o.bootstrap = 0;
  const scaling_result r = analyze_scaling(n, t, o);
  ASSERT_EQ(r.sizes.size(), 2u);
  EXPECT_EQ(r.sizes[0].n, 10);
  EXPECT_EQ(r.sizes[0].count, 3u);
  EXPECT_EQ(r.sizes[0].median, 2);
  EXPECT_NEAR(r.sizes[0].mean, 7.0 / 3, 1e-15);
  EXPECT_NEAR(*r.sizes[0].sd, std::sqrt(7.0 / 3), 1e-15);
  EXPECT_EQ(r.sizes[0].mad_rel, 0.5);
  EXPECT_EQ(r.sizes[0].first_row, 1u);
  EXPECT_EQ(r.sizes[1].median, 4);
  EXPECT_EQ(r.sizes[1].min, 3);
  EXPECT_EQ(r.sizes[1].max, 5);
  EXPECT_NEAR(r.steps[0].exponent, 1.0, 1e-15);  // log(4/2)/log(20/10)
}

// ---- known answers on seeded noisy data ---------------------------------------------------

TEST(ScalingKnownAnswer, NLogNWithFivePercentNoiseIsCompatibleWithNLogN) {
  const rows d = synthetic(8, 15, 5, 0.05, 11, [](double n) { return 3 * n * std::log2(n); });
  const scaling_result r = analyze_scaling(d.n, d.t, preregistered(linear_nlogn_quadratic));
  EXPECT_EQ(r.label, scaling_label::compatible) << r.statement;
  ASSERT_TRUE(r.best);
  EXPECT_EQ(*r.best, scaling_shape::n_log_n);
  EXPECT_EQ(r.statement,
            "empirically compatible with n log n over n = 256 to 32,768 under the recorded "
            "conditions");
  // c is per natural-log unit: 3 n log2 n = (3 / ln 2) n ln n; its interval holds it.
  const auto& c = candidate(r, scaling_shape::n_log_n);
  EXPECT_LT(*c.c_low, 3 / std::log(2.0));
  EXPECT_GT(*c.c_high, 3 / std::log(2.0));
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  EXPECT_FALSE(r.exploratory);
}

TEST(ScalingKnownAnswer, HalfNSquaredIsCompatibleWithNSquared) {
  const rows d = synthetic(8, 15, 5, 0.05, 12, [](double n) { return 0.5 * n * n; });
  const scaling_result r = analyze_scaling(d.n, d.t, preregistered(linear_nlogn_quadratic));
  EXPECT_EQ(r.label, scaling_label::compatible) << r.statement;
  ASSERT_TRUE(r.best);
  EXPECT_EQ(*r.best, scaling_shape::quadratic);
  const auto& c = candidate(r, scaling_shape::quadratic);
  EXPECT_LT(*c.c_low, 0.5);
  EXPECT_GT(*c.c_high, 0.5);
}

TEST(ScalingKnownAnswer, FourSizesAreAnInsufficientDesign) {
  const rows d = synthetic(8, 11, 5, 0.05, 13, [](double n) { return 3 * n * std::log2(n); });
  const scaling_result r = analyze_scaling(d.n, d.t, preregistered(linear_nlogn_quadratic));
  EXPECT_EQ(r.label, scaling_label::insufficient_design);
  ASSERT_FALSE(r.design_problems.empty());
  EXPECT_EQ(r.design_problems[0], "4 sizes, fewer than 6");
  EXPECT_EQ(r.design_problems[1], "the sizes span 8.0x, less than 16x");
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings[0].find("only 4 sizes"), std::string::npos);
}

TEST(ScalingKnownAnswer, ACacheCliffWarnsAtTheJumpAndIsNotCompatible) {
  const rows d = synthetic(8, 15, 5, 0.05, 14,
                           [](double n) { return (n <= 4096 ? 1.0 : 10.0) * n * std::log2(n); });
  const scaling_result r = analyze_scaling(d.n, d.t, preregistered(linear_nlogn_quadratic));
  EXPECT_NE(r.label, scaling_label::compatible) << r.statement;
  // No single shape predicts both sides of a 10x step within 25%.
  EXPECT_EQ(r.label, scaling_label::none_adequate) << r.statement;
  bool at_jump = false;
  for (const auto& w : r.warnings)
    at_jump = at_jump || w.find("from n = 4,096 to 8,192") != std::string::npos;
  EXPECT_TRUE(at_jump);
  EXPECT_EQ(r.warnings.size(), 1u);  // only the jump; the steady steps do not warn
}

TEST(ScalingKnownAnswer, UnweightedFitFailsTheGateWhereTheRelativeOnePasses) {
  // Why the default weighting is relative (docs/scaling.md). On 0.5 n^2 with 5% noise, 8 sizes
  // 2^8 .. 2^15, 5 runs each, the unweighted fit lets the largest sizes set d, and then the
  // smallest sizes are predicted far outside the gate (often below zero). Weighted by
  // 1/median^2 the errors are relative: a median of 5 runs has about 1.25 * 5% / sqrt(5) = 2.8%
  // noise, and the gate log(1.25) = 0.22 is ~8 such standard errors away, so failures of the
  // true shape should not happen at all in 40 datasets. (Measured: unweighted fails the true
  // shape in 198 of 200 datasets, n log n data in 98 of 200; relative in none.) The comparison
  // is of the weightings with d free: the d >= 0 constraint (on by default) rescues the
  // unweighted fit in about half of these datasets by refitting it through the origin, but the
  // default weighting must not depend on that rescue.
  int fails_relative = 0, fails_unweighted = 0;
  for (std::uint64_t seed = 100; seed < 140; ++seed) {
    const rows d = synthetic(8, 15, 5, 0.05, seed, [](double n) { return 0.5 * n * n; });
    auto o = preregistered(linear_nlogn_quadratic);
    o.bootstrap = 0;
    o.nonnegative_fixed_cost = false;
    fails_relative += !candidate(analyze_scaling(d.n, d.t, o), scaling_shape::quadratic).passes;
    o.weighting = scaling_weighting::unweighted;
    fails_unweighted += !candidate(analyze_scaling(d.n, d.t, o), scaling_shape::quadratic).passes;
  }
  EXPECT_EQ(fails_relative, 0);
  EXPECT_GE(fails_unweighted, 30);
}

TEST(ScalingKnownAnswer, ExploratoryNLogNIsAmbiguousWithAPowerLaw) {
  // Over 2^8 .. 2^15, n log n has the local log-log slope 1 + 1/ln n, 1.09 .. 1.18 (1.125 at
  // the middle, n = 2^11.5): a power law n^1.13 follows it within 5% noise, so with every shape
  // tried the honest answer is "ambiguous", naming the rival and its share of the resamples.
  const rows d = synthetic(8, 15, 5, 0.05, 11, [](double n) { return 3 * n * std::log2(n); });
  scaling_options o;
  o.seed = 7;
  const scaling_result r = analyze_scaling(d.n, d.t, o);
  EXPECT_TRUE(r.exploratory);
  EXPECT_EQ(r.candidates.size(), all_scaling_shapes().size());
  EXPECT_EQ(r.label, scaling_label::ambiguous) << r.statement;
  EXPECT_TRUE(candidate(r, scaling_shape::n_log_n).passes);
  EXPECT_TRUE(candidate(r, scaling_shape::power_law).passes);
  EXPECT_NEAR(*candidate(r, scaling_shape::power_law).exponent, 1 + 1 / (11.5 * std::log(2.0)),
              0.02);
  EXPECT_NE(r.statement.find("exploratory"), std::string::npos);
  EXPECT_NE(r.statement.find("n log n fits best, but the resamples also pick a power law n^1.1"),
            std::string::npos)
      << r.statement;
  ASSERT_EQ(r.rivals.size(), 1u);
  EXPECT_EQ(r.rivals[0], scaling_shape::power_law);
}

TEST(ScalingBootstrap, ExactDataArePickedByEveryResampleWithTheWilsonBoundByHand) {
  // 0.5 n^2 exactly, 3 equal rows per size: every resample's medians are the data's own, so the
  // quadratic (leave-one-size-out error ~1e-16, the others far from 0) is picked by all 1000
  // resamples. Wilson's lower bound for 1000 of 1000 is n / (n + z^2) = 1000 / (1000 +
  // 1.959964^2) = 0.996173 (mpmath, 20 digits: 0.99617324151444487678); its upper bound is 1.
  rows d;
  for (int e = 8; e <= 15; ++e)
    for (int j = 0; j < 3; ++j) {
      d.n.push_back(std::ldexp(1.0, e));
      d.t.push_back(0.5 * std::ldexp(1.0, 2 * e));
    }
  const scaling_result r = analyze_scaling(d.n, d.t, preregistered(linear_nlogn_quadratic));
  EXPECT_EQ(candidate(r, scaling_shape::quadratic).selected, 1000u);
  EXPECT_EQ(candidate(r, scaling_shape::linear).selected, 0u);
  EXPECT_EQ(candidate(r, scaling_shape::n_log_n).selected, 0u);
  EXPECT_NEAR(candidate(r, scaling_shape::quadratic).selected_low, 0.99617324151444488, 1e-9);
  EXPECT_DOUBLE_EQ(candidate(r, scaling_shape::quadratic).selected_high, 1.0);
  // Identical rows give the resamples nothing to vary: the design rules refuse a claim.
  EXPECT_EQ(r.label, scaling_label::insufficient_design) << r.statement;
  // No spread within sizes: no pure error, so no lack-of-fit test.
  EXPECT_FALSE(candidate(r, scaling_shape::quadratic).lack_of_fit);
}

TEST(ScalingBootstrap, RepeatsBySeed) {
  const rows d = synthetic(8, 15, 5, 0.05, 11, [](double n) { return 3 * n * std::log2(n); });
  const auto o = preregistered(linear_nlogn_quadratic);
  const scaling_result a = analyze_scaling(d.n, d.t, o), b = analyze_scaling(d.n, d.t, o);
  for (std::size_t i = 0; i < a.candidates.size(); ++i)
    EXPECT_EQ(a.candidates[i].selected, b.candidates[i].selected);
}

// ---- lack of fit, the fixed cost d >= 0, and the cases of issue 34 -----------------------------

TEST(ScalingLackOfFit, MatchesAHandComputation) {
  // Unweighted, linear, two rows per size: n = 1: {1, 3}, n = 2: {3, 5}, n = 3: {9, 11}; means
  // 2, 4, 10, each weighted by its 2 rows. Pure error: (1 + 1) per size, 6 on 6 - 3 = 3 df.
  // Free fit: xbar = 2, ybar = 16/3, Sxy = 8, Sxx = 2: c = 4, d = -8/3; residuals 2/3, -4/3, 2/3,
  // lack SS = 2 (4 + 16 + 4) / 9 = 16/3 on 3 - 2 = 1 df, F = (16/3) / 2 = 8/3,
  // p = P(F(1, 3) > 8/3) = 0.20097622619892212559 (mpmath betainc, 20 digits).
  // d >= 0: through the origin, c = (2 + 8 + 30) / 14 = 20/7; residuals -6/7, -12/7, 10/7,
  // lack SS = 2 (36 + 144 + 100) / 49 = 80/7 on 2 df, F = (40/7) / 2 = 20/7, and
  // p = P(F(2, 3) > 20/7) = (1 + 2 (20/7) / 3)^(-3/2) = (21/61)^(3/2) = 0.20199200942307922058.
  const std::vector<double> n = {1, 1, 2, 2, 3, 3}, t = {1, 3, 3, 5, 9, 11};
  const auto free = lack_of_fit(scaling_shape::linear, n, t, scaling_weighting::unweighted, false);
  ASSERT_TRUE(free);
  EXPECT_NEAR(free->f, 8.0 / 3, 1e-12);
  EXPECT_EQ(free->df_lack, 1u);
  EXPECT_EQ(free->df_pure, 3u);
  EXPECT_NEAR(free->p, 0.20097622619892212559, 1e-10);
  const auto held = lack_of_fit(scaling_shape::linear, n, t, scaling_weighting::unweighted, true);
  ASSERT_TRUE(held);
  EXPECT_NEAR(held->f, 20.0 / 7, 1e-12);
  EXPECT_EQ(held->df_lack, 2u);
  EXPECT_NEAR(held->p, 0.20199200942307922058, 1e-10);
  // One row per size: no pure error, no test.
  EXPECT_FALSE(lack_of_fit(scaling_shape::linear, std::vector<double>{1, 2, 3},
                           std::vector<double>{2, 4, 10}, scaling_weighting::unweighted, true));
}

TEST(ScalingLackOfFit, ANegativeFixedCostIsHeldAtZeroAndSaysSo) {
  // y = 4x - 8/3 through the three means above: the free d is negative, so d >= 0 refits through
  // the origin, c = 20/7 (hand-worked in MatchesAHandComputation).
  const std::vector<double> sizes = {1, 2, 3}, medians = {2, 4, 10};
  const auto f =
      fit_shape(scaling_shape::linear, sizes, medians, scaling_weighting::unweighted, 0.95, true);
  ASSERT_TRUE(f);
  EXPECT_NEAR(f->c, 20.0 / 7, 1e-12);
  EXPECT_EQ(f->d, 0);
  ASSERT_TRUE(f->d_free);
  EXPECT_NEAR(*f->d_free, -8.0 / 3, 1e-12);
  const auto g =
      fit_shape(scaling_shape::linear, sizes, medians, scaling_weighting::unweighted, 0.95, false);
  EXPECT_NEAR(g->d, -8.0 / 3, 1e-12);
  EXPECT_FALSE(g->d_free);
}

TEST(ScalingIssue34, NLogNAtTwentyPercentIsNotCompatibleWithN) {
  // Issue 34's first case: n log n data, 20% noise, 3 runs, n = 1,024 .. 32,768, linear, n_log_n
  // and quadratic pre-specified. Before the fix, seed 29 of this generator read "compatible with
  // n" while n log n took 41.8% of the resamples (the issue's own seed 4 came from another
  // generator; seed 4 is kept here too). Now n is never labelled compatible on these data.
  for (const std::uint64_t seed : {4, 29}) {
    const rows d =
        synthetic(10, 15, 3, 0.20, seed, [](double n) { return 3e-9 * n * std::log2(n); });
    const scaling_result r = analyze_scaling(d.n, d.t, preregistered(linear_nlogn_quadratic));
    EXPECT_FALSE(r.label == scaling_label::compatible && r.best == scaling_shape::linear)
        << seed << ": " << r.statement;
    if (r.label == scaling_label::ambiguous && r.best == scaling_shape::linear) {
      ASSERT_FALSE(r.rivals.empty()) << r.statement;
      EXPECT_NE(r.statement.find("n log n ("), std::string::npos) << r.statement;
    }
  }
}

TEST(ScalingIssue34, OneShapeWithANegativeFixedCostIsNotCompatible) {
  // Issue 34's second case: 3e-9 n log2 n, 5% noise, 5 runs, n = 1,024 .. 32,768, only n
  // pre-specified. Before the fix: "compatible with n" with d = -1.48e-5 (seed 4 here; 191 of
  // 200 seeds). The local exponents are 1 + 1/ln n, 1.10 .. 1.14, and 5 runs at 5% give a pure
  // error that n cannot fit within.
  const rows d = synthetic(10, 15, 5, 0.05, 4, [](double n) { return 3e-9 * n * std::log2(n); });
  const scaling_result r = analyze_scaling(d.n, d.t, preregistered({scaling_shape::linear}));
  EXPECT_NE(r.label, scaling_label::compatible) << r.statement;
  const auto& lin = candidate(r, scaling_shape::linear);
  ASSERT_TRUE(lin.d_free);
  EXPECT_LT(*lin.d_free, 0);
  EXPECT_EQ(lin.d, 0);
  ASSERT_TRUE(lin.lack_of_fit);
  EXPECT_LT(lin.lack_of_fit->p, 0.001);
  EXPECT_NE(lin.note.find("fixed cost d held at 0"), std::string::npos) << lin.note;
}

TEST(ScalingIssue34, ExploratoryExactPowersSayTheExponentIntervalHoldsTheShape) {
  // Exactly 0.5 n and 0.5 n^2, 5% noise: every shape tried, the free power law passes too, and
  // the label names the simpler shape with the power law's exponent interval that holds its
  // exponent.
  const struct {
    double power;
    scaling_shape shape;
    const char* text;
  } cases[] = {{1, scaling_shape::linear, "contains n's exponent 1"},
               {2, scaling_shape::quadratic, "contains n^2's exponent 2"}};
  for (const auto& c : cases) {
    const rows d =
        synthetic(8, 15, 5, 0.05, 12, [&](double n) { return 0.5 * std::pow(n, c.power); });
    scaling_options o;
    o.seed = 7;
    const scaling_result r = analyze_scaling(d.n, d.t, o);
    EXPECT_EQ(r.label, scaling_label::compatible) << r.statement;
    EXPECT_EQ(r.best, c.shape);
    EXPECT_TRUE(r.power_law_agrees);
    EXPECT_NE(r.statement.find(c.text), std::string::npos) << r.statement;
    const auto& power = candidate(r, scaling_shape::power_law);
    EXPECT_LE(*power.exponent_low, c.power);
    EXPECT_GE(*power.exponent_high, c.power);
  }
}

TEST(ScalingInput, TooFewSizesIsAStatusAndBadRowsAreNamed) {
  const std::vector<double> n = {8, 8, 8}, t = {1, 2, 3};
  const scaling_result r = analyze_scaling(n, t, {});
  EXPECT_EQ(r.status, scaling_status::too_few_sizes);
  try {
    analyze_scaling(std::vector<double>{8, 16, -1}, std::vector<double>{1, 2, 3}, {});
    FAIL();
  } catch (const reading_error& e) {
    EXPECT_EQ(e.index(), 2u);
  }
  try {
    analyze_scaling(std::vector<double>{8, 16}, std::vector<double>{1, 0}, {});
    FAIL();
  } catch (const reading_error& e) {
    EXPECT_EQ(e.index(), 1u);
  }
}

TEST(ScalingShapes, NamesRoundTrip) {
  for (auto s : all_scaling_shapes()) EXPECT_EQ(parse_scaling_shape(to_string(s)), s);
  EXPECT_FALSE(parse_scaling_shape("nlogn"));
  EXPECT_EQ(format_size(65536), "65,536");
  EXPECT_EQ(format_size(128), "128");
}

}  // namespace MCPILOT_TEST_FILE
