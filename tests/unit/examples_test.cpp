// The two examples run through run_session directly: determinism across thread counts, parameter
// validation, and interval coverage over seeds (the small version; the full study with 100 seeds
// per case is tests/validation/examples_coverage.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "../../examples/mm1_queue/mm1_model.hpp"
#include "../../examples/pi/pi_model.hpp"
#include "mcpilot/session.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;

struct configured {
  std::unique_ptr<model> m;
  model_spec spec;
};

configured make_pi(std::int64_t darts) {
  configured c{std::make_unique<examples::pi_model>(), {}};
  c.m->declare(c.spec);
  parameters p;
  p.set("darts", darts);
  c.m->configure(p);
  return c;
}

configured make_mm1(double lambda, double mu) {
  configured c{std::make_unique<examples::mm1_model>(), {}};
  c.m->declare(c.spec);
  parameters p;
  p.set("arrival_rate", lambda);
  p.set("service_rate", mu);
  c.m->configure(p);
  return c;
}

session_settings settings(std::uint64_t seed, unsigned threads, const char* preset_name,
                          double ci_perc) {
  session_settings s;
  s.seed = seed;
  s.threads = threads;
  s.engine.session_precision = *preset(preset_name);
  s.engine.session_precision.ci_perc = ci_perc;
  s.engine.streams = 4;
  return s;
}

bool covers(const session_result& r, double truth) {
  const auto& a = r.quantities.at(0).stats;
  return a.ci_low && a.ci_high && *a.ci_low <= truth && truth <= *a.ci_high;
}

TEST(ExamplePi, BitIdenticalAcrossThreadCounts) {
  const auto c = make_pi(100);
  const auto r1 = run_session(*c.m, c.spec, settings(11, 1, "normal", 0.01));
  ASSERT_EQ(r1.stopped_because, stop_reason::converged);
  for (unsigned threads : {2u, 3u, 8u}) {
    const auto r = run_session(*c.m, c.spec, settings(11, threads, "normal", 0.01));
    EXPECT_EQ(r.replications, r1.replications) << threads << " threads";
    EXPECT_EQ(r.rounds, r1.rounds);
    EXPECT_EQ(*r.quantities[0].stats.mean, *r1.quantities[0].stats.mean);
    EXPECT_EQ(*r.quantities[0].stats.ci_low, *r1.quantities[0].stats.ci_low);
    EXPECT_EQ(*r.quantities[0].stats.ci_high, *r1.quantities[0].stats.ci_high);
    EXPECT_EQ(r.readings->readings(0), r1.readings->readings(0));
  }
}

TEST(ExampleMm1, BitIdenticalAcrossThreadCounts) {
  const auto c = make_mm1(0.8, 1.0);
  const auto r1 = run_session(*c.m, c.spec, settings(5, 1, "normal", 0.2));
  ASSERT_EQ(r1.stopped_because, stop_reason::converged);
  for (unsigned threads : {2u, 3u}) {
    const auto r = run_session(*c.m, c.spec, settings(5, threads, "normal", 0.2));
    EXPECT_EQ(r.replications, r1.replications) << threads << " threads";
    EXPECT_EQ(*r.quantities[0].stats.mean, *r1.quantities[0].stats.mean);
    EXPECT_EQ(*r.quantities[0].stats.ci_low, *r1.quantities[0].stats.ci_low);
    EXPECT_EQ(r.quantities[0].stats.subsession_size, r1.quantities[0].stats.subsession_size);
    for (std::size_t s = 0; s < 4; ++s)
      EXPECT_EQ(r.readings->stream_readings(s, 0), r1.readings->stream_readings(s, 0));
  }
}

TEST(ExampleMm1, StreamsStartEmptyAndFollowLindley) {
  const auto c = make_mm1(0.8, 1.0);
  auto s = settings(3, 2, "normal", 0.2);
  s.max_replications = 4000;  // 1000 customers per stream
  const auto r = run_session(*c.m, c.spec, s);
  for (std::size_t j = 0; j < 4; ++j) {
    const auto& w = r.readings->stream_readings(j, 0);
    ASSERT_FALSE(w.empty());
    EXPECT_EQ(w[0], 0.0);  // the first customer finds the queue empty
    for (double x : w) EXPECT_GE(x, 0.0);
    // Every customer either waits 0 or has a positive wait; an M/M/1 queue at rho 0.8 empties
    // now and then, so zeros recur (P(W = 0) = 1 - rho in steady state).
    EXPECT_GT(std::count(w.begin(), w.end(), 0.0), 10);
  }
  // Different streams are different runs.
  EXPECT_NE(r.readings->stream_readings(0, 0), r.readings->stream_readings(1, 0));
}

TEST(ExampleMm1, AnalyticWaitIsRhoOverMuMinusLambda) {
  // rho / (mu - lambda): 0.8 / 0.2 = 4 and 0.5 / 0.5 = 1 (M/M/1 queue, Wq = lambda / (mu (mu -
  // lambda))).
  EXPECT_DOUBLE_EQ(make_mm1(0.8, 1.0).m->analytic().at("wait"), 4.0);
  EXPECT_DOUBLE_EQ(make_mm1(0.5, 1.0).m->analytic().at("wait"), 1.0);
  EXPECT_DOUBLE_EQ(make_mm1(1.0, 2.0).m->analytic().at("wait"), 0.5);
}

TEST(ExampleMm1, RejectsAnUnstableQueue) {
  examples::mm1_model m;
  model_spec spec;
  m.declare(spec);
  parameters p;
  p.set("arrival_rate", 1.0);
  p.set("service_rate", 1.0);
  try {
    m.configure(p);
    FAIL() << "rho = 1 was accepted";
  } catch (const parameter_error& e) {
    EXPECT_EQ(e.field(), "arrival_rate");
    EXPECT_NE(std::string(e.what()).find("below service_rate"), std::string::npos) << e.what();
  }
  EXPECT_THROW(spec.find_parameter("service_rate")->check(0.0), parameter_error);
  EXPECT_THROW(spec.find_parameter("arrival_rate")->check(-0.5), parameter_error);
}

// Coverage over seeds. Each session's interval claims 95%; over n independent seeds the number
// that cover the true value is Binomial(n, 0.95) if the claim holds. The thresholds below reject
// at about the 1% level (binomial cdf, from SciPy: binom.cdf(k, n, 0.95)), so a passing run is
// evidence the coverage is near nominal, and a procedure whose true coverage is 80% or less
// would fail most of the time. The seeds are fixed, so the outcome is reproducible.

TEST(ExamplePi, IntervalCoverageOverSeeds) {
  // 100 darts per replication; +-0.5% of pi needs ~420 replications: about 1 ms a session.
  const auto c = make_pi(100);
  const int seeds = 200;
  int covering = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    const auto r = run_session(*c.m, c.spec, settings(1000 + seed, 2, "normal", 0.01));
    ASSERT_EQ(r.stopped_because, stop_reason::converged) << "seed " << seed;
    covering += covers(r, std::numbers::pi);
  }
  // binom.cdf(181, 200, 0.95) = 0.0057: at least 182 of 200 must cover. At 85% true coverage
  // the chance of passing is binom.sf(181, 200, 0.85) = 0.0056.
  EXPECT_GE(covering, 182) << covering << " of " << seeds << " intervals covered pi";
}

// The strict preset: with normal's limit of 0.2 on the subsession means' lag-1 autocorrelation,
// strongly correlated readings such as these waits give intervals too narrow by about 1.22
// (docs/statistics.md), so their nominal 95% is not what they deliver (87% over 100 seeds,
// docs/validation.md); strict's 0.1 brings it to 90-94%.
TEST(ExampleMm1, IntervalCoverageOverSeeds) {
  struct study {
    double lambda, mu;
  };
  int covering = 0, sessions = 0;
  for (const study& st : {study{0.5, 1.0}, study{0.8, 1.0}}) {
    const auto c = make_mm1(st.lambda, st.mu);
    const double truth = st.lambda / st.mu / (st.mu - st.lambda);
    for (int seed = 1; seed <= 10; ++seed) {
      const auto r = run_session(*c.m, c.spec, settings(2000 + seed, 2, "strict", 0.1));
      ASSERT_EQ(r.stopped_because, stop_reason::converged)
          << "rho " << st.lambda / st.mu << " seed " << seed;
      covering += covers(r, truth);
      ++sessions;
    }
  }
  // binom.cdf(16, 20, 0.95) = 0.016: at least 17 of 20 must cover.
  EXPECT_GE(covering, 17) << covering << " of " << sessions << " M/M/1 intervals covered";
}

}  // namespace MCPILOT_TEST_FILE
