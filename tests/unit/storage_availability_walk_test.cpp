// storage.group, the long-run unavailability by importance sampling on the explicit state
// (models/storage/domain_walk.hpp), where the availability chain does not reach: domains of
// several devices, groups sharing domains, domain failures beside outages. Checked against the
// availability chain where both apply, and against the whole system's chain written out
// independently from the rules in docs/models/storage.md (every running outage with the devices
// it holds, each group's rebuild queue), solved sparse in float64 with scipy 1.10: domain outages
// running together cut at 5, which moves the values by under 1e-9 relative from a cut at 4.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "mcpilot/rng.hpp"
#include "storage/availability_chain.hpp"
#include "storage/domain_walk.hpp"
#include "storage/nines.hpp"
#include "storage_support.hpp"

namespace MCPILOT_TEST_FILE {

using mcpilot::storage::domain_walk_rates;
using storage_test::covers;
using storage_test::make;
using storage_test::quantity;
using storage_test::run;

// The ratio estimator of E[unavailable hours per cycle] / E[cycle hours] over n cycles of each
// kind, and its delta-method standard error.
struct ratio_estimate {
  double value, se;
};
ratio_estimate walk_unavailability(const domain_walk_rates& s, int n, std::uint64_t seed) {
  double sh = 0, sh2 = 0, su = 0, su2 = 0;
  for (int i = 0; i < n; ++i) {
    mcpilot::philox_stream rng(seed, static_cast<std::uint64_t>(i));
    const double h = mcpilot::storage::domain_availability_cycle_hours(s, rng);
    const double u = mcpilot::storage::domain_availability_weights(s, rng).unavailable_hours;
    sh += h;
    sh2 += h * h;
    su += u;
    su2 += u * u;
  }
  const double mh = sh / n, mu = su / n;
  const double vh = (sh2 / n - mh * mh) / n, vu = (su2 / n - mu * mu) / n;
  const double r = mu / mh;
  return {r, r * std::sqrt(vu / (mu * mu) + vh / (mh * mh))};
}

// Where the availability chain applies (one device per domain, or no domains), the walk's
// estimate is within 4 standard errors of the chain's exact value: three-way replication across
// three domains with server and domain outages (u ~ 4e-7), and 6 disks tolerating 2 with serial
// rebuilds and server outages, no domains.
// The same system as the availability chain sees it (one group, one device per domain).
mcpilot::storage::availability_rates chain_of(const domain_walk_rates& s) {
  mcpilot::storage::availability_rates r;
  r.disks = s.disks;
  r.tolerance = s.tolerance;
  r.failure_rate = s.failure_rate;
  r.repair_rate = s.repair_rate;
  r.parallel = s.parallel;
  r.rebuild_error = s.rebuild_error;
  r.outage_rate = s.outage_rate;
  r.outage_end = s.outage_end;
  r.domain_outage_rate = s.domain_outage_rate;
  r.domain_outage_end = s.domain_outage_end;
  return r;
}

TEST(StorageAvailabilityWalk, MatchesTheChainWhereBothApply) {
  domain_walk_rates triple;
  triple.disks = 3;
  triple.domains = 3;
  triple.tolerance = 2;
  triple.failure_rate = 1e-3;
  triple.repair_rate = 0.1;
  triple.outage_rate = 1e-2;
  triple.outage_end = 1;
  triple.domain_outage_rate = 2e-3;
  triple.domain_outage_end = 0.5;
  domain_walk_rates six;
  six.disks = 6;
  six.tolerance = 2;
  six.failure_rate = 1e-3;
  six.repair_rate = 0.05;
  six.parallel = false;
  six.rebuild_error = 0.01;
  six.outage_rate = 1e-2;
  six.outage_end = 2;
  std::uint64_t seed = 11;
  // The rare triple (u ~ 4e-7) costs no more cycles than the common six-disk case (u ~ 2e-4).
  for (const auto& [s, most_se] : {std::pair{triple, 0.05}, std::pair{six, 0.1}}) {
    const double exact = steady_unavailability(mcpilot::storage::availability_chain(chain_of(s)));
    const auto e = walk_unavailability(s, 40'000, seed++);
    EXPECT_LT(std::abs(e.value - exact), 4 * e.se) << e.value << " vs " << exact;
    EXPECT_LT(e.se, most_se * exact);
  }
}

// The explicit chains (see the top of the file), with lifetimes of mean 1,000 h, rebuilds of
// 10 h, server outages at 1e-3 per device-hour of 1 h, domain outages at 2e-3 per domain-hour of
// 2 h, domain failures at 1e-4 per domain-hour:
// - a mirror with both disks in one domain: u = 3.9958808849535e-3, entries 2.0152304483847e-3/h
//   (also in mpmath at 50 digits: 0.0039958808849535483);
// - two mirrors striped over two domains (domain k holds disk k of each), so that domain events
//   hit both groups: u = 2.4016048098e-4, entries 1.8726424538e-4/h;
// - 4 disks tolerating 2 in two domains of 2, rebuilt one at a time in failure order, rebuild
//   errors 1/100: u = 2.1141229784e-4, entries 1.4889037719e-4/h.
TEST(StorageAvailabilityWalk, CoversTheExplicitChains) {
  struct known {
    int disks, tolerance, groups, domains;
    bool parallel;
    double h, u, entries_per_hour;
    std::uint64_t seed;
  };
  for (const auto& k : {known{2, 1, 1, 1, true, 0, 3.9958808849535e-3, 2.0152304483847e-3, 91},
                        known{2, 1, 2, 2, true, 0, 2.4016048098e-4, 1.8726424538e-4, 92},
                        known{4, 2, 1, 2, false, 0.01, 2.1141229784e-4, 1.4889037719e-4, 93}}) {
    auto c = make({{"disks", k.disks},
                   {"tolerance", k.tolerance},
                   {"groups", k.groups},
                   {"lifetime.mean_hours", 1000.0},
                   {"repair.mean_hours", 10.0},
                   {"repair.parallel", k.parallel},
                   {"rebuild_error_probability", k.h},
                   {"outage.rate_per_hour", 1e-3},
                   {"outage.mean_hours", 1.0},
                   {"domains.count", k.domains},
                   {"domains.outage_rate_per_hour", 2e-3},
                   {"domains.outage_mean_hours", 2.0},
                   {"domains.failure_rate_per_hour", 1e-4},
                   {"method", "importance"}});
    EXPECT_EQ(c->model.analytic().count("unavailability"), 0u);  // no exact value claimed
    for (auto& q : c->spec.quantities())
      q.required = q.name == "unavailability" || q.name == "unavailable_events_per_year";
    const auto r = run(*c, k.seed, 0.1);
    EXPECT_TRUE(covers(r, "unavailability", k.u)) << k.disks << " x " << k.groups;
    EXPECT_TRUE(covers(r, "unavailable_events_per_year",
                       k.entries_per_hour * mcpilot::storage::hours_per_year))
        << k.disks << " x " << k.groups;
    EXPECT_TRUE(quantity(r, "unavailability").stats.converged);
  }
}

// Two mirrors striped over two racks (rack k holds disk k of each), server outages at 1/1,000
// per hour of 1 h, rack failures at 1/10,000 per rack-hour, MTTF 1,000 h, repairs 10 h, and no
// rack outages: the model prints the exact value from the chain of failed and out devices
// (down_out_chain.hpp, 64 states). Solved in exact rational arithmetic (Python Fractions,
// tests/known/placement_availability.py's solver on these groups):
//   u = 1825862445818571358804450489231388469496552179695040 /
//       41034955008302774513175165280817180628634223976124282807,
//   entries per hour = 2858543563147851847224303377736965162970415175124497025924677 /
//       56332293815937949218392708795522455760821519063735701946055916000.
TEST(StorageAvailabilityWalk, ExactOnTheChainOfFailedAndOutDevices) {
  const double u = 4.4495295424331204e-05, per_hour = 5.074431324397963e-05;
  auto c = make({{"disks", 2},
                 {"tolerance", 1},
                 {"groups", 2},
                 {"lifetime.mean_hours", 1000.0},
                 {"repair.mean_hours", 10.0},
                 {"outage.rate_per_hour", 1e-3},
                 {"outage.mean_hours", 1.0},
                 {"domains.count", 2},
                 {"domains.failure_rate_per_hour", 1e-4},
                 {"method", "importance"}});
  const auto a = c->model.analytic();
  ASSERT_TRUE(a.contains("unavailability"));
  EXPECT_NEAR(a.at("unavailability") / u, 1.0, 1e-12);
  EXPECT_NEAR(a.at("unavailable_events_per_year") / (per_hour * mcpilot::storage::hours_per_year),
              1.0, 1e-12);
  for (auto& q : c->spec.quantities()) q.required = q.name == "unavailability";
  const auto r = run(*c, 95, 0.1);
  EXPECT_TRUE(covers(r, "unavailability", u));
  EXPECT_TRUE(
      covers(r, "unavailable_events_per_year", per_hour * mcpilot::storage::hours_per_year));
}

TEST(StorageAvailabilityWalk, SameReadingsForAnyThreadCount) {
  auto c = make({{"disks", 4},
                 {"tolerance", 2},
                 {"groups", 2},
                 {"lifetime.mean_hours", 1000.0},
                 {"repair.mean_hours", 10.0},
                 {"outage.rate_per_hour", 1e-3},
                 {"outage.mean_hours", 1.0},
                 {"domains.count", 4},
                 {"domains.outage_rate_per_hour", 2e-3},
                 {"domains.outage_mean_hours", 2.0},
                 {"method", "importance"}});
  for (auto& q : c->spec.quantities()) q.required = q.name == "unavailability";
  EXPECT_TRUE(storage_test::same_readings_on_1_and_2_threads(*c, 94, 0.2));
}

// Outages whose durations are not memoryless: no walk, and the reason names the field.
TEST(StorageAvailabilityWalk, RefusedForOutagesThatAreNotExponential) {
  auto c = make({{"disks", 4},
                 {"tolerance", 1},
                 {"outage.rate_per_hour", 1e-3},
                 {"outage.mean_hours", 0.25},
                 {"domains.count", 2},
                 {"domains.outage_rate_per_hour", 1e-4},
                 {"domains.outage_mean_hours", 1.0},
                 {"domains.outage_distribution", "deterministic"},
                 {"method", "importance"}});
  EXPECT_LT(c->spec.quantity_index("unavailability"), 0);
  const std::string* why = c->spec.why_not_estimated("unavailability");
  ASSERT_NE(why, nullptr);
  EXPECT_NE(why->find("domains.outage_distribution"), std::string::npos) << *why;
}

}  // namespace MCPILOT_TEST_FILE
