// The mojette.layout model: its shipped configs and their exact values, its facts, bad input
// (exit 2 naming the field), determinism across thread counts, and the lifetime scenario against
// closed forms and seeded simulation.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "../support/configure_model.hpp"
#include "cli_test_support.hpp"
#include "mcpilot/io/config.hpp"
#include "mcpilot/registry.hpp"
#include "mcpilot/session.hpp"
#include "mojette/layout.hpp"
#include "mojette/mojette_model.hpp"
#include "mojette/recoverability.hpp"
#include "mojette/server_lifetime.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;
using mcpilot::test::run_mcpilot;
using mcpilot::test::temp_file;

std::string config_path(const std::string& name) {
  return std::string(MCPILOT_SOURCE_DIR) + "/configs/mojette/" + name + ".toml";
}

model_registry registry() {
  model_registry r;
  r.add<mojette::mojette_model>("mojette.layout");
  return r;
}

const model_fact& fact(const std::vector<model_fact>& facts, const std::string& name) {
  for (const auto& f : facts)
    if (f.name == name) return f;
  throw std::out_of_range(name);
}

// The exact values are derived in the configs' comments and in mojette_transform_test.cpp.
TEST(MojetteModel, ShippedConfigsCarryTheirExactValuesAndFacts) {
  const auto models = registry();
  {
    const auto cfg = load_config(config_path("rozofs-4-6"), models);
    EXPECT_NEAR(cfg.instance->analytic().at("unrecoverable"), 0.01585, 1e-15);
    const auto facts = cfg.instance->model_facts();
    EXPECT_EQ(std::get<std::string>(fact(facts, "layout").value), "rozofs-4-6");
    EXPECT_EQ(std::get<std::vector<std::int64_t>>(fact(facts, "bins_per_projection").value),
              (std::vector<std::int64_t>{137, 134, 131, 128, 131, 134}));
    EXPECT_DOUBLE_EQ(std::get<double>(fact(facts, "overhead").value), 795.0 / 512);
    EXPECT_EQ(std::get<double>(fact(facts, "mds_overhead").value), 1.5);
    EXPECT_TRUE(std::get<bool>(fact(facts, "mds_recoverability").value));
    EXPECT_GE(cfg.spec.quantity_index("encode_ns_per_byte"), 0);
    EXPECT_FALSE(cfg.spec.quantities()[1].required);
  }
  {
    const auto cfg = load_config(config_path("custom-non-mds"), models);
    EXPECT_NEAR(cfg.instance->analytic().at("unrecoverable"), 0.00451, 1e-15);
    const auto facts = cfg.instance->model_facts();
    EXPECT_EQ(std::get<std::int64_t>(fact(facts, "recoverable_sets").value), 21);
    EXPECT_FALSE(std::get<bool>(fact(facts, "mds_recoverability").value));
    // bins: (1,1), (-1,1): 3 + 3 + 1; (+-1,2): 6 + 3 + 1; (3,1): 3 + 9 + 1; 47 over 16 words.
    EXPECT_DOUBLE_EQ(std::get<double>(fact(facts, "overhead").value), 47.0 / 16);
    EXPECT_EQ(cfg.spec.quantities().size(), 1u);  // timing = false
  }
}

// Every bad input listed in docs/models/mojette.md: exit 2, and the message names the file, line
// and field.
TEST(MojetteModel, BadInputExitsTwoNamingTheField) {
  struct bad {
    std::string lines, field, says;
  };
  const std::vector<bad> cases{
      {"layout = \"custom\"\nrows = 4\nblock_bytes = 128\nprojections = [[2, 2], [1, 1]]\n",
       "projections", "gcd(p, q) = 2"},
      {"layout = \"custom\"\nrows = 4\nblock_bytes = 128\nprojections = [[2, 0], [1, 1]]\n",
       "projections", "q = 0"},
      {"layout = \"custom\"\nrows = 4\nblock_bytes = 128\nprojections = [[1, 1], [3, 1], [1, 1]]\n",
       "projections", "duplicates"},
      {"layout = \"rozofs-4-6\"\nblock_bytes = 4100\n", "block_bytes", "multiple of 8 x 4"},
      {"failure_probability = 1.5\n", "failure_probability", "<= 1"},
      {"failure_probability = -0.1\n", "failure_probability", ">= 0"},
      {"layout = \"custom\"\nrows = 4\nblock_bytes = 128\nprojections = \"[[1, 1]\"\n",
       "projections", "missing"},
      {"scenario = \"lifetime\"\n", "mission_hours", "needs mission_hours"},
      {"outage = { rate_per_hour = 0.01, mean_hours = 1 }\n", "outage.rate_per_hour",
       "scenario = lifetime only"},
      {"scenario = \"lifetime\"\nmission_hours = 100\noutage = { rate_per_hour = 0.01, "
       "mean_hours = 200 }\n",
       "outage.mean_hours", "longer than mission_hours"},
  };
  for (const auto& c : cases) {
    const temp_file cfg("[experiment]\nseed = 1\n[model]\nname = \"mojette.layout\"\n" + c.lines,
                        ".toml");
    const auto r = run_mcpilot({"run", cfg.path(), "--quiet"});
    EXPECT_EQ(r.exit_code, 2) << c.lines << r.err;
    EXPECT_NE(r.err.find(cfg.path() + ":"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.field), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
  }
}

session_settings settings(std::uint64_t seed, unsigned threads) {
  session_settings s;
  s.seed = seed;
  s.threads = threads;
  s.engine.session_precision = *preset("quick");
  return s;
}

// unrecoverable (the required quantity) is the same for any thread count; the timings are not
// estimates of a fixed value and are excluded.
TEST(MojetteModel, BitIdenticalAcrossThreadCounts) {
  const auto models = registry();
  config_overrides o;
  o.sets = {"model.failure_probability=0.3"};
  const auto cfg = load_config(config_path("custom-non-mds"), models, o);
  const auto r1 = run_session(*cfg.instance, cfg.spec, settings(7, 1));
  ASSERT_EQ(r1.stopped_because, stop_reason::converged);
  for (unsigned threads : {2u, 3u}) {
    const auto r = run_session(*cfg.instance, cfg.spec, settings(7, threads));
    EXPECT_EQ(r.replications, r1.replications);
    EXPECT_EQ(*r.quantities[0].stats.mean, *r1.quantities[0].stats.mean);
    EXPECT_EQ(r.readings->readings(0), r1.readings->readings(0));
  }
}

// With timing on, the timings differ from run to run, but they are drawn after the failures and
// are optional: the unrecoverable readings, and so the session's length, stay the same.
TEST(MojetteModel, TimingLeavesTheEstimateBitIdentical) {
  const auto models = registry();
  config_overrides o;
  o.sets = {"model.failure_probability=0.3"};
  const auto cfg = load_config(config_path("rozofs-4-6"), models, o);
  const auto r1 = run_session(*cfg.instance, cfg.spec, settings(5, 1));
  ASSERT_EQ(r1.stopped_because, stop_reason::converged);
  const auto r2 = run_session(*cfg.instance, cfg.spec, settings(5, 2));
  EXPECT_EQ(r2.replications, r1.replications);
  EXPECT_EQ(r2.readings->readings(0), r1.readings->readings(0));
  o.sets.push_back("model.timing=false");
  const auto untimed = load_config(config_path("rozofs-4-6"), models, o);
  const auto r3 = run_session(*untimed.instance, untimed.spec, settings(5, 2));
  EXPECT_EQ(r3.readings->readings(0), r1.readings->readings(0));
}

// The timed encode and decode run (and check their decode) on a RozoFS layout; verify decodes
// every replication's survivors.
TEST(MojetteModel, TimingAndVerifyRun) {
  const auto models = registry();
  config_overrides o;
  o.sets = {"model.verify=true", "model.failure_probability=0.3", "model.layout=rozofs-8-12",
            "model.block_bytes=8192"};
  const auto cfg = load_config(config_path("rozofs-4-6"), models, o);
  auto s = settings(3, 2);
  s.max_replications = 3000;
  const auto r = run_session(*cfg.instance, cfg.spec, s);
  ASSERT_FALSE(r.error.has_value()) << r.error.value_or("");
  ASSERT_EQ(r.quantities.size(), 3u);
  EXPECT_GT(*r.quantities[1].stats.mean, 0);
  EXPECT_GT(*r.quantities[2].stats.mean, 0);
}

// Without rebuilds, loss by t happens iff the survivors at t fail Katz, and each server is down by
// t independently with probability 1 - exp(-t / mean): the exact chain must give the
// independent-failure sum at that probability, for the threshold layout (birth-death chain) and
// the non-MDS one (chain on survivor sets).
TEST(MojetteLifetime, ExactChainsAgreeWithIndependentFailuresWithoutRebuilds) {
  mojette::lifetime_scenario s;
  s.lifetime = {storage::duration_law::kind::exponential, 1000};
  s.repair.type = storage::duration_law::kind::none;
  s.mission_hours = 300;
  const double f = -std::expm1(-0.3);
  const auto rozo = mojette::rozofs_layout(4);
  const auto rec46 = mojette::recoverable_sets(mojette::block_grid(4096, 4), rozo.dirs);
  s.servers = 6;
  EXPECT_NEAR(*mojette::exact_loss_in_mission(s, rec46),
              mojette::unrecoverable_probability(rec46, 6, f), 1e-12);
  const std::vector<mojette::direction> dirs{{1, 1}, {-1, 1}, {1, 2}, {-1, 2}, {3, 1}};
  const auto rec = mojette::recoverable_sets({4, 4}, dirs);
  s.servers = 5;
  EXPECT_NEAR(*mojette::exact_loss_in_mission(s, rec),
              mojette::unrecoverable_probability(rec, 5, f), 1e-12);
  s.parallel = true;
  EXPECT_NEAR(*mojette::exact_loss_in_mission(s, rec),
              mojette::unrecoverable_probability(rec, 5, f), 1e-12);
}

// With rebuilds, the simulation against the exact chains: 20,000 missions each, |error| within
// 4.5 standard errors sqrt(p (1 - p) / N) (a false alarm about once in 150,000 runs).
TEST(MojetteLifetime, SimulationMatchesExactChains) {
  const std::vector<mojette::direction> dirs{{1, 1}, {-1, 1}, {1, 2}, {-1, 2}, {3, 1}};
  const auto rec = mojette::recoverable_sets({4, 4}, dirs);
  const auto rozo = mojette::rozofs_layout(4);
  const auto rec46 = mojette::recoverable_sets(mojette::block_grid(4096, 4), rozo.dirs);
  struct scenario_case {
    const std::vector<char>* rec;
    std::size_t n;
    bool parallel;
  };
  for (const auto& c : {scenario_case{&rec, 5, true}, scenario_case{&rec46, 6, false},
                        scenario_case{&rec46, 6, true}}) {
    mojette::lifetime_scenario s;
    s.servers = c.n;
    s.lifetime = {storage::duration_law::kind::exponential, 100};
    s.repair = {storage::duration_law::kind::exponential, 20};
    s.parallel = c.parallel;
    s.mission_hours = 200;
    const double p = *mojette::exact_loss_in_mission(s, *c.rec);
    ASSERT_GT(p, 0.05);
    ASSERT_LT(p, 0.95);
    const int N = 20000;
    int lost = 0;
    for (int i = 0; i < N; ++i) {
      philox_stream rng(99, static_cast<std::uint64_t>(i));
      lost += mojette::simulate_mission(s, *c.rec, rng).lost ? 1 : 0;
    }
    const double se = std::sqrt(p * (1 - p) / N);
    EXPECT_NEAR(static_cast<double>(lost) / N, p, 4.5 * se) << c.n << " servers";
  }
}

// Unavailability under server outages, with no failure inside the mission (a Weibull location
// of 2,000 h): each server goes out at rate o while in, for an exponential time of mean u, so it
// is out at t with probability q(t) = p (1 - e^{-st}), p = o / (o + 1/u), s = o + 1/u,
// independently of the others. rozofs-4-6 needs 4 of its 6 projections, so the block is
// unavailable at t with probability P(Binomial(6, q(t)) >= 3), and the mission's unavailability is
// its mean over [0, T]: Simpson's rule on 20,000 intervals below (error under 1e-12, against a
// 95% interval of about +-0.3%). 10,000 missions, within 4.5 standard errors.
TEST(MojetteLifetime, UnavailabilityUnderOutagesAgainstItsIntegral) {
  const double o = 0.02, u = 10, T = 1000;
  const double p = o / (o + 1 / u), s_rate = o + 1 / u;
  const auto at = [&](double t) {
    const double q = p * -std::expm1(-s_rate * t);
    double sum = 0;
    for (int j = 3; j <= 6; ++j)
      sum += std::tgamma(7) / (std::tgamma(j + 1) * std::tgamma(7 - j)) * std::pow(q, j) *
             std::pow(1 - q, 6 - j);
    return sum;
  };
  const int intervals = 20'000;
  const double h = T / intervals;
  double simpson = at(0) + at(T);
  for (int i = 1; i < intervals; ++i) simpson += (i % 2 ? 4 : 2) * at(i * h);
  const double exact = simpson * h / 3 / T;

  mojette::lifetime_scenario s;
  s.servers = 6;
  s.lifetime = {storage::duration_law::kind::weibull, 0};
  s.lifetime.shape = 1;
  s.lifetime.scale = 1000;
  s.lifetime.location = 2000;
  s.repair = {storage::duration_law::kind::exponential, 24};
  s.mission_hours = T;
  s.outage.rate = o;
  s.outage.duration = {storage::duration_law::kind::exponential, u};
  const auto rozo = mojette::rozofs_layout(4);
  const auto rec46 = mojette::recoverable_sets(mojette::block_grid(4096, 4), rozo.dirs);
  const int N = 10'000;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < N; ++i) {
    philox_stream rng(101, static_cast<std::uint64_t>(i));
    const auto m = mojette::simulate_mission(s, rec46, rng);
    ASSERT_FALSE(m.lost);
    const double x = m.unavailable_hours / T;
    sum += x;
    sum2 += x * x;
  }
  const double mean = sum / N, se = std::sqrt((sum2 / N - mean * mean) / N);
  EXPECT_NEAR(mean, exact, 4.5 * se) << exact;
}

// fraction_lost is loss_in_mission per year of mission, derived and optional; exact where the
// loss is: over 10 years, a tenth (by 87,660 / 8,766) of the exact loss_in_mission.
TEST(MojetteLifetime, FractionLostIsTheLossPerYear) {
  auto c = mcpilot::test::make_configured<mojette::mojette_model>({{"layout", "rozofs-4-6"},
                                                                   {"scenario", "lifetime"},
                                                                   {"timing", false},
                                                                   {"mission_hours", 87660.0},
                                                                   {"lifetime.mean_hours", 1e5},
                                                                   {"repair.mean_hours", 24.0}});
  const auto exact = c->model.analytic();
  EXPECT_NEAR(exact.at("fraction_lost"), exact.at("loss_in_mission") / 10, 1e-15);
  const int q = c->spec.quantity_index("fraction_lost");
  ASSERT_GE(q, 0);
  EXPECT_FALSE(c->spec.quantities()[static_cast<std::size_t>(q)].required);
  // Without outages there is no unavailability, and the config reader is told why; the
  // independent scenario has no quantity over time at all.
  ASSERT_NE(c->spec.why_not_estimated("unavailability"), nullptr);
  EXPECT_NE(c->spec.why_not_estimated("unavailability")->find("no outages"), std::string::npos);
  auto independent = mcpilot::test::make_configured<mojette::mojette_model>(
      {{"layout", "rozofs-4-6"}, {"timing", false}});
  ASSERT_NE(independent->spec.why_not_estimated("fraction_lost"), nullptr);
  EXPECT_NE(independent->spec.why_not_estimated("fraction_lost")->find("scenario = \"lifetime\""),
            std::string::npos);
}

}  // namespace MCPILOT_TEST_FILE
