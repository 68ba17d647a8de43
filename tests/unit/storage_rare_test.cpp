// Importance sampling beyond Markov (failure_biasing.hpp): storage.group's loss_in_mission for
// Weibull lifetimes, general rebuild laws, latent errors and scrubbing, against exact answers and
// against naive simulation. Seeded, at loose precision so that the default run stays fast; the
// full targets (+-10% at 95%, coverage over 200 seeds, 20-seed cross-checks) are in
// tests/validation/storage_rare.cpp. Intervals at 99.9% (storage_support.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <variant>

#include "../support/weibull_binomial_tail.hpp"
#include "storage/aged_group.hpp"
#include "storage/failure_biasing.hpp"
#include "storage/group_simulation.hpp"
#include "storage_support.hpp"

namespace MCPILOT_TEST_FILE {

using namespace storage_test;
using mcpilot::test::weibull_binomial_tail;
using estimator = mcpilot::storage::storage_model::estimator;

// The issue's values (Weibull shape 1.12, scale 461,386 h, 1 year = 8,760 h), which the formula
// reproduces to 1e-9 (also checked in Python with exact binomial coefficients).
TEST(StorageRare, BinomialTailsOfTheIssue) {
  EXPECT_NEAR(weibull_binomial_tail(10, 2, 8760, 1.12, 461386), 1.820726786e-4,
              1e-9 * 1.820726786e-4);
  EXPECT_NEAR(weibull_binomial_tail(14, 4, 8760, 1.12, 461386), 4.069839753e-7,
              1e-9 * 4.069839753e-7);
  EXPECT_NEAR(weibull_binomial_tail(6, 2, 8760, 1.12, 461386), 3.143421263e-5,
              1e-9 * 3.143421263e-5);
}

// Without repair, importance sampling estimates the binomial tails and its intervals cover them.
TEST(StorageRare, WeibullWithoutRepairMatchesBinomialTails) {
  struct item {
    int disks, tolerance;
    double exact;
  };
  for (const item& k :
       {item{10, 2, 1.820726786e-4}, item{14, 4, 4.069839753e-7}, item{6, 2, 3.143421263e-5}}) {
    auto c = make({{"disks", k.disks},
                   {"tolerance", k.tolerance},
                   {"lifetime.distribution", "weibull"},
                   {"lifetime.shape", 1.12},
                   {"lifetime.scale_hours", 461386.0},
                   {"repair.distribution", "none"},
                   {"mission_hours", 8760.0},
                   {"method", "importance"}});
    ASSERT_EQ(c->model.method(), estimator::failure_biasing);
    const auto r = run(*c, 1, 0.2);
    EXPECT_EQ(r.stopped_because, mcpilot::stop_reason::converged) << k.disks;
    EXPECT_TRUE(covers(r, "loss_in_mission", k.exact)) << k.disks << "/" << k.tolerance;
  }
}

// Weibull shape 1 is the exponential law: with exponential rebuilds the Markov chain's value
// holds, RAID-6 of 10 disks, MTTF 1e6 h, MTTR 24 h, P(loss in 10 y) = 3.629388e-8 (the exact
// solver's value, storage_ctmc_test.cpp), estimated here through the general estimator.
TEST(StorageRare, ShapeOneAgreesWithTheMarkovChain) {
  const double exact = 3.629388e-8;
  EXPECT_NEAR(make({{"mission_hours", 87600.0}})->model.analytic().at("loss_in_mission"), exact,
              1e-6 * exact);
  auto c = make({{"lifetime.distribution", "weibull"},
                 {"lifetime.shape", 1.0},
                 {"lifetime.scale_hours", 1e6},
                 {"mission_hours", 87600.0},
                 {"method", "importance"}});
  ASSERT_EQ(c->model.method(), estimator::failure_biasing);
  EXPECT_TRUE(covers(run(*c, 1, 0.3), "loss_in_mission", exact));
}

// A mirror (2 disks, tolerance 1) of exponential disks (rate l) without repair, with latent
// defects (rate th per disk, cleared by scrubs every I hours) and rebuild-error probability h.
// The first failure, at t with density 2 l e^{-2lt}, loses data unless the other disk is clean
// (probability c(t) = e^{-th (t mod I)}) and the rebuild reads cleanly (1 - h); otherwise loss
// needs the second failure by T. So
//   P(loss by T) = 1 - e^{-2lT} - (1 - h) int_0^T 2l e^{-2lt} c(t) e^{-l(T-t)} dt,
// and on [jI, (j+1)I) the integrand is 2l e^{-lT} e^{th jI} e^{-(l+th)t}: a sum of closed forms.
double latent_mirror(double l, double th, double scrub, double h, double T) {
  double integral = 0;
  for (double a = 0; a < T; a += scrub) {
    const double b = std::min(a + scrub, T);
    integral += 2 * l * std::exp(-l * T + th * a) *
                (std::exp(-(l + th) * a) - std::exp(-(l + th) * b)) / (l + th);
  }
  return -std::expm1(-2 * l * T) - (1 - h) * integral;
}

// Naive simulation of `n` missions of one group, each to the mission's end only (the model's naive
// method runs every replication on to data loss, for its MTTDL: far slower here): the fraction
// lost and its standard error.
struct fraction {
  double mean, se;
};
fraction naive_missions(const mcpilot::storage::storage_model& m, double mission, int n,
                        std::uint64_t seed) {
  int lost = 0;
  for (int i = 0; i < n; ++i) {
    mcpilot::philox_stream rng(seed, static_cast<std::uint64_t>(i));
    lost += mcpilot::storage::simulate_group(m.group(), rng, mission) <= mission;
  }
  const double p = static_cast<double>(lost) / n;
  return {p, std::sqrt(p * (1 - p) / n)};
}

TEST(StorageRare, LatentErrorsMatchTheirClosedForm) {
  // theta -> 0 gives (1 - e^{-lT})^2, both disks failed.
  EXPECT_NEAR(latent_mirror(1e-4, 1e-300, 500, 0, 8760), std::pow(-std::expm1(-0.876), 2), 1e-12);
  const double z = 3.2905;  // R: qnorm(0.9995)
  for (const bool scrub : {true, false}) {
    const double exact = latent_mirror(1e-6, 1e-4, scrub ? 500.0 : 1e9, 0.01, 8760);
    auto c = scrub ? make({{"disks", 2},
                           {"tolerance", 1},
                           {"repair.distribution", "none"},
                           {"rebuild_error_probability", 0.01},
                           {"latent.rate_per_hour", 1e-4},
                           {"scrub.interval_hours", 500.0},
                           {"mission_hours", 8760.0},
                           {"method", "importance"}})
                   : make({{"disks", 2},
                           {"tolerance", 1},
                           {"repair.distribution", "none"},
                           {"rebuild_error_probability", 0.01},
                           {"latent.rate_per_hour", 1e-4},
                           {"mission_hours", 8760.0},
                           {"method", "importance"}});
    EXPECT_TRUE(covers(run(*c, 1, 0.05), "loss_in_mission", exact)) << "scrub " << scrub;
    // The naive simulation's rules give the same value: ~200 losses in 3e5 missions.
    const auto f = naive_missions(c->model, 8760, 300'000, 1);
    EXPECT_LE(std::abs(f.mean - exact), z * f.se) << f.mean << " vs " << exact;
  }
}

// Several groups: 1 - prod(1 - Y_g) is unbiased for 1 - (1 - p)^G.
TEST(StorageRare, SeveralGroups) {
  const double p = weibull_binomial_tail(6, 2, 8760, 1.12, 461386);
  auto c = make({{"disks", 6},
                 {"tolerance", 2},
                 {"groups", 20},
                 {"lifetime.distribution", "weibull"},
                 {"lifetime.shape", 1.12},
                 {"lifetime.scale_hours", 461386.0},
                 {"repair.distribution", "none"},
                 {"mission_hours", 8760.0},
                 {"method", "importance"}});
  EXPECT_TRUE(covers(run(*c, 1, 0.2), "loss_in_mission", -std::expm1(20 * std::log1p(-p))));
}

// With repairs and general laws there is no closed form: importance sampling and naive
// simulation must agree. RAID-5 of 4 Weibull(1.12, 461,386 h) disks, lognormal rebuilds (mean
// 24 h, sigma 0.5), latent defects 1e-5 per disk-hour, scrubs every 2 weeks: P(loss in 10 y) is
// about 3e-3. The test: |difference| <= z sqrt(se1^2 + se2^2) with z = 3.2905 (R:
// qnorm(0.9995)), a 99.9% test of equal means.
TEST(StorageRare, AgreesWithNaiveWithRepairsAndLatentErrors) {
  const double z = 3.2905;
  auto c = make({{"disks", 4},
                 {"tolerance", 1},
                 {"lifetime.distribution", "weibull"},
                 {"lifetime.shape", 1.12},
                 {"lifetime.scale_hours", 461386.0},
                 {"repair.distribution", "lognormal"},
                 {"repair.mean_hours", 24.0},
                 {"repair.shape", 0.5},
                 {"latent.rate_per_hour", 1e-5},
                 {"scrub.interval_hours", 336.0},
                 {"mission_hours", 87600.0},
                 {"method", "importance"}});
  const auto r = run(*c, 1, 0.05);
  EXPECT_EQ(r.stopped_because, mcpilot::stop_reason::converged);
  const auto& a = quantity(r, "loss_in_mission").stats;
  const double se = (*a.ci_high - *a.ci_low) / (2 * z);
  const auto f = naive_missions(c->model, 87600, 100'000, 1);  // ~300 losses
  EXPECT_LE(std::abs(*a.mean - f.mean), z * std::hypot(se, f.se)) << *a.mean << " vs " << f.mean;
}

// Results depend on the config and the seed only.
TEST(StorageRare, SameReadingsForAnyThreadCount) {
  auto c = make({{"lifetime.distribution", "weibull"},
                 {"lifetime.shape", 1.12},
                 {"lifetime.scale_hours", 461386.0},
                 {"repair.distribution", "lognormal"},
                 {"latent.rate_per_hour", 1e-4},
                 {"scrub.interval_hours", 336.0},
                 {"mission_hours", 87600.0},
                 {"method", "importance"}});
  const auto one = run(*c, 3, 0.3, 1), two = run(*c, 3, 0.3, 2);
  EXPECT_EQ(one.replications, two.replications);
  EXPECT_EQ(*quantity(one, "loss_in_mission").stats.mean,
            *quantity(two, "loss_in_mission").stats.mean);
}

std::string fact(const mcpilot::storage::storage_model& m, const std::string& name) {
  for (const auto& f : m.model_facts())
    if (f.name == name) return std::get<std::string>(f.value);
  return "";
}

// method = auto: importance when the approximate chain says loss is rare, naive otherwise; the
// choice and its reason are model facts (table and JSON).
TEST(StorageRare, AutoChoosesAndSaysWhy) {
  const auto weibull = [](int groups, const char* repair, double latent) {
    return make({{"groups", groups},
                 {"lifetime.distribution", "weibull"},
                 {"lifetime.shape", 1.12},
                 {"lifetime.scale_hours", 461386.0},
                 {"repair.distribution", repair},
                 {"latent.rate_per_hour", latent},
                 {"scrub.interval_hours", 336.0},
                 {"mission_hours", 87600.0},
                 {"method", "auto"}});
  };
  const auto target = weibull(1, "lognormal", 1.0 / 9259);
  EXPECT_EQ(target->model.method(), estimator::failure_biasing);
  EXPECT_NE(fact(target->model, "method_reason").find("auto chose importance"), std::string::npos)
      << fact(target->model, "method_reason");
  EXPECT_EQ(fact(target->model, "method"), "importance (failure biasing)");
  // 1,000 RAID-6 groups with defects: loss within 10 years is likely, naive is the right tool.
  const auto fleet = weibull(1000, "lognormal", 1e-3);
  EXPECT_EQ(fleet->model.method(), estimator::naive);
  EXPECT_NE(fact(fleet->model, "method_reason").find("auto chose naive"), std::string::npos);
  // Exponential laws: the Markov chain's estimators.
  EXPECT_EQ(make({{"mission_hours", 87600.0}, {"method", "auto"}})->model.method(),
            estimator::markov_chain);
  EXPECT_EQ(make({{"method", "auto"}})->model.method(), estimator::markov_chain);  // MTTDL only
  // Weibull without a mission: only mttdl_hours, which importance sampling cannot give here.
  const auto no_mission = make({{"lifetime.distribution", "weibull"},
                                {"lifetime.shape", 1.12},
                                {"lifetime.scale_hours", 461386.0},
                                {"method", "auto"}});
  EXPECT_EQ(no_mission->model.method(), estimator::naive);
  EXPECT_NE(fact(no_mission->model, "method_reason").find("without mission_hours"),
            std::string::npos);
}

// The hazard view of a Weibull law: increments against Lambda(u) = ((u - location)/scale)^shape,
// including a small step at a large age; the group's inverse returns the step with that hazard.
TEST(StorageRare, HazardIncrementsAndTheirInverse) {
  mcpilot::storage::duration_law w;
  w.type = mcpilot::storage::duration_law::kind::weibull;
  w.shape = 1.12;
  w.scale = 461386;
  w.location = 100;
  const auto lambda = [&](double u) { return u <= 100 ? 0 : std::pow((u - 100) / 461386, 1.12); };
  EXPECT_EQ(w.hazard_increment(10, 50), 0);
  EXPECT_NEAR(w.hazard_increment(50, 5000), lambda(5050), 1e-15);
  EXPECT_NEAR(w.hazard_increment(5000, 30000), lambda(35000) - lambda(5000), 1e-14);
  // d/dx at 5000: 1.12/461386 (4900/461386)^0.12, so a step of 1e-6 h adds that x 1e-6 (to
  // relative 1e-9, the curvature's share).
  const double slope = 1.12 / 461386 * std::pow(4900.0 / 461386, 0.12);
  EXPECT_NEAR(w.hazard_increment(5000, 1e-6), slope * 1e-6, 1e-9 * slope * 1e-6);
  EXPECT_NEAR(w.hazard_rate(5000), slope, 1e-15);

  mcpilot::storage::group_config g;
  g.disks = 5;
  g.tolerance = 2;
  g.lifetime = w;
  g.repair.type = mcpilot::storage::duration_law::kind::none;
  mcpilot::storage::aged_group a(g);
  a.advance_to(20000);
  for (const double target : {1e-9, 1e-4, 0.3}) {
    const double x = a.time_to_hazard(target, 1e7);
    EXPECT_NEAR(a.hazard_over(x), target, 1e-12 * target) << target;
  }
}

}  // namespace MCPILOT_TEST_FILE
