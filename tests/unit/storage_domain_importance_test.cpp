// storage.group, importance sampling of one group whose failure domains hold several of its
// devices (models/storage/domain_walk.hpp): against the exact answers of
// storage_availability_test.cpp (sympy rationals and mpmath expm, cited there), against naive
// missions of the same walk, and on a rare case against the chain on per-domain failed counts.
#include <gtest/gtest.h>

#include "mcpilot/rng.hpp"
#include "storage/domain_walk.hpp"
#include "storage_support.hpp"

namespace MCPILOT_TEST_FILE {

using storage_test::covers;
using storage_test::make;
using storage_test::run;

// The cases of StorageDomains, now by importance sampling: a mirror in one domain (MTTDL 54/35,
// P(loss by 1) = 0.47455733005373469); two mirrors striped over two domains, so that a domain
// failure hits both groups (MTTDL 167/95, P(loss by 1) = 0.42324367391798581); and 4 disks
// tolerating 2 in two domains of 2 with parallel rebuilds and h = 1/10 (MTTDL 493/235, P(loss by
// 1) = 0.36931636762699711).
TEST(StorageDomainImportance, CoversTheSympyAnswers) {
  {
    auto c = make({{"disks", 2},
                   {"tolerance", 1},
                   {"lifetime.mean_hours", 1.0},
                   {"repair.mean_hours", 0.1},
                   {"domains.count", 1},
                   {"domains.failure_rate_per_hour", 0.5},
                   {"mission_hours", 1.0},
                   {"method", "importance"}});
    const auto r = run(*c, 81, 0.05);
    EXPECT_TRUE(covers(r, "mttdl_hours", 54.0 / 35));
    EXPECT_TRUE(covers(r, "loss_in_mission", 0.47455733005373469));
  }
  {
    auto c = make({{"disks", 2},
                   {"tolerance", 1},
                   {"groups", 2},
                   {"lifetime.mean_hours", 1.0},
                   {"repair.mean_hours", 0.1},
                   {"domains.count", 2},
                   {"domains.failure_rate_per_hour", 0.5},
                   {"mission_hours", 1.0},
                   {"method", "importance"}});
    const auto r = run(*c, 85, 0.05);
    EXPECT_TRUE(covers(r, "mttdl_hours", 167.0 / 95));
    EXPECT_TRUE(covers(r, "loss_in_mission", 0.42324367391798581));
  }
  {
    auto c = storage_test::two_domains_of_two("importance");
    const auto r = run(*c, 82, 0.05);
    EXPECT_TRUE(covers(r, "mttdl_hours", 493.0 / 235));
    EXPECT_TRUE(covers(r, "loss_in_mission", 0.36931636762699711));
  }
}

// RAID-6 of 10 disks in 5 enclosures of 2 (MTTF 10^6 h, parallel rebuilds of 24 h, enclosure
// failures 10^-7 per hour), one year: P(loss) about 1.3e-6, which naive simulation would need
// some 3e8 missions to estimate to +-10%. The biased walk against the chain's exact value.
TEST(StorageDomainImportance, RareLossAgainstTheChain) {
  auto c = make({{"disks", 10},
                 {"tolerance", 2},
                 {"lifetime.mean_hours", 1e6},
                 {"repair.mean_hours", 24.0},
                 {"repair.parallel", true},
                 {"domains.count", 5},
                 {"domains.failure_rate_per_hour", 1e-7},
                 {"mission_hours", 8766.0},
                 {"method", "importance"}});
  const auto exact = c->model.analytic();
  const auto r = run(*c, 83, 0.05);
  EXPECT_TRUE(covers(r, "loss_in_mission", exact.at("loss_in_mission")));
  EXPECT_TRUE(covers(r, "mttdl_hours", exact.at("mttdl_hours")));
  EXPECT_LT(r.replications, 200'000u);  // naive would need ~3e8
}

// A mirror in one enclosure whose failure loses both copies at once (10^-9 per hour, disks MTTF
// 10^6 h, rebuilds 24 h): from both up the enclosure's failure is 1 in 2,000 of the first jumps,
// so balanced biasing that left all up alone needed about 2.9e6 cycles for +-5% (relative variance
// near 1/5e-4). With the domain events sharing 1/2 in all up, a reading's relative variance is
// near 1 and about (1.96 / 0.025)^2 = 6,000 readings suffice at 95%; 99.9% here asks 2.8 times
// that. Hand-derived MTTDL (m0 = 1/(2a+r) + 2a/(2a+r) m1, m1 = 1/(m+a+r) + m/(m+a+r) m0):
// (m + 3a + r) / ((2a + r)(m + a + r) - 2am) = 954,201,620.78 h.
TEST(StorageDomainImportance, AnEnclosureThatLosesAtOnceIsSampled) {
  const double a = 1e-6, m = 1 / 24.0, r = 1e-9;
  auto c = make({{"disks", 2},
                 {"tolerance", 1},
                 {"lifetime.mean_hours", 1 / a},
                 {"repair.mean_hours", 1 / m},
                 {"domains.count", 1},
                 {"domains.failure_rate_per_hour", r},
                 {"method", "importance"}});
  const double mttdl = (m + 3 * a + r) / ((2 * a + r) * (m + a + r) - 2 * a * m);
  EXPECT_NEAR(mttdl / 954201620.78, 1, 1e-9);
  const auto res = run(*c, 84, 0.1);
  EXPECT_TRUE(covers(res, "mttdl_hours", mttdl));
  EXPECT_LT(res.replications, 100'000u);  // all up unbiased: ~8e6 at 99.9%
}

// The biased mission reading and the plain one estimate the same probability: 20,000 of each on
// the 4-disk case (P = 0.3693), whose standard errors are about 0.0034 (plain) and less (biased);
// their means must agree within 4 standard errors of the difference.
TEST(StorageDomainImportance, BiasedAndPlainMissionsAgree) {
  mcpilot::storage::domain_walk_rates s;
  s.groups = 1;
  s.disks = 4;
  s.domains = 2;
  s.tolerance = 2;
  s.failure_rate = 1;
  s.domain_failure_rate = 0.5;
  s.repair_rate = 10;
  s.rebuild_error = 0.1;
  const int n = 20'000;
  double sum_b = 0, sum_b2 = 0, sum_p = 0;
  for (int i = 0; i < n; ++i) {
    mcpilot::philox_stream rng(7, static_cast<std::uint64_t>(i));
    const double b = mcpilot::storage::domain_mission_loss_weight(s, 1.0, rng);
    sum_b += b;
    sum_b2 += b * b;
    sum_p += mcpilot::storage::domain_mission_loss_plain(s, 1.0, rng);
  }
  const double mb = sum_b / n, mp = sum_p / n;
  const double var_b = (sum_b2 / n - mb * mb) / n, var_p = mp * (1 - mp) / n;
  EXPECT_LT(std::abs(mb - mp), 4 * std::sqrt(var_b + var_p)) << mb << " vs " << mp;
  EXPECT_LT(std::abs(mb - 0.36931636762699711), 4 * std::sqrt(var_b));
}

TEST(StorageDomainImportance, SameReadingsForAnyThreadCount) {
  auto c = make({{"disks", 4},
                 {"tolerance", 2},
                 {"lifetime.mean_hours", 1.0},
                 {"repair.mean_hours", 0.1},
                 {"repair.parallel", true},
                 {"domains.count", 2},
                 {"domains.failure_rate_per_hour", 0.5},
                 {"mission_hours", 1.0},
                 {"method", "importance"}});
  EXPECT_TRUE(storage_test::same_readings_on_1_and_2_threads(*c, 84, 0.1));
}

// Serial rebuilds with tolerance 2: the walk keeps each group's rebuild queue, first in, first
// rebuilt, as the simulation does. The 4-disk case above rebuilt one at a time: python3 (sympy),
// the chain on the ordered queue of failed disks (17 states) gives MTTDL = 1977/1135, and mpmath
// expm at 40 digits P(loss by 1) = 0.42450004788032874 (parallel rebuilds: 493/235, 0.3693).
TEST(StorageDomainImportance, SerialRebuildsAgainstTheQueueChain) {
  auto c = make({{"disks", 4},
                 {"tolerance", 2},
                 {"lifetime.mean_hours", 1.0},
                 {"repair.mean_hours", 0.1},
                 {"repair.parallel", false},
                 {"rebuild_error_probability", 0.1},
                 {"domains.count", 2},
                 {"domains.failure_rate_per_hour", 0.5},
                 {"mission_hours", 1.0},
                 {"method", "importance"}});
  const auto r = run(*c, 86, 0.05);
  EXPECT_TRUE(covers(r, "mttdl_hours", 1977.0 / 1135));
  EXPECT_TRUE(covers(r, "loss_in_mission", 0.42450004788032874));
}

// Still refused where the walk is not a Markov chain: lifetimes that are not exponential.
TEST(StorageDomainImportance, RefusedWhereTheChainDoesNotApply) {
  try {
    make({{"disks", 4},
          {"tolerance", 2},
          {"lifetime.distribution", "weibull"},
          {"lifetime.shape", 1.12},
          {"lifetime.scale_hours", 1.0},
          {"repair.mean_hours", 0.1},
          {"domains.count", 2},
          {"domains.failure_rate_per_hour", 0.5},
          {"mission_hours", 1.0},
          {"method", "importance"}});
    ADD_FAILURE() << "accepted";
  } catch (const mcpilot::parameter_error& e) {
    EXPECT_EQ(e.field(), "method");
    EXPECT_NE(std::string(e.what()).find("method = naive"), std::string::npos) << e.what();
  }
}

}  // namespace MCPILOT_TEST_FILE
