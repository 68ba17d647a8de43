// placement.design, method = importance: the walk of failed devices under balanced failure
// biasing (models/placement/lifetime_walk.hpp) against answers found without it: MTTDL and
// P(loss by T) in closed form for tolerance 1 on a design where every pair of devices shares a
// group (derived below by hand, on 133 devices, beyond the enumerated chain's 64), and the
// enumerated chain of exact_lifetime (another code path: breadth-first down-sets, a dense
// solve) for tolerance 2 under rack failures. Intervals at 99.9% (storage_support.hpp says why).
#include <gtest/gtest.h>

#include <cmath>

#include "mcpilot/session.hpp"
#include "placement_support.hpp"
#include "storage_support.hpp"

namespace MCPILOT_TEST_FILE {

using placement_test::exact;
using placement_test::make;
using placement_test::rejected_field;
using placement_test::run;

// PG(2,11): v = 133 devices, groups of k = 12, every pair of devices in exactly one group, t = 1,
// in D = 7 racks of 19 (device d in rack d mod 7). Any two devices down lose data, and so does any
// rack failure (a rack holds 19 devices, and any two of them share a group). The chain has two
// transient states. From all up: v a to one down, D r to loss. From one down: m back, (v - 1) a
// or D r (every rack still holds a working device) to loss. Mean times: m0 = 1/(va + Dr) +
// va/(va + Dr) m1, m1 = 1/(m + (v-1)a + Dr) + m/(m + (v-1)a + Dr) m0, so
//   MTTDL = (m + (2v - 1) a + D r) / ((v a + D r)(m + (v - 1) a + D r) - v a m).
// Survival S(t) = c1 e^{l1 t} + c2 e^{l2 t}, l1, l2 the eigenvalues of the 2x2 generator
// [[-(va + Dr), va], [m, -(m + (v-1)a + Dr)]], S(0) = 1, S'(0) = -D r (the loss rate from all up).
// For a = 1e-6, m = 0.1, r = 1e-7, T = 8766: MTTDL 1,142,733.37 h and P(loss by T) 0.0076400134,
// as scipy 1.10 finds with expm of the 3-state generator and a linear solve.
struct two_state {
  double mttdl, loss_by;
};
two_state pg2_11_racks(double a, double m, double r, double T) {
  const double v = 133, D = 7;
  const double q00 = -(v * a + D * r), q01 = v * a, q10 = m, q11 = -(m + (v - 1) * a + D * r);
  const double mttdl = (m + (2 * v - 1) * a + D * r) / (q00 * q11 - q01 * q10);
  const double tr = q00 + q11, det = q00 * q11 - q01 * q10;
  const double disc = std::sqrt(tr * tr - 4 * det);
  const double l1 = (tr + disc) / 2, l2 = (tr - disc) / 2;
  const double c1 = (-D * r - l2) / (l1 - l2), c2 = (l1 + D * r) / (l1 - l2);
  return {mttdl, 1 - (c1 * std::exp(l1 * T) + c2 * std::exp(l2 * T))};
}

std::unique_ptr<placement_test::configured> pg2_11(const char* method) {
  return make({{"design", "pg2"},
               {"order", 11},
               {"tolerance", 1},
               {"scenario", "lifetime"},
               {"mission_hours", 8766.0},
               {"lifetime.mean_hours", 1e6},
               {"repair.mean_hours", 10.0},
               {"domains.count", 7},
               {"domains.failure_rate_per_hour", 1e-7},
               {"method", method}});
}

TEST(PlacementImportance, ClosedFormBeyondTheEnumeratedChain) {
  const auto want = pg2_11_racks(1e-6, 0.1, 1e-7, 8766);
  EXPECT_NEAR(want.mttdl / 1142733.37087521, 1.0, 1e-12);
  EXPECT_NEAR(want.loss_by / 0.00764001342987058, 1.0, 1e-9);
  // No enumerated chain here (v > 64): the walk alone gives the figures.
  auto c = pg2_11("importance");
  EXPECT_FALSE(c->model.analytic().contains("mttdl_hours"));
  const auto r = run(*c, 71, 0.03);
  EXPECT_TRUE(storage_test::covers(r, "mttdl_hours", want.mttdl));
  EXPECT_TRUE(storage_test::covers(r, "loss_in_mission", want.loss_by));
  EXPECT_TRUE(storage_test::quantity(r, "mttdl_hours").stats.converged);
  // The closed form by itself: the r = 0 case is a pair of states with no rack term, whose
  // MTTDL (m + (2v-1)a) / (v(v-1)a^2) is the textbook one for "any two down lose".
  const auto no_racks = pg2_11_racks(1e-6, 0.1, 0, 8766);
  EXPECT_NEAR(no_racks.mttdl / ((0.1 + 265e-6) / (133 * 132 * 1e-12)), 1.0, 1e-9);
}

// AG(2,3), t = 2, in 3 racks: the enumerated chain's MTTDL and P(loss by T), with rack failures
// at a tenth of a device's rate and repairs 100 times faster than failures.
TEST(PlacementImportance, CoversTheEnumeratedChain) {
  auto c = make({{"design", "ag2"},
                 {"order", 3},
                 {"tolerance", 2},
                 {"scenario", "lifetime"},
                 {"mission_hours", 8766.0},
                 {"lifetime.mean_hours", 1e4},
                 {"repair.mean_hours", 100.0},
                 {"domains.count", 3},
                 {"domains.failure_rate_per_hour", 1e-5},
                 {"method", "importance"}});
  const auto r = run(*c, 72, 0.03);
  EXPECT_TRUE(storage_test::covers(r, "mttdl_hours", exact(*c, "mttdl_hours")));
  EXPECT_TRUE(storage_test::covers(r, "loss_in_mission", exact(*c, "loss_in_mission")));
  EXPECT_TRUE(storage_test::covers(r, "durability_nines", exact(*c, "durability_nines")));
}

TEST(PlacementImportance, SameReadingsForAnyThreadCount) {
  auto c = placement_test::ag2_racks();
  auto w = placement_test::ag2_racks("importance");
  EXPECT_TRUE(storage_test::same_readings_on_1_and_2_threads(*w, 9, 0.1));
  // The same case as the naive simulation's rack test, with the same exact values.
  EXPECT_EQ(exact(*w, "mttdl_hours"), exact(*c, "mttdl_hours"));
}

// What the walk cannot follow is refused, naming the field; what it does not estimate says why.
TEST(PlacementImportance, RefusalsNameTheField) {
  EXPECT_EQ(rejected_field({{"design", "fano"}, {"failed", 3}, {"method", "importance"}}),
            "method");
  EXPECT_EQ(rejected_field({{"design", "fano"},
                            {"tolerance", 1},
                            {"scenario", "lifetime"},
                            {"mission_hours", 1000.0},
                            {"lifetime.distribution", "weibull"},
                            {"lifetime.shape", 1.5},
                            {"lifetime.scale_hours", 1e5},
                            {"method", "importance"}}),
            "lifetime.distribution");
  EXPECT_EQ(rejected_field({{"design", "fano"},
                            {"tolerance", 1},
                            {"scenario", "lifetime"},
                            {"mission_hours", 1000.0},
                            {"repair.distribution", "deterministic"},
                            {"method", "importance"}}),
            "repair.distribution");
  EXPECT_EQ(rejected_field({{"design", "fano"},
                            {"tolerance", 1},
                            {"scenario", "lifetime"},
                            {"mission_hours", 1000.0},
                            {"rebuild.device_bytes", 1e12},
                            {"method", "importance"}}),
            "rebuild.device_bytes");
  // Outages that are not memoryless leave the unavailability to method = naive, saying which
  // field; exponential ones are walked (PlacementAvailability below).
  for (const char* law : {"deterministic", "lognormal"}) {
    auto c = make({{"design", "fano"},
                   {"tolerance", 1},
                   {"scenario", "lifetime"},
                   {"mission_hours", 1000.0},
                   {"outage.rate_per_hour", 1e-3},
                   {"outage.mean_hours", 1.0},
                   {"outage.distribution", law},
                   {"method", "importance"}});
    EXPECT_LT(c->spec.quantity_index("unavailability"), 0);
    const std::string* why = c->spec.why_not_estimated("unavailability");
    ASSERT_NE(why, nullptr);
    EXPECT_NE(why->find("outage.distribution"), std::string::npos) << *why;
    EXPECT_NE(why->find("method = naive"), std::string::npos) << *why;
  }
}

}  // namespace MCPILOT_TEST_FILE
