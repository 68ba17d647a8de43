// placement.design: simulated intervals cover the exact values at fixed seeds, and results do not
// depend on the thread count. Intervals at 99.9%: with ~15 checks here a miss at 95% would be
// likely somewhere; at 99.9% a bias of more than ~3.3 standard errors still fails.
#include <gtest/gtest.h>

#include <cmath>

#include "mcpilot/session.hpp"
#include "placement_support.hpp"
#include "storage_support.hpp"

namespace MCPILOT_TEST_FILE {

using placement_test::exact;
using placement_test::make;
using placement_test::mirror_lifetime;
using placement_test::run;

void expect_covers(const placement_test::configured& c, const mcpilot::session_result& r,
                   const std::vector<std::string>& names) {
  for (const auto& n : names) EXPECT_TRUE(storage_test::covers(r, n, exact(c, n)));
}

TEST(PlacementSimulation, FailedScenarioCoversExactValues) {
  {  // Fano, t = 2, 3 failed: P(loss) = 1/5.
    auto c = make({{"design", "fano"}, {"tolerance", 2}, {"failed", 3}});
    expect_covers(*c, run(*c, 11, 0.05), {"loss", "groups_lost", "fraction_lost"});
  }
  {  // PG(2,3), t = 3, 6 failed: 3/11.
    auto c = make({{"design", "pg2"}, {"order", 3}, {"tolerance", 3}, {"failed", 6}});
    expect_covers(*c, run(*c, 12, 0.05), {"loss", "groups_lost", "fraction_lost"});
  }
  {  // A random layout: its own exact counts.
    auto c = make({{"design", "random"},
                   {"devices", 13},
                   {"group_size", 4},
                   {"tolerance", 2},
                   {"failed", 4}});
    expect_covers(*c, run(*c, 13, 0.05), {"loss", "groups_lost"});
  }
}

TEST(PlacementSimulation, IndependentScenarioCoversExactValues) {
  auto c = make({{"design", "fano"},
                 {"tolerance", 1},
                 {"scenario", "independent"},
                 {"failure_probability", 0.1}});
  expect_covers(*c, run(*c, 21, 0.05), {"loss", "groups_lost", "fraction_lost"});
  auto d = make({{"design", "ag2"},
                 {"order", 3},
                 {"tolerance", 1},
                 {"scenario", "independent"},
                 {"failure_probability", 0.05}});
  expect_covers(*d, run(*d, 22, 0.05), {"loss", "groups_lost"});
}

// Fano, t = 1, with losses common (MTTF 1000 h, repair 50 h): the Markov chain's MTTDL and
// P(loss by 500 h) against the event simulation, and the fraction of groups lost per year against
// one group's chain (placement_exact_test derives it by hand).
TEST(PlacementSimulation, LifetimeScenarioCoversMarkovValues) {
  auto c = make({{"design", "fano"},
                 {"tolerance", 1},
                 {"scenario", "lifetime"},
                 {"mission_hours", 500.0},
                 {"lifetime.mean_hours", 1000.0},
                 {"repair.mean_hours", 50.0}});
  const auto r = run(*c, 31, 0.05);
  expect_covers(*c, r, {"mttdl_hours", "loss_in_mission", "fraction_lost"});
}

// Random layout with a rebuild: the first failed device is uniform, so the mean of its rebuild
// figures is the mean over devices.
TEST(PlacementSimulation, LifetimeRebuildFigures) {
  auto c = make({{"design", "random"},
                 {"devices", 13},
                 {"group_size", 4},
                 {"tolerance", 1},
                 {"scenario", "lifetime"},
                 {"mission_hours", 500.0},
                 {"lifetime.mean_hours", 1000.0},
                 {"repair.mean_hours", 20.0},
                 {"rebuild.device_bytes", 3.6e12}});
  const auto r = run(*c, 41, 0.05);
  expect_covers(*c, r, {"rebuild_hours", "rebuild_max_over_mean_load"});
  EXPECT_GT(exact(*c, "rebuild_max_over_mean_load"), 1.0);
}

// A rebuild time that is not exponential, against a closed form: one mirrored pair (clustered,
// v = k = 2, t = 1), lifetimes exponential with rate a, each failed device down for a fixed
// D = 20 h repair wait + 30 h rebuild (1.08e13 B read at 3.6e11 B/h). From both up, a failure
// comes after Exp(2a); the cycle ends in loss if the partner fails within D (probability
// 1 - e^{-aD}) and lasts min(Exp(a), D) more, whose mean is (1 - e^{-aD})/a. By the regenerative
// ratio, MTTDL = [1/(2a) + (1 - e^{-aD})/a] / (1 - e^{-aD}).
TEST(PlacementSimulation, DeterministicRebuildMirrorPair) {
  auto c = make({{"design", "clustered"},
                 {"devices", 2},
                 {"group_size", 2},
                 {"groups", 1},
                 {"tolerance", 1},
                 {"scenario", "lifetime"},
                 {"mission_hours", 1000.0},
                 {"lifetime.mean_hours", 1000.0},
                 {"repair.distribution", "deterministic"},
                 {"repair.mean_hours", 20.0},
                 {"rebuild.device_bytes", 1.08e13}});
  EXPECT_NEAR(exact(*c, "rebuild_hours"), 30.0, 1e-12);
  EXPECT_FALSE(c->model.analytic().contains("mttdl_hours"));  // not Markov
  const double a = 1e-3, loss = -std::expm1(-a * 50.0);
  const double mttdl = (1 / (2 * a) + loss / a) / loss;
  EXPECT_TRUE(storage_test::covers(run(*c, 51, 0.05), "mttdl_hours", mttdl));
}

TEST(PlacementSimulation, IdenticalAcrossThreadCounts) {
  for (const char* scenario : {"failed", "independent"}) {
    auto c = make({{"design", "sts"},
                   {"devices", 15},
                   {"scenario", scenario},
                   {"failed", 5},
                   {"failure_probability", 0.2}});
    EXPECT_TRUE(storage_test::same_readings_on_1_and_2_threads(*c, 9, 0.1)) << scenario;
  }
  auto c = make({{"design", "fano"},
                 {"tolerance", 1},
                 {"scenario", "lifetime"},
                 {"mission_hours", 500.0},
                 {"lifetime.mean_hours", 1000.0}});
  EXPECT_TRUE(storage_test::same_readings_on_1_and_2_threads(*c, 9, 0.1));
}

// Rack failures on AG(2,3) (placement_exact_test derives the MTTDL by hand): the simulation
// against the chain, loss and time to loss.
TEST(PlacementSimulation, RackFailuresCoverTheChain) {
  auto c = placement_test::ag2_racks();
  expect_covers(*c, run(*c, 61, 0.05), {"mttdl_hours", "loss_in_mission"});
}

// Unavailability against closed forms, with no failure inside the mission (a Weibull location of
// 2,000 h): a mirrored pair (t = 1) is unavailable while both devices are out.
// - Outages of each device at rate o while it is up, exponential of mean u: from up at 0, P(out
//   at t) = p (1 - e^{-st}), p = o / (o + 1/u), s = o + 1/u; both (independent) p^2 (1 -
//   e^{-st})^2, whose mean over [0, T] is p^2 [1 - 2(1 - e^{-sT})/(sT) + (1 - e^{-2sT})/(2sT)].
// - Outages of the one domain holding both, at rate o whether or not it is out, each lasting D
//   (an arrival while out extends it): out at t unless no arrival in (t - D, t], so P = 1 -
//   e^{-o min(t, D)}, whose mean over [0, T], T > D, is [D - (1 - e^{-oD})/o + (T - D)(1 -
//   e^{-oD})] / T.
TEST(PlacementSimulation, UnavailabilityOfAMirrorCoversClosedForms) {
  const double T = 1000;
  {
    const double o = 0.01, u = 20, p = o / (o + 1 / u), s = o + 1 / u;
    auto c = mirror_lifetime({{"mission_hours", T},
                              {"lifetime.distribution", "weibull"},
                              {"lifetime.shape", 1.0},
                              {"lifetime.scale_hours", 1000.0},
                              {"lifetime.location_hours", 2000.0},
                              {"outage.rate_per_hour", o},
                              {"outage.mean_hours", u}});
    const double mean =
        p * p *
        (1 - 2 * (1 - std::exp(-s * T)) / (s * T) + (1 - std::exp(-2 * s * T)) / (2 * s * T));
    EXPECT_TRUE(storage_test::covers(run(*c, 63, 0.05), "unavailability", mean));
  }
  {
    const double o = 0.002, D = 30;
    auto c = mirror_lifetime({{"mission_hours", T},
                              {"lifetime.distribution", "weibull"},
                              {"lifetime.shape", 1.0},
                              {"lifetime.scale_hours", 1000.0},
                              {"lifetime.location_hours", 2000.0},
                              {"domains.count", 1},
                              {"domains.outage_rate_per_hour", o},
                              {"domains.outage_distribution", "deterministic"},
                              {"domains.outage_mean_hours", D}});
    const double q = 1 - std::exp(-o * D);
    const double mean = (D - q / o + (T - D) * q) / T;
    EXPECT_TRUE(storage_test::covers(run(*c, 64, 0.05), "unavailability", mean));
  }
}

}  // namespace MCPILOT_TEST_FILE
