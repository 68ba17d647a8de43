// The session loop end to end with small in-test models: convergence, determinism across thread
// counts, limits, a throwing model, stream style with warm-up.
#include <gtest/gtest.h>

#include <boost/random/exponential_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cmath>

#include "mcpilot/session.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;

// Readings ~ Normal(10, 2): converges at a predictable size.
class normal_model : public model {
 public:
  void declare(model_spec& s) const override {
    s.describe("normal readings");
    s.quantity("x").with_unit("s");
  }
  void replicate(replication& r) const override {
    boost::random::normal_distribution<double> d(10.0, 2.0);
    r.record(0, d(r.rng()));
  }
};

session_settings settings(unsigned threads, std::uint64_t seed = 7) {
  session_settings s;
  s.seed = seed;
  s.threads = threads;
  s.engine.session_precision = *preset("normal");
  s.engine.session_precision.ci_perc = 0.01;  // whole width 0.1 around 10
  return s;
}

TEST(Session, ConvergesAndCoversTheMean) {
  normal_model m;
  model_spec spec;
  m.declare(spec);
  const auto r = run_session(m, spec, settings(2));
  EXPECT_EQ(r.stopped_because, stop_reason::converged);
  ASSERT_EQ(r.quantities.size(), 1u);
  const auto& a = r.quantities[0].stats;
  EXPECT_TRUE(a.converged);
  EXPECT_LE(*a.ci_width, 0.01 * *a.mean);
  // required n for sd 2 and whole width 0.1: (2 t* 2 / 0.1)^2 ~ 6147 readings; the engine must
  // neither stop short (the estimate of sd wobbles by a few % at that size) nor overshoot by much
  // more than its 10% growth floor allows.
  EXPECT_GE(r.replications, 5500u);
  EXPECT_LE(r.replications, 6147u * 112 / 100);
  // Coverage, which one session cannot show: 200 seeded sessions of the same model, each stopping
  // at its own width, must cover the true mean 10 at about the nominal 95%. Stopping when the
  // width is first met favours runs whose sd estimate happened to be low, which costs a little
  // coverage; we allow 1% for it;
  // with 200 sessions the binomial sd is sqrt(0.95 0.05 / 200) = 0.0154, so the gate is
  // 0.95 - 0.01 - 3 * 0.0154 = 0.894.
  int covered = 0;
  constexpr int sessions = 200;
  for (int k = 0; k < sessions; ++k) {
    const auto rk = run_session(m, spec, settings(1, 1000 + static_cast<std::uint64_t>(k)));
    const auto& s = rk.quantities[0].stats;
    ASSERT_TRUE(s.ci_low && s.ci_high);
    covered += *s.ci_low <= 10 && 10 <= *s.ci_high;
  }
  EXPECT_GE(static_cast<double>(covered) / sessions, 0.894) << covered << " of " << sessions;
}

TEST(Session, BitIdenticalAcrossThreadCounts) {
  normal_model m;
  model_spec spec;
  m.declare(spec);
  const auto r1 = run_session(m, spec, settings(1));
  const auto r2 = run_session(m, spec, settings(2));
  const auto r8 = run_session(m, spec, settings(8));
  EXPECT_EQ(r1.replications, r2.replications);
  EXPECT_EQ(r1.replications, r8.replications);
  EXPECT_EQ(*r1.quantities[0].stats.mean, *r2.quantities[0].stats.mean);
  EXPECT_EQ(*r1.quantities[0].stats.mean, *r8.quantities[0].stats.mean);
  EXPECT_EQ(*r1.quantities[0].stats.ci_low, *r8.quantities[0].stats.ci_low);
  EXPECT_EQ(r1.readings->readings(0), r8.readings->readings(0));
}

TEST(Session, MaxReplicationsStopsWithIntervalReported) {
  normal_model m;
  model_spec spec;
  m.declare(spec);
  auto s = settings(2);
  s.max_replications = 150;
  const auto r = run_session(m, spec, s);
  EXPECT_EQ(r.stopped_because, stop_reason::max_replications);
  EXPECT_EQ(r.replications, 150u);
  EXPECT_FALSE(r.quantities[0].stats.converged);
  EXPECT_TRUE(r.quantities[0].stats.ci_low.has_value());
}

class throwing_model : public normal_model {
 public:
  void replicate(replication& r) const override {
    if (r.index() == 137 || r.index() == 150) throw std::runtime_error("boom");
    normal_model::replicate(r);
  }
};

TEST(Session, ThrowingReplicationEndsCleanlyNamingIndexAndSeed) {
  throwing_model m;
  model_spec spec;
  m.declare(spec);
  for (unsigned threads : {1u, 2u}) {
    const auto r = run_session(m, spec, settings(threads, 42));
    EXPECT_EQ(r.stopped_because, stop_reason::error);
    ASSERT_TRUE(r.error.has_value());
    EXPECT_NE(r.error->find("replication 137"), std::string::npos) << *r.error;
    EXPECT_NE(r.error->find("seed 42"), std::string::npos) << *r.error;
    EXPECT_EQ(r.replications, 137u);  // everything before the failure is kept
  }
}

// A round larger than the runner's chunk (2^17 rows of one quantity) is run in parts; a failure
// in a later part must keep every reading before it, exactly as in a single part.
class late_throwing_model : public normal_model {
 public:
  void replicate(replication& r) const override {
    if (r.index() == 200'000) throw std::runtime_error("late boom");
    normal_model::replicate(r);
  }
};

TEST(Session, FailureInALaterChunkKeepsEveryEarlierReading) {
  late_throwing_model m;
  model_spec spec;
  m.declare(spec);
  auto s = settings(2, 5);
  s.engine.session_precision.ci_perc = 1e-6;  // never converges: rounds of 100, 500, ... 312,500
  const auto r = run_session(m, spec, s);
  EXPECT_EQ(r.stopped_because, stop_reason::error);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_NE(r.error->find("replication 200000"), std::string::npos) << *r.error;
  EXPECT_EQ(r.replications, 200'000u);
  // The kept readings are the model's own, in index order: replication 199,999's reading is what
  // the same seed gives when that replication is run alone.
  std::vector<double> row(1);
  replication alone(spec, 5, 199'999, row);
  m.replicate(alone);
  EXPECT_EQ(r.readings->readings(0).back(), row[0]);
}

class bad_rate_model : public model {
 public:
  void declare(model_spec& s) const override { s.rate("throughput"); }
  void replicate(replication& r) const override { r.record(0, r.index() == 60 ? 0.0 : 2.0); }
};

TEST(Session, InvalidReadingIsASessionErrorNamingTheReplication) {
  bad_rate_model m;
  model_spec spec;
  m.declare(spec);
  const auto r = run_session(m, spec, settings(2, 5));
  EXPECT_EQ(r.stopped_because, stop_reason::error);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_NE(r.error->find("replication 60"), std::string::npos) << *r.error;
  EXPECT_NE(r.error->find("throughput"), std::string::npos) << *r.error;
  EXPECT_EQ(r.replications, 60u);
}

// AR(1) around 5 with a warm-up from 0: stream style, several streams.
class ar1_stream_model : public model {
 public:
  void declare(model_spec& s) const override {
    s.stream_style();
    s.quantity("y");
  }
  std::unique_ptr<stream> open_stream(std::uint64_t) const override {
    struct st : stream {
      double x = 0;
      void advance(stream_round& r, std::size_t count) override {
        boost::random::normal_distribution<double> e(0.0, 1.0);
        for (std::size_t i = 0; i < count; ++i) {
          x = 5 + 0.7 * (x - 5) + e(r.rng());
          r.record(0, x);
        }
      }
    };
    return std::make_unique<st>();
  }
};

TEST(Session, StreamStyleDeterministicAndCovers) {
  ar1_stream_model m;
  model_spec spec;
  m.declare(spec);
  auto s = settings(1);
  s.engine.session_precision.ci_perc = 0.02;
  s.engine.streams = 4;
  const auto r1 = run_session(m, spec, s);
  s.threads = 3;
  const auto r3 = run_session(m, spec, s);
  EXPECT_EQ(r1.stopped_because, stop_reason::converged);
  EXPECT_EQ(*r1.quantities[0].stats.mean, *r3.quantities[0].stats.mean);
  const auto& a = r1.quantities[0].stats;
  EXPECT_LE(*a.ci_low, 5.0);
  EXPECT_GE(*a.ci_high, 5.0);
  EXPECT_GT(*a.subsession_size, 1u);
}

// Bernoulli(p) trials; p = 0 never has an event.
class bernoulli_model : public model {
 public:
  explicit bernoulli_model(double p) : p_(p) {}
  void declare(model_spec& s) const override { s.proportion("event"); }
  void replicate(replication& r) const override {
    boost::random::uniform_01<double> u;
    r.record(0, u(r.rng()) < p_ ? 1.0 : 0.0);
  }

 private:
  double p_;
};

TEST(Session, RareProportionIsSampledForNotGivenUp) {
  // p = 2e-3: the first round of 100 trials most likely has no event (0.998^100 = 0.82). The
  // session must keep sampling and converge near p, not stop at "no events" with a bound.
  // Quick preset, +-10% (whole 20%): n ~ (2 * 1.96)^2 (1 - p) / (p 0.2^2) = 191,700 trials.
  bernoulli_model m(2e-3);
  model_spec spec;
  m.declare(spec);
  auto s = settings(2, 11);
  s.engine.session_precision = *preset("quick");
  const auto r = run_session(m, spec, s);
  EXPECT_EQ(r.stopped_because, stop_reason::converged);
  const auto& a = r.quantities[0].stats;
  EXPECT_FALSE(a.one_sided);
  EXPECT_LE(*a.ci_low, 2e-3);
  EXPECT_GE(*a.ci_high, 2e-3);
  EXPECT_GE(r.replications, 150'000u);
  EXPECT_LE(r.replications, 260'000u);
}

TEST(Session, NoEventsWithinTheBudgetStopsAsUnreachableWithTheBound) {
  // p = 0: after n trials without an event p may still be up to u ~ 3/n, and +-10% at p = u needs
  // about 15.4 / (0.04 u) ~ 128 n trials. Once that passes max_replications (10^5) no budget can
  // meet the width even for the likeliest p, so the session stops there, well before 10^5.
  bernoulli_model m(0.0);
  model_spec spec;
  m.declare(spec);
  auto s = settings(2, 11);
  s.engine.session_precision = *preset("quick");
  s.max_replications = 100'000;
  const auto r = run_session(m, spec, s);
  EXPECT_EQ(r.stopped_because, stop_reason::unreachable);
  EXPECT_LT(r.replications, 10'000u);
  const auto& a = r.quantities[0].stats;
  EXPECT_TRUE(a.one_sided);
  EXPECT_TRUE(a.unreachable);
  EXPECT_GT(*a.required_samples, 100'000u);
  EXPECT_NEAR(*a.ci_high, 1 - std::pow(0.05, 1.0 / static_cast<double>(r.replications)), 1e-12);
  EXPECT_NE(a.status.find("max_replications"), std::string::npos) << a.status;
}

}  // namespace MCPILOT_TEST_FILE
