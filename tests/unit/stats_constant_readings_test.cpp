// Readings that never vary (issue 36). Non-zero constants get the interval c +- p|c|, p the exact
// zero-events bound on the chance that a reading differs (Clopper-Pearson with no event:
// 1 - (1 - conf)^(1/n)), so a constant required quantity converges instead of sampling to the
// budget; a zero-width interval is never given. All-zero readings (no rare event yet) keep no
// interval. Known answers from the closed form, evaluated in Python:
//   1 - 0.05 ** (1 / 10000) = 0.00029952835977664627
//   ceil(log(0.05) / log(1 - 0.05)) = 59   (the readings a +-5% width needs)
#include <gtest/gtest.h>

#include <vector>

#include "mcpilot/model.hpp"
#include "mcpilot/session.hpp"
#include "mcpilot/stats/analysis.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;

// 10,000 readings of 79.365079365079... (placement.design's rebuild time of a design, the same
// for every device) once gave sd ~ 1e-14 from the rounding of their sum, a zero-width interval,
// and a "not covered" beside the exact value.
TEST(StatsConstantReadings, NonDyadicConstantGetsTheZeroEventsInterval) {
  const double c = 500.0 / 6.3;
  const std::vector<double> readings(10'000, c);
  analysis_options opt;
  const auto a = analyze(readings, opt);
  const double p = 0.00029952835977664627;
  ASSERT_TRUE(a.mean && a.ci_low && a.ci_high && a.ci_width);
  EXPECT_EQ(*a.mean, c);
  EXPECT_NEAR(*a.ci_low, c * (1 - p), 1e-12 * c);
  EXPECT_NEAR(*a.ci_high, c * (1 + p), 1e-12 * c);
  EXPECT_GT(*a.ci_width, 0.0);
  EXPECT_TRUE(a.converged);
  EXPECT_NE(a.status.find("constant readings"), std::string::npos) << a.status;
}

TEST(StatsConstantReadings, TooFewConstantReadingsAskForTheZeroEventsCount) {
  // At +-5% (ci_perc 0.1) the bound must fall to 0.05: 59 readings.
  analysis_options opt;
  opt.requirements.ci_perc = 0.1;
  opt.requirements.min_samples = 10;
  const auto a = analyze(std::vector<double>(30, 7.0), opt);
  EXPECT_FALSE(a.converged);
  ASSERT_TRUE(a.required_samples);
  EXPECT_EQ(*a.required_samples, 59u);
  const auto b = analyze(std::vector<double>(59, 7.0), opt);
  EXPECT_TRUE(b.converged);
  ASSERT_TRUE(b.ci_width);
  EXPECT_LE(*b.ci_width, 0.1 * 7.0);
}

TEST(StatsConstantReadings, AllZeroReadingsKeepNoInterval) {
  analysis_options opt;
  const auto a = analyze(std::vector<double>(10'000, 0.0), opt);
  EXPECT_FALSE(a.ci_low.has_value());
  EXPECT_FALSE(a.converged);
  EXPECT_NE(a.status.find("no variation"), std::string::npos) << a.status;
}

// A model whose required quantity is always 3: the session stops converged at the zero-events
// count, not at max_replications (it once ran to 10^7).
class constant_model : public model {
 public:
  void declare(model_spec& s) const override { s.quantity("three"); }
  void replicate(replication& r) const override { r.record(0, 3.0); }
};

TEST(StatsConstantReadings, AConstantRequiredQuantityEndsTheSessionEarly) {
  const constant_model m;
  model_spec spec;
  m.declare(spec);
  session_settings s;
  s.seed = 1;
  s.threads = 1;
  s.engine.session_precision = *preset("normal");
  const auto r = run_session(m, spec, s);
  EXPECT_EQ(r.stopped_because, stop_reason::converged);
  EXPECT_LT(r.replications, 10'000u);
  ASSERT_EQ(r.quantities.size(), 1u);
  EXPECT_EQ(*r.quantities[0].stats.mean, 3.0);
}

}  // namespace MCPILOT_TEST_FILE
