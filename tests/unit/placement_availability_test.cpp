// placement.design, the long-run unavailability: importance sampling on storage's explicit-state
// walk with overlapping groups (models/storage/domain_walk.hpp, groups_of) and the exact chain of
// models/storage/down_out_chain.hpp, against chains written out independently in Python
// from the rules in docs/models/placement.md (every device up, failed or out, every running rack
// outage with the devices it holds, a lost group's devices replaced at once) and solved sparse in
// float64 by scipy 1.10 (pi Q = 0; tests/known/placement_availability.py), and against storage's
// own answer for a layout both models can express. Intervals at 99.9% (storage_support.hpp says
// why).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "mcpilot/rng.hpp"
#include "placement_support.hpp"
#include "storage/domain_walk.hpp"
#include "storage/nines.hpp"

namespace MCPILOT_TEST_FILE {

using placement_test::configured;
using placement_test::exact;
using placement_test::make;
using placement_test::run;
using storage_test::covers;
using storage_test::quantity;

void require_availability(configured& c) {
  for (auto& q : c.spec.quantities())
    q.required = q.name == "unavailability" || q.name == "unavailable_events_per_year";
}

// Fano, MTTF 1,000 h, repairs 10 h, server outages at 1e-2 per hour of mean 1 h. scipy:
// t = 1: 576 states, u = 0.005454081358107559, 66.09107567625398 entries per year;
// t = 2: 1,752 states, u = 4.650844461809799e-05, 0.7496198613591236 per year.
std::unique_ptr<configured> fano(int t, const char* method) {
  return make({{"design", "fano"},
               {"tolerance", t},
               {"scenario", "lifetime"},
               {"mission_hours", 8766.0},
               {"lifetime.mean_hours", 1000.0},
               {"repair.mean_hours", 10.0},
               {"outage.rate_per_hour", 1e-2},
               {"outage.mean_hours", 1.0},
               {"method", method}});
}

TEST(PlacementAvailability, ExactChainMatchesScipy) {
  auto c = fano(1, "importance");
  EXPECT_NEAR(exact(*c, "unavailability") / 0.005454081358107559, 1.0, 1e-10);
  EXPECT_NEAR(exact(*c, "unavailable_events_per_year") / 66.09107567625398, 1.0, 1e-10);
  // Beyond 600 states (Fano with t = 2 has 1,752) no exact value is claimed.
  EXPECT_FALSE(fano(2, "importance")->model.analytic().contains("unavailability"));
}

// Every 3-subset of 4 devices (4 groups, each pair of devices in 2), t = 1, in 2 racks (d mod 2:
// each rack failure loses the groups holding both its devices), MTTF 1,000 h, repairs 10 h,
// server outages at 1/100 per hour of 1 h, rack failures at 1/10,000 per rack-hour. Solved in
// exact rational arithmetic (Python Fractions, Gauss-Jordan on the 48 states:
// tests/known/placement_availability.py complete):
//   u = 14422299143341637522070375 / 8715909094501381655732301316,
//   entries per hour = 1407002046771503946794892339 / 610113636615096715901261092120.
TEST(PlacementAvailability, ExactFractionsOnOverlappingGroupsWithRacks) {
  const double u = 14422299143341637522070375.0 / 8715909094501381655732301316.0;
  const double per_hour = 1407002046771503946794892339.0 / 610113636615096715901261092120.0;
  auto c = make({{"design", "complete"},
                 {"devices", 4},
                 {"group_size", 3},
                 {"tolerance", 1},
                 {"scenario", "lifetime"},
                 {"mission_hours", 8766.0},
                 {"lifetime.mean_hours", 1000.0},
                 {"repair.mean_hours", 10.0},
                 {"outage.rate_per_hour", 1e-2},
                 {"outage.mean_hours", 1.0},
                 {"domains.count", 2},
                 {"domains.failure_rate_per_hour", 1e-4},
                 {"method", "importance"}});
  EXPECT_NEAR(exact(*c, "unavailability") / u, 1.0, 1e-12);
  EXPECT_NEAR(
      exact(*c, "unavailable_events_per_year") / (per_hour * mcpilot::storage::hours_per_year), 1.0,
      1e-12);
  require_availability(*c);
  const auto r = run(*c, 36, 0.1);
  EXPECT_TRUE(covers(r, "unavailability", u));
  EXPECT_TRUE(
      covers(r, "unavailable_events_per_year", per_hour * mcpilot::storage::hours_per_year));
}

TEST(PlacementAvailability, ImportanceCoversTheChains) {
  struct known {
    int t;
    double u, per_year;
    double ci_perc;
    std::uint64_t seed;
  };
  for (const auto& k : {known{1, 0.005454081358107559, 66.09107567625398, 0.1, 31},
                        known{2, 4.650844461809799e-05, 0.7496198613591236, 0.3, 32}}) {
    auto c = fano(k.t, "importance");
    require_availability(*c);
    const auto r = run(*c, k.seed, k.ci_perc);
    EXPECT_TRUE(covers(r, "unavailability", k.u)) << "t = " << k.t;
    EXPECT_TRUE(covers(r, "unavailable_events_per_year", k.per_year)) << "t = " << k.t;
    EXPECT_TRUE(quantity(r, "unavailability").stats.converged) << "t = " << k.t;
  }
}

// AG(2,3), t = 1, device (x, y) = 3x + y in rack y, so that each rack holds a whole line: a rack
// outage (1e-4 per rack-hour, mean 1 h) makes its line unavailable in one jump, and a rack
// failure (1e-5) loses it. MTTF 10,000 h, repairs 24 h. scipy, rack outages cut at one running
// per rack (a second starts during the first with probability 1e-4, so the cut moves the values
// by about that, relative, far inside the interval): 2,816 states, u = 2.999365544058885e-4,
// 2.629011226853834 entries per year. Rack outages put it beyond down_out_chain's reach.
TEST(PlacementAvailability, RackOutagesOfWholeGroups) {
  auto c = make({{"design", "ag2"},
                 {"order", 3},
                 {"tolerance", 1},
                 {"scenario", "lifetime"},
                 {"mission_hours", 8766.0},
                 {"lifetime.mean_hours", 1e4},
                 {"repair.mean_hours", 24.0},
                 {"domains.count", 3},
                 {"domains.failure_rate_per_hour", 1e-5},
                 {"domains.outage_rate_per_hour", 1e-4},
                 {"domains.outage_mean_hours", 1.0},
                 {"method", "importance"}});
  EXPECT_FALSE(c->model.analytic().contains("unavailability"));
  require_availability(*c);
  const auto r = run(*c, 33, 0.1);
  EXPECT_TRUE(covers(r, "unavailability", 2.999365544058885e-4));
  EXPECT_TRUE(covers(r, "unavailable_events_per_year", 2.629011226853834));
}

// Two mirrors striped over two racks (clustered: groups {0, 1} and {2, 3}, rack d mod 2), with
// server and rack outages and rack failures: the system storage_availability_walk_test.cpp
// checks for storage.group against its own independent chain (u = 2.4016048098e-4, 1.8726424538e-4
// entries per hour). The same answer through placement's path.
TEST(PlacementAvailability, TwoMirrorsAsStorageHasThem) {
  auto c = make({{"design", "clustered"},
                 {"devices", 4},
                 {"group_size", 2},
                 {"groups", 2},
                 {"tolerance", 1},
                 {"scenario", "lifetime"},
                 {"mission_hours", 8766.0},
                 {"lifetime.mean_hours", 1000.0},
                 {"repair.mean_hours", 10.0},
                 {"outage.rate_per_hour", 1e-3},
                 {"outage.mean_hours", 1.0},
                 {"domains.count", 2},
                 {"domains.outage_rate_per_hour", 2e-3},
                 {"domains.outage_mean_hours", 2.0},
                 {"domains.failure_rate_per_hour", 1e-4},
                 {"method", "importance"}});
  require_availability(*c);
  const auto r = run(*c, 34, 0.1);
  EXPECT_TRUE(covers(r, "unavailability", 2.4016048098e-4));
  EXPECT_TRUE(
      covers(r, "unavailable_events_per_year", 1.8726424538e-4 * mcpilot::storage::hours_per_year));
}

// The walk with groups given device by device draws exactly what it draws with storage's
// consecutive groups, when the two describe the same system.
TEST(PlacementAvailability, ExplicitGroupsWalkAsConsecutiveOnes) {
  mcpilot::storage::domain_walk_rates s;
  s.groups = 3;
  s.disks = 3;
  s.domains = 3;
  s.tolerance = 1;
  s.failure_rate = 1e-3;
  s.repair_rate = 0.1;
  s.outage_rate = 1e-2;
  s.outage_end = 1;
  s.domain_outage_rate = 1e-3;
  s.domain_outage_end = 0.5;
  s.domain_failure_rate = 1e-4;
  const std::vector<std::vector<int>> of = {{0}, {0}, {0}, {1}, {1}, {1}, {2}, {2}, {2}};
  auto explicit_groups = s;
  explicit_groups.groups_of = &of;
  for (std::uint64_t i = 0; i < 2000; ++i) {
    mcpilot::philox_stream a(7, i), b(7, i);
    const auto wa = mcpilot::storage::domain_availability_weights(s, a);
    const auto wb = mcpilot::storage::domain_availability_weights(explicit_groups, b);
    ASSERT_EQ(wa.unavailable_hours, wb.unavailable_hours) << i;
    ASSERT_EQ(wa.entries, wb.entries) << i;
    ASSERT_EQ(mcpilot::storage::domain_availability_cycle_hours(s, a),
              mcpilot::storage::domain_availability_cycle_hours(explicit_groups, b))
        << i;
  }
}

TEST(PlacementAvailability, SameReadingsForAnyThreadCount) {
  auto c = fano(1, "importance");
  require_availability(*c);
  EXPECT_TRUE(storage_test::same_readings_on_1_and_2_threads(*c, 35, 0.3));
}

// Naive simulation estimates the mission's unavailability (from all new, a lost group no longer
// counted), another quantity: the exact long-run value is shown beside it as a fact.
TEST(PlacementAvailability, NaiveShowsTheLongRunValueAsAFact) {
  auto c = fano(1, "naive");
  EXPECT_FALSE(c->model.analytic().contains("unavailability"));
  bool shown = false;
  for (const auto& f : c->model.model_facts())
    if (f.name == "steady_unavailability") {
      shown = true;
      EXPECT_NEAR(std::get<double>(f.value) / 0.005454081358107559, 1.0, 1e-10);
    }
  EXPECT_TRUE(shown);
}

}  // namespace MCPILOT_TEST_FILE
