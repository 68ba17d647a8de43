// analyze() as a whole, and the presets: every field of the design's table (autocorrelation
// limit, CI width, minimum sample size, confidence, and the absolute-width override) must change
// what analyze() reports, and each preset must hold exactly the values of the table.
//
// Hand-computed values are worked in the comments; R values quote the call (R 4.x,
// `options(digits = 17)`).

#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <cstddef>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "../support/expect_rel.hpp"
#include "../support/subsession_by_definition.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/precision.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "mcpilot/stats/trend.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

analysis_options with(const precision& p) {
  analysis_options o;
  o.requirements = p;
  o.remove_warmup = false;  // these tests are about the interval, not the change-points
  // They check Pilot's interval number for number (R's t.test on the batch means); the adjusted
  // interval has its own tests in adjusted_interval_test.cpp.
  if (!o.requirements.interval) o.requirements.interval = interval_method::pilot;
  // And Pilot's subsession rule, whose q they compute by hand or by definition; the decay rule,
  // the default, has its own tests in stream_analysis_test.cpp.
  o.subsessions = analysis_options::grouping::lag1;
  return o;
}

analysis_options with(const char* preset_name) {
  return with(*preset(preset_name));
}

// AR(1) around `mu` with unit marginal variance, started in its stationary distribution.
std::vector<double> ar1(std::size_t n, double rho, double mu, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  boost::random::normal_distribution<double> normal;
  std::vector<double> x(n);
  double v = normal(gen);
  for (double& xi : x) {
    xi = mu + v;
    v = rho * v + std::sqrt(1 - rho * rho) * normal(gen);
  }
  return x;
}

std::vector<double> iid_normal(std::size_t n, double mu, double sd, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  boost::random::normal_distribution<double> normal(mu, sd);
  std::vector<double> x(n);
  for (double& xi : x) xi = normal(gen);
  return x;
}

const std::vector<double> small_sample = {2, 4, 4, 4, 5, 5, 7, 9};

// ---------------------------------------------------------------------------------------------
// The presets

TEST(StatsPresets, ExactlyTheDesignTable) {
  // docs/statistics.md, "Presets" (the Pilot method's own table): quick 0.8 / 0.20 / 30, normal 0.2
  // / 0.10 / 50, strict 0.1 / 0.10 / 200, all at confidence 0.95, no absolute width.
  struct row {
    const char* name;
    double ac, ci_perc;
    std::size_t min_samples;
  };
  const row rows[] = {
      {"quick", 0.8, 0.20, 30}, {"normal", 0.2, 0.10, 50}, {"strict", 0.1, 0.10, 200}};
  for (const row& r : rows) {
    SCOPED_TRACE(r.name);
    const auto p = preset(r.name);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->autocorrelation_limit, r.ac);
    EXPECT_EQ(p->ci_perc, r.ci_perc);
    EXPECT_EQ(p->min_samples, r.min_samples);
    EXPECT_EQ(p->confidence, 0.95);
    EXPECT_FALSE(p->ci_abs);
    EXPECT_NO_THROW(validate(*p));
  }
  EXPECT_FALSE(preset("fast"));
  EXPECT_FALSE(preset(""));
}

TEST(StatsPresets, ValidateRejectsOutOfRangeFields) {
  const precision good = *preset("normal");
  auto expect_rejected = [&](auto change) {
    precision p = good;
    change(p);
    EXPECT_THROW(validate(p), input_error);
    EXPECT_THROW(analyze(small_sample, with(p)), input_error);
  };
  expect_rejected([](precision& p) { p.autocorrelation_limit = 0; });
  expect_rejected([](precision& p) { p.autocorrelation_limit = 1; });
  expect_rejected([](precision& p) { p.ci_perc = 0; });
  expect_rejected([](precision& p) { p.max_side_ratio = 1; });
  expect_rejected([](precision& p) { p.max_side_ratio = std::nan(""); });
  expect_rejected([](precision& p) { p.ci_perc = -0.1; });
  expect_rejected([](precision& p) { p.ci_perc = std::nan(""); });
  expect_rejected([](precision& p) { p.ci_abs = 0.0; });
  expect_rejected([](precision& p) { p.confidence = 1; });
  expect_rejected([](precision& p) { p.confidence = 0; });
  expect_rejected([](precision& p) { p.min_samples = 1; });
}

TEST(StatsPresets, QuantityKindNames) {
  for (quantity_kind k : {quantity_kind::ordinary, quantity_kind::rate, quantity_kind::proportion})
    EXPECT_EQ(parse_quantity_kind(to_string(k)), std::optional<quantity_kind>(k));
  EXPECT_FALSE(parse_quantity_kind("ratio"));
}

// ---------------------------------------------------------------------------------------------
// analyze() on a hand-computed series

TEST(StatsAnalyze, QuickTakesTheReadingsAsTheyAre) {
  // Lag-1 of 2 4 4 4 5 5 7 9: deviations -3 -1 -1 -1 0 0 2 4, products 3+1+1+0+0+0+8 = 13,
  // squares 32 -> 0.40625 <= 0.8, so q = 1 and the interval is R's t.test(x)$conf.int.
  const analysis a = analyze(small_sample, with("quick"));
  EXPECT_EQ(a.n, 8u);
  EXPECT_EQ(a.n_used, 8u);
  EXPECT_EQ(a.remainder, 0u);
  EXPECT_EQ(a.subsession_size, std::optional<std::size_t>(1));
  EXPECT_EQ(a.subsession_count, std::optional<std::size_t>(8));
  EXPECT_NEAR(*a.autocorrelation, 13.0 / 32, 1e-15);
  EXPECT_NEAR(*a.subsession_autocorrelation, 13.0 / 32, 1e-15);
  EXPECT_DOUBLE_EQ(*a.mean, 5.0);
  EXPECT_REL(*a.ci_low, 3.2125120817637907, 1e-13);
  EXPECT_REL(*a.ci_high, 6.7874879182362102, 1e-13);
  EXPECT_REL(*a.ci_width_rel, (6.7874879182362102 - 3.2125120817637907) / 5, 1e-12);
  EXPECT_EQ(a.kind, quantity_kind::ordinary);
  EXPECT_EQ(a.confidence, 0.95);
}

TEST(StatsAnalyze, NormalBatchesThePairs) {
  // 0.406 > 0.2 rejects q = 1; q = 2 gives batch means 3 4 5 8 about 5: deviations -2 -1 0 3,
  // products 2 + 0 + 0 = 2, squares 14 -> 1/7 <= 0.2. R: t.test(c(3, 4, 5, 8))$conf.int
  //   -> 1.5625651181416911 8.4374348818583087
  const analysis a = analyze(small_sample, with("normal"));
  EXPECT_EQ(a.subsession_size, std::optional<std::size_t>(2));
  EXPECT_EQ(a.subsession_count, std::optional<std::size_t>(4));
  EXPECT_NEAR(*a.subsession_autocorrelation, 1.0 / 7, 1e-15);
  EXPECT_NEAR(*a.autocorrelation, 13.0 / 32, 1e-15);  // the raw lag-1 is still reported
  EXPECT_REL(*a.ci_low, 1.5625651181416911, 1e-13);
  EXPECT_REL(*a.ci_high, 8.4374348818583087, 1e-13);
}

TEST(StatsAnalyze, StrictFindsNoSubsessionSize) {
  // 0.406 and 1/7 both exceed 0.1, and q cannot exceed 8/3 = 2: not enough data, no interval.
  const analysis a = analyze(small_sample, with("strict"));
  EXPECT_FALSE(a.subsession_size);
  EXPECT_FALSE(a.ci_low);
  EXPECT_FALSE(a.ci_high);
  EXPECT_FALSE(a.ci_width);
  EXPECT_FALSE(a.required_samples);
  EXPECT_FALSE(a.converged);
  EXPECT_NE(a.status.find("not enough data"), std::string::npos) << a.status;
  EXPECT_DOUBLE_EQ(*a.mean, 5.0);  // the point estimate is still given
}

TEST(StatsAnalyze, TooFewReadings) {
  const analysis a = analyze(std::vector<double>{1, 2}, with("quick"));
  EXPECT_FALSE(a.ci_low);
  EXPECT_FALSE(a.converged);
  EXPECT_NE(a.status.find("at least 3"), std::string::npos) << a.status;
}

TEST(StatsAnalyze, RejectsNonFiniteReadingsByIndex) {
  std::vector<double> x = small_sample;
  x[6] = std::nan("");
  try {
    analyze(x, with("quick"));
    FAIL() << "NaN accepted";
  } catch (const reading_error& e) {
    EXPECT_EQ(e.index(), 6u);
  }
}

TEST(StatsAnalyze, RemainderIsReportedAndLeftOut) {
  // A 9th reading of 9: q = 1 has lag-1 0.594 > 0.2 (numpy), q = 2 has the same batch means
  // 3 4 5 8 about the mean of the 8 readings used, so 1/7 again, and the 9th reading is left over.
  // The interval is exactly the 8-reading one: R t.test(c(3, 4, 5, 8))$conf.int.
  std::vector<double> x = small_sample;
  x.push_back(9);
  const analysis a = analyze(x, with("normal"));
  EXPECT_EQ(a.n, 9u);
  EXPECT_EQ(a.subsession_size, std::optional<std::size_t>(2));
  EXPECT_EQ(a.n_used, 8u);
  EXPECT_EQ(a.remainder, 1u);
  EXPECT_NEAR(*a.subsession_autocorrelation, 1.0 / 7, 1e-15);
  EXPECT_REL(*a.ci_low, 1.5625651181416911, 1e-13);
  EXPECT_REL(*a.ci_high, 8.4374348818583087, 1e-13);
}

// ---------------------------------------------------------------------------------------------
// Each field of the preset is really used

TEST(StatsPresetFields, AutocorrelationLimitChoosesTheSubsessionSize) {
  // AR(1) with rho = 0.5: the batch-mean lag-1 is 0.5 at q = 1 and falls like 1/q, so the three
  // limits give three different sizes, each the smallest q of choose_subsession for that limit.
  const std::vector<double> x = ar1(20000, 0.5, 10, 7);
  const analysis quick = analyze(x, with("quick"));
  const analysis normal = analyze(x, with("normal"));
  const analysis strict = analyze(x, with("strict"));
  ASSERT_TRUE(quick.subsession_size && normal.subsession_size && strict.subsession_size);
  EXPECT_EQ(*quick.subsession_size, 1u);
  EXPECT_LT(*quick.subsession_size, *normal.subsession_size);
  EXPECT_LT(*normal.subsession_size, *strict.subsession_size);
  // The sizes from the definition of rho_1(q), with none of the library's code.
  const auto q_by_definition = [&x](double limit) {
    const auto c = test::subsession_by_definition(x, limit);
    return c ? c->q : 0;
  };
  EXPECT_EQ(*normal.subsession_size, q_by_definition(0.2));
  EXPECT_EQ(*strict.subsession_size, q_by_definition(0.1));
  // Overriding only the limit of normal reproduces strict's choice.
  precision p = *preset("normal");
  p.autocorrelation_limit = 0.1;
  EXPECT_EQ(analyze(x, with(p)).subsession_size, strict.subsession_size);
  // And the wider interval that honest batching gives: the batch-means interval is wider.
  EXPECT_GT(*strict.ci_width, *quick.ci_width);
}

TEST(StatsPresetFields, WidthDecidesConvergence) {
  // iid readings whose interval is between 10% and 20% of the mean: quick converges, normal not.
  const std::vector<double> x = iid_normal(200, 100, 54, 11);
  const analysis quick = analyze(x, with("quick"));
  const analysis normal = analyze(x, with("normal"));
  ASSERT_EQ(quick.subsession_size, std::optional<std::size_t>(1));
  ASSERT_EQ(normal.subsession_size, std::optional<std::size_t>(1));  // |rho_1| <= 0.2 here
  ASSERT_GT(*quick.ci_width_rel, 0.10);                              // precondition of the test
  ASSERT_LT(*quick.ci_width_rel, 0.20);
  EXPECT_TRUE(quick.converged);
  EXPECT_FALSE(normal.converged);
  EXPECT_NEAR(quick.target_width, 0.20 * *quick.mean, 1e-12);
  EXPECT_NEAR(normal.target_width, 0.10 * *normal.mean, 1e-12);
  // The readings still needed for normal: h* from the defining inequality, with sd of the batch
  // means (here the readings) and width 0.10 of the mean; above the 200 readings given.
  // The sample sd of the 200 readings, two-pass, from the definition (not from the code's width).
  double m = 0, ss = 0;
  for (double v : x) m += v / 200.0;
  for (double v : x) ss += (v - m) * (v - m);
  const double sd = std::sqrt(ss / 199.0);
  std::size_t h = 2;
  while (static_cast<double>(h) <
         std::pow(2 * t_critical(static_cast<double>(h - 1), 0.95) * sd / normal.target_width, 2))
    ++h;
  EXPECT_EQ(normal.required_samples, std::optional<std::size_t>(h));
  EXPECT_GT(h, 200u);
  // Overriding only ci_perc of normal to quick's width converges.
  precision p = *preset("normal");
  p.ci_perc = 0.20;
  EXPECT_TRUE(analyze(x, with(p)).converged);
}

TEST(StatsPresetFields, AbsoluteWidthWinsOverTheRelativeOne) {
  const std::vector<double> x = iid_normal(200, 100, 54, 11);
  precision p = *preset("normal");
  p.ci_abs = 100.0;  // far wider than the interval: converges though 10% of the mean would not
  analysis a = analyze(x, with(p));
  EXPECT_EQ(a.target_width, 100.0);
  EXPECT_TRUE(a.converged);
  p.ci_abs = 1.0;  // far narrower
  a = analyze(x, with(p));
  EXPECT_EQ(a.target_width, 1.0);
  EXPECT_FALSE(a.converged);
  EXPECT_GT(*a.required_samples, 10000u);
}

TEST(StatsPresetFields, MinimumSampleSizeIsEnforced) {
  // 40 readings with a tiny spread: the width is met at once, but normal asks for 50 subsession
  // means and strict for 200.
  const std::vector<double> x = iid_normal(40, 100, 0.1, 5);
  precision p = *preset("quick");
  analysis a = analyze(x, with(p));
  ASSERT_EQ(a.subsession_size, std::optional<std::size_t>(1));
  EXPECT_TRUE(a.converged);
  EXPECT_EQ(a.required_samples, std::optional<std::size_t>(30));  // the width needs only ~2
  p.min_samples = 50;                                             // only this field changes
  a = analyze(x, with(p));
  EXPECT_FALSE(a.converged);
  EXPECT_EQ(a.required_samples, std::optional<std::size_t>(50));
  p.min_samples = 200;
  a = analyze(x, with(p));
  EXPECT_FALSE(a.converged);
  EXPECT_EQ(a.required_samples, std::optional<std::size_t>(200));
  // The minimum counts subsession means: with q > 1 the readings needed are q times as many.
  const std::vector<double> y = ar1(3000, 0.5, 100, 3);
  p = *preset("normal");
  p.min_samples = 2000;
  a = analyze(y, with(p));
  ASSERT_TRUE(a.subsession_size);
  ASSERT_GT(*a.subsession_size, 1u);
  EXPECT_EQ(a.required_samples, std::optional<std::size_t>(*a.subsession_size * 2000));
}

TEST(StatsPresetFields, ConfidenceScalesTheInterval) {
  // Same q at any confidence; the half-width scales by qt(0.995, 7) / qt(0.975, 7) =
  // 1.4799320843441746 (R).
  precision p = *preset("quick");
  const analysis a95 = analyze(small_sample, with(p));
  p.confidence = 0.99;
  const analysis a99 = analyze(small_sample, with(p));
  EXPECT_EQ(a99.subsession_size, a95.subsession_size);
  EXPECT_EQ(a99.confidence, 0.99);
  EXPECT_REL(*a99.ci_width / *a95.ci_width, 1.4799320843441746, 1e-12);
  // The required size is recomputed at the new level too.
  const std::vector<double> x = iid_normal(200, 100, 54, 11);
  precision n95 = *preset("normal"), n99 = n95;
  n99.confidence = 0.99;
  EXPECT_GT(*analyze(x, with(n99)).required_samples, *analyze(x, with(n95)).required_samples);
}

TEST(StatsPresetFields, RequiredSamplesFollowTheFormulaWithBatches) {
  // Under strict an AR(1) series is batched; required_samples = q max(h*, 200) with h* the
  // smallest h >= (2 t*_{h-1} s_q / (0.10 mean))^2, s_q the sd of the batch means.
  const std::vector<double> x = ar1(20000, 0.8, 20, 13);
  const analysis a = analyze(x, with("strict"));
  ASSERT_TRUE(a.subsession_size && a.required_samples);
  const std::size_t q = *a.subsession_size;
  const std::vector<double> b = batch_means(std::span<const double>(x).first(a.n_used), q);
  double m = 0, ss = 0;
  for (double v : b) m += v / static_cast<double>(b.size());
  for (double v : b) ss += (v - m) * (v - m);
  const double sd = std::sqrt(ss / static_cast<double>(b.size() - 1));
  const double width = 0.10 * m;
  std::size_t h = 2;
  while (static_cast<double>(h) <
         std::pow(2 * t_critical(static_cast<double>(h - 1), 0.95) * sd / width, 2))
    ++h;
  EXPECT_EQ(*a.required_samples, q * std::max<std::size_t>(h, 200));
  EXPECT_NEAR(*a.mean, m, 1e-9);
}

TEST(StatsPresetFields, UnreachableWidthIsNeverZero) {
  // A mean of exactly 0 with a relative width: no number of readings can do.
  const std::vector<double> x = {-2, 1, -1, 2, 0, -1, 1, 0, 2, -2};
  const analysis a = analyze(x, with("quick"));
  ASSERT_TRUE(a.ci_width);
  EXPECT_EQ(*a.mean, 0.0);
  EXPECT_FALSE(a.required_samples);
  EXPECT_FALSE(a.converged);
  EXPECT_NE(a.status.find("cannot be reached"), std::string::npos) << a.status;
}

// subsession_trend reads a rate's batch means of reciprocals straight off the readings; it used
// to invert a copy of them first. The regression must be that of the copy's batch means, to the
// bit, for rates and ordinary readings, with a warm-up removed and a remainder left over.
// subsession_trend computes each batch mean where it needs it (twice), and at q = 1 regresses
// the readings themselves: the result must be the regression of the batch means, bit for bit.
TEST(SubsessionTrend, IsTheTrendOfTheAnalysedBatchMeans) {
  // rho 0.6 gives q > 1; independent readings give q = 1, and a gentler drift, which the
  // change-point search would otherwise cut into segments.
  for (const auto [rho, drift] : {std::pair{0.6, 0.0002}, std::pair{0.0, 0.00006}}) {
    std::mt19937_64 rng(21);
    boost::random::normal_distribution<double> normal;
    std::vector<double> x(4000);
    double v = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      v = rho * v + normal(rng);
      x[i] = 20 + v + (i < 300 ? 8.0 : 0.0) + drift * static_cast<double>(i);
    }
    for (quantity_kind kind : {quantity_kind::ordinary, quantity_kind::rate}) {
      analysis_options opt;
      opt.kind = kind;
      // Pilot's rule, which takes q = 1 for the independent readings: the decay rule sees the
      // drift's long memory and batches them, and the q = 1 path would go untested.
      opt.subsessions = analysis_options::grouping::lag1;
      const analysis a = analyze(x, opt);
      ASSERT_TRUE(a.subsession_size && a.ci_low) << a.status;
      ASSERT_GT(a.warmup.removed_begin, 0u);
      EXPECT_EQ(*a.subsession_size > 1, rho > 0) << rho;
      std::vector<double> scale(
          x.begin() + static_cast<std::ptrdiff_t>(a.warmup.removed_begin),
          x.begin() + static_cast<std::ptrdiff_t>(a.warmup.removed_begin + a.n_used));
      if (kind == quantity_kind::rate)
        for (double& y : scale) y = 1.0 / y;
      const auto expected = linear_trend(batch_means(scale, *a.subsession_size));
      const auto got = subsession_trend(x, a);
      ASSERT_TRUE(expected && got);
      EXPECT_EQ(got->count, expected->count);
      EXPECT_EQ(got->slope, expected->slope);
      EXPECT_EQ(got->t, expected->t);
      EXPECT_EQ(got->p, expected->p);
      EXPECT_LT(got->p, 0.05);  // the drift is there to be found
    }
  }
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

// The scale the interval and the change-points are computed on: the readings themselves (the
// same memory, not a copy) or, for a rate, their reciprocals; what the kind cannot take is
// rejected with the reading's index.
TEST(AnalysedScale, ReadingsOrReciprocalsAndTheFirstBadReadingNamed) {
  const std::vector<double> x = {2, 4, 0.5};
  std::vector<double> storage;
  const auto same = analysed_scale(x, quantity_kind::ordinary, storage);
  EXPECT_EQ(same.data(), x.data());
  EXPECT_TRUE(storage.empty());
  const auto rec = analysed_scale(x, quantity_kind::rate, storage);
  ASSERT_EQ(rec.size(), 3u);
  EXPECT_EQ(rec[0], 0.5);
  EXPECT_EQ(rec[1], 0.25);
  EXPECT_EQ(rec[2], 2.0);
  const std::vector<double> rate_zero = {1, 0, 2};
  try {
    analysed_scale(rate_zero, quantity_kind::rate, storage);
    ADD_FAILURE() << "a rate of 0 was accepted";
  } catch (const reading_error& e) {
    EXPECT_EQ(e.index(), 1u);
  }
  const std::vector<double> not_binary = {0, 1, 1, 0.5};
  try {
    analysed_scale(not_binary, quantity_kind::proportion, storage);
    ADD_FAILURE() << "a proportion reading of 0.5 was accepted";
  } catch (const reading_error& e) {
    EXPECT_EQ(e.index(), 3u);
  }
  const std::vector<double> huge = {1, 1e200};
  EXPECT_THROW(analysed_scale(huge, quantity_kind::ordinary, storage), reading_error);
}

// A session that has not converged because its interval is still too wide must be told to go on:
// the readings it is asked for exceed those it has (the progress line's "~k more" and the next
// round's size come from them), although they come from the batch means' sd while the width
// carries the t quantile on few batches and the skewness and correlation adjustments. Seeded
// series of the kinds where the two part most: skewed (lognormal, sigma 1.5) and correlated
// (AR(1) 0.7), at widths the sessions stop near.
TEST(RequiredSamples, ExceedTheReadingsUsedWhileTheIntervalIsTooWide) {
  std::mt19937_64 gen(20261204);
  boost::random::normal_distribution<double> normal;
  int too_wide = 0;
  for (int series = 0; series < 600; ++series) {
    const std::size_t n = 40 + static_cast<std::size_t>(series % 12) * 30;
    std::vector<double> x(n);
    if (series % 2 == 0) {
      for (double& xi : x) xi = std::exp(1.5 * normal(gen));
    } else {
      double v = normal(gen);
      for (double& xi : x) {
        xi = 10 + v;
        v = 0.7 * v + std::sqrt(1 - 0.49) * normal(gen);
      }
    }
    analysis_options o;
    o.requirements = *preset("normal");
    o.requirements.ci_perc = series % 3 == 0 ? 0.05 : 0.2;
    o.requirements.min_samples = 10;
    const analysis a = analyze(x, o);
    if (a.converged || !a.ci_width || *a.ci_width <= a.target_width) continue;
    ++too_wide;
    ASSERT_TRUE(a.required_samples) << "series " << series;
    EXPECT_GT(*a.required_samples, a.n_used)
        << "series " << series << ": width " << *a.ci_width << " > target " << a.target_width;
  }
  EXPECT_GT(too_wide, 100);  // the property was tried on many unconverged series
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
