// storage.group simulated through run_session, with fixed seeds: every known answer of issue 5 is
// inside the interval, naive and importance sampling agree, the rare-event target is reached.
// The intervals are at 99.9% (see storage_support.hpp) except where a test names another level;
// the seeds are 1 (or 2), not chosen to pass.
#include <gtest/gtest.h>

#include <boost/math/special_functions/gamma.hpp>
#include <chrono>
#include <cmath>

#include "storage/ctmc.hpp"
#include "storage_support.hpp"

namespace MCPILOT_TEST_FILE {

using namespace storage_test;

// lambda = 1 / mean_hours, mu = 1 / repair.mean_hours.
TEST(StorageNaive, KnownMttdlTable) {
  struct item {
    int disks, tolerance;
    double repair_mean;
    bool parallel;
    double exact;
  };
  // The table: 17/12 (either repair), 137/60 (one at a time), 217/60 (parallel).
  for (const item& k : {item{4, 1, 0.1, false, 17.0 / 12}, item{4, 1, 0.1, true, 17.0 / 12},
                        item{6, 2, 0.1, false, 137.0 / 60}, item{6, 2, 0.1, true, 217.0 / 60}}) {
    auto c = make({{"disks", k.disks},
                   {"tolerance", k.tolerance},
                   {"lifetime.mean_hours", 1.0},
                   {"repair.mean_hours", k.repair_mean},
                   {"repair.parallel", k.parallel}});
    EXPECT_NEAR(c->model.analytic().at("mttdl_hours"), k.exact, 1e-9 * k.exact);
    const auto r = run(*c, 1, 0.05);
    EXPECT_EQ(r.stopped_because, mcpilot::stop_reason::converged);
    EXPECT_TRUE(covers(r, "mttdl_hours", k.exact)) << k.disks << "/" << k.tolerance;
  }
}

// 8 disks, tolerance 1, MTTF 1e6 h, MTTR 24 h: 744,315,476 h. About 6,000 failures per loss, so
// a wide interval (+-10%) keeps this quick.
TEST(StorageNaive, StiffRaid5) {
  auto c = make({{"disks", 8}, {"tolerance", 1}});
  const double exact = 744315476.19047619;
  EXPECT_NEAR(c->model.analytic().at("mttdl_hours"), exact, 1e-9 * exact);
  const auto r = run(*c, 1, 0.2);
  EXPECT_EQ(r.stopped_because, mcpilot::stop_reason::converged);
  EXPECT_TRUE(covers(r, "mttdl_hours", exact));
}

// 3 disks, tolerance 1, lambda 0.1, mu 1: P(loss by 10) = 0.3179690 (SciPy expm, see
// storage_ctmc_test.cpp).
TEST(StorageNaive, LossByMission) {
  auto c = make({{"disks", 3},
                 {"tolerance", 1},
                 {"lifetime.mean_hours", 10.0},
                 {"repair.mean_hours", 1.0},
                 {"mission_hours", 10.0}});
  EXPECT_NEAR(c->model.analytic().at("loss_in_mission"), 0.3179690024113446, 1e-9);
  ASSERT_EQ(c->spec.quantities()[1].kind, mcpilot::quantity_kind::proportion);
  const auto r = run(*c, 1, 0.05);
  EXPECT_TRUE(covers(r, "loss_in_mission", 0.3179690024113446));
  EXPECT_TRUE(covers(r, "mttdl_hours", c->model.analytic().at("mttdl_hours")));
}

// A mirror of Weibull(shape 2, scale 1) disks without repair: E[max of two] = Gamma(1.5) (2 -
// 1/sqrt 2) = 1.1457968 (issue 5). Three such disks tolerating 2: E[max of three] =
// integral of 1 - (1 - exp(-t^2))^3 = 1.290372924358268 (SciPy quad). With location 0.5: + 0.5.
TEST(StorageNaive, WeibullWithoutRepair) {
  const double mirror = boost::math::tgamma(1.5) * (2 - 1 / std::sqrt(2.0));
  EXPECT_NEAR(mirror, 1.1457968, 1e-7);
  struct item {
    int disks;
    double location, exact;
  };
  for (const item& k :
       {item{2, 0.0, mirror}, item{3, 0.0, 1.290372924358268}, item{2, 0.5, mirror + 0.5}}) {
    auto c = make({{"disks", k.disks},
                   {"tolerance", k.disks - 1},
                   {"lifetime.distribution", "weibull"},
                   {"lifetime.shape", 2.0},
                   {"lifetime.scale_hours", 1.0},
                   {"lifetime.location_hours", k.location},
                   {"repair.distribution", "none"}});
    // No Markov chain, but the quadrature of the binomial survival gives the exact value.
    EXPECT_NEAR(c->model.analytic().at("mttdl_hours"), k.exact, 1e-9 * k.exact) << k.disks;
    const auto r = run(*c, 1, 0.02);
    EXPECT_TRUE(covers(r, "mttdl_hours", k.exact)) << k.disks << " disks";
  }
}

// RAID-5 with rebuild-error probability 0.1 at n = 4, lambda 1, mu 10: 83/80.
TEST(StorageNaive, RebuildErrors) {
  auto c = make({{"disks", 4},
                 {"tolerance", 1},
                 {"lifetime.mean_hours", 1.0},
                 {"repair.mean_hours", 0.1},
                 {"rebuild_error_probability", 0.1}});
  EXPECT_NEAR(c->model.analytic().at("mttdl_hours"), 83.0 / 80, 1e-9);
  EXPECT_TRUE(covers(run(*c, 1, 0.05), "mttdl_hours", 83.0 / 80));
}

// Rebuild laws beyond the exponential. For RAID-5 with exponential lifetimes and any rebuild law
// R: q = P(another of the n-1 fails during a rebuild) = 1 - E[exp(-(n-1) lambda R)], and
// MTTDL = (1/(n lambda) + q/((n-1) lambda)) / q (a cycle: the wait for a failure, then the rebuild
// or the loss, whichever first). At n = 4, lambda = 1:
//   deterministic 0.1 h:                    q = 1 - exp(-0.3)                -> 1.2979073117108542
//   lognormal mean 0.1, sigma 0.5:          SciPy quad of exp(-3r) lognorm.pdf(r, 0.5,
//                                           scale=exp(ln 0.1 - 0.125))    -> 1.3315634370371374
//   weibull shape 2, scale 0.1, loc. 0.05:  SciPy quad of exp(-3(r + 0.05)) weibull_min.pdf(r, 2,
//                                           scale=0.1)                    -> 1.0818008258030196
TEST(StorageNaive, GeneralRebuildLaws) {
  {
    auto c = make({{"disks", 4},
                   {"tolerance", 1},
                   {"lifetime.mean_hours", 1.0},
                   {"repair.distribution", "deterministic"},
                   {"repair.mean_hours", 0.1}});
    EXPECT_TRUE(covers(run(*c, 1, 0.05), "mttdl_hours", 1.2979073117108542));
  }
  {
    auto c = make({{"disks", 4},
                   {"tolerance", 1},
                   {"lifetime.mean_hours", 1.0},
                   {"repair.distribution", "lognormal"},
                   {"repair.mean_hours", 0.1}});  // sigma 0.5 by default
    EXPECT_TRUE(covers(run(*c, 1, 0.05), "mttdl_hours", 1.3315634370371374));
  }
  {
    auto c = make({{"disks", 4},
                   {"tolerance", 1},
                   {"lifetime.mean_hours", 1.0},
                   {"repair.distribution", "weibull"},
                   {"repair.shape", 2.0},
                   {"repair.scale_hours", 0.1},
                   {"repair.location_hours", 0.05}});
    EXPECT_TRUE(covers(run(*c, 1, 0.05), "mttdl_hours", 1.0818008258030196));
  }
}

// Several groups: the system's exact MTTDL (checked against the product chain in
// storage_ctmc_test.cpp) and loss probability, by both methods.
TEST(StorageBothMethods, SeveralGroups) {
  for (const char* method : {"naive", "importance"}) {
    auto c = make({{"disks", 4},
                   {"tolerance", 1},
                   {"groups", 3},
                   {"lifetime.mean_hours", 1.0},
                   {"repair.mean_hours", 0.1},
                   {"mission_hours", 0.3},
                   {"method", method}});
    const auto exact = c->model.analytic();
    const auto r = run(*c, 1, 0.05);
    EXPECT_TRUE(covers(r, "mttdl_hours", exact.at("mttdl_hours"))) << method;
    EXPECT_TRUE(covers(r, "loss_in_mission", exact.at("loss_in_mission"))) << method;
  }
}

// Many groups: 200 three-way replica sets (nodes at MTTF 300,000 h, re-replication 10 h in
// parallel). A 10-year mission then holds hundreds of excursions from all up; the mission
// estimator averages their independent biased estimates (importance.hpp) and must still cover.
TEST(StorageImportance, ManyGroups) {
  auto c = make({{"disks", 3},
                 {"tolerance", 2},
                 {"groups", 200},
                 {"lifetime.mean_hours", 300000.0},
                 {"repair.mean_hours", 10.0},
                 {"repair.parallel", true},
                 {"mission_hours", 87600.0},
                 {"method", "importance"}});
  const auto exact = c->model.analytic();
  const auto r = run(*c, 1, 0.2);
  EXPECT_EQ(r.stopped_because, mcpilot::stop_reason::converged);
  EXPECT_TRUE(covers(r, "mttdl_hours", exact.at("mttdl_hours")));
  EXPECT_TRUE(covers(r, "loss_in_mission", exact.at("loss_in_mission")));
}

// Importance sampling is unbiased: where naive simulation also works (4 disks, tolerance 1,
// lambda 1, mu 10, mission 1 h), both intervals cover the exact values and the two estimates
// agree within their joint uncertainty (|difference| below z sqrt(se1^2 + se2^2), z = 3.2905 the
// normal 0.9995 quantile (R: qnorm(0.9995)): a 99.9% test of equal means).
TEST(StorageBothMethods, ImportanceMatchesNaive) {
  const double z = 3.2905;
  double mean[2][2], se[2][2];
  int i = 0;
  for (const char* method : {"naive", "importance"}) {
    auto c = make({{"disks", 4},
                   {"tolerance", 1},
                   {"lifetime.mean_hours", 1.0},
                   {"repair.mean_hours", 0.1},
                   {"mission_hours", 1.0},
                   {"method", method}});
    const auto exact = c->model.analytic();
    const auto r = run(*c, 2, 0.03);
    EXPECT_EQ(r.stopped_because, mcpilot::stop_reason::converged) << method;
    int j = 0;
    for (const char* q : {"mttdl_hours", "loss_in_mission"}) {
      EXPECT_TRUE(covers(r, q, exact.at(q))) << method;
      const auto& a = quantity(r, q).stats;
      mean[i][j] = *a.mean;
      se[i][j] = (*a.ci_high - *a.ci_low) / (2 * z);
      ++j;
    }
    ++i;
  }
  for (int j = 0; j < 2; ++j)
    EXPECT_LT(std::abs(mean[0][j] - mean[1][j]),
              z * std::sqrt(se[0][j] * se[0][j] + se[1][j] * se[1][j]));
}

// The importance method on the known answers, stiff ones included.
TEST(StorageImportance, KnownAnswers) {
  struct item {
    int disks, tolerance;
    double mttf, mttr;
    bool parallel;
    double h, exact;
  };
  for (const item& k :
       {item{4, 1, 1, 0.1, false, 0, 17.0 / 12}, item{6, 2, 1, 0.1, false, 0, 137.0 / 60},
        item{6, 2, 1, 0.1, true, 0, 217.0 / 60}, item{8, 1, 1e6, 24, false, 0, 744315476.19047619},
        item{8, 1, 1e6, 24, true, 0, 744315476.19047619},
        item{4, 1, 1, 0.1, false, 0.1, 83.0 / 80}}) {
    auto c = make({{"disks", k.disks},
                   {"tolerance", k.tolerance},
                   {"lifetime.mean_hours", k.mttf},
                   {"repair.mean_hours", k.mttr},
                   {"repair.parallel", k.parallel},
                   {"rebuild_error_probability", k.h},
                   {"method", "importance"}});
    const auto r = run(*c, 1, 0.05);
    EXPECT_EQ(r.stopped_because, mcpilot::stop_reason::converged);
    EXPECT_TRUE(covers(r, "mttdl_hours", k.exact)) << k.disks << "/" << k.tolerance;
  }
}

// The rare-event target of issue 5: RAID-6 of 10 disks, MTTF 1e6 h, MTTR 24 h. Exact MTTDL
// 2.4123e12 h and P(loss in 10 years) = 3.629e-8; both to +-10% (whole width 20%) at 95%, and
// well under a minute on 2 cores (here a few tenths of a second).
TEST(StorageImportance, RareEventTarget) {
  auto c = make({{"mission_hours", 87600.0}, {"method", "importance"}});
  const auto exact = c->model.analytic();
  EXPECT_NEAR(exact.at("mttdl_hours"), 2.4123074348765e12, 1e3);
  EXPECT_NEAR(exact.at("loss_in_mission"), 3.62938829170727e-08, 1e-16);
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = run(*c, 1, 0.2, 2, 0.95);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.stopped_because, mcpilot::stop_reason::converged);
  for (const char* q : {"mttdl_hours", "loss_in_mission"}) {
    const auto& a = quantity(r, q).stats;
    EXPECT_TRUE(a.converged) << q;
    EXPECT_LE(*a.ci_width_rel, 0.2) << q;
    EXPECT_TRUE(covers(r, q, exact.at(q)));
  }
  EXPECT_LT(seconds, 20.0);
}

// Determinism: the same seed gives bit-identical readings on 1 and 2 threads, for both methods.
TEST(StorageBothMethods, IdenticalAcrossThreadCounts) {
  for (const char* method : {"naive", "importance"}) {
    auto c = make({{"disks", 5},
                   {"tolerance", 1},
                   {"lifetime.mean_hours", 1.0},
                   {"repair.mean_hours", 0.2},
                   {"mission_hours", 0.5},
                   {"method", method}});
    EXPECT_TRUE(storage_test::same_readings_on_1_and_2_threads(*c, 9, 0.1)) << method;
  }
}

// A mission far shorter than a rebuild: the RAID-6 target over 1 hour and over 0.001 hour
// (exact 1.2e-16 and 1.2e-25). Importance sampling forces every holding time of its biased
// excursions into the time left, so its readings are not all zero ("0 +- 0") and its interval
// covers the exact value.
TEST(StorageImportance, ShortMissions) {
  for (double mission : {1.0, 0.001}) {
    auto c = make({{"mission_hours", mission}, {"method", "importance"}});
    const double exact = c->model.analytic().at("loss_in_mission");
    EXPECT_LT(exact, 2e-16);
    const auto r = run(*c, 1, 0.1);
    const auto& a = quantity(r, "loss_in_mission").stats;
    EXPECT_GT(*a.mean, 0.0) << mission;
    EXPECT_TRUE(covers(r, "loss_in_mission", exact)) << mission;
  }
}

// No loss at all within the mission: the naive method's loss_in_mission is a proportion, so the
// engine reports the one-sided upper bound 1 - 0.05^(1/n) (not "0 +- 0"), and stops as
// unreachable once even p = bound would need more trials than max_replications.
TEST(StorageNaive, NoLossGivesUpperBound) {
  auto c = make({{"disks", 4},
                 {"tolerance", 1},
                 {"lifetime.mean_hours", 1.0},
                 {"repair.mean_hours", 0.1},
                 {"mission_hours", 1e-4}});
  EXPECT_LT(c->model.analytic().at("loss_in_mission"), 1e-7);
  const auto r = run(*c, 1, 0.1, 2, 0.95);
  const auto& a = quantity(r, "loss_in_mission").stats;
  EXPECT_EQ(*a.mean, 0.0);
  EXPECT_TRUE(a.one_sided);
  EXPECT_NEAR(*a.ci_high, 1 - std::pow(0.05, 1.0 / static_cast<double>(a.n_used)), 1e-12);
  EXPECT_GT(*a.ci_high, 0.0);
  EXPECT_FALSE(a.converged);
  EXPECT_EQ(r.stopped_because, mcpilot::stop_reason::unreachable);
  EXPECT_LT(r.replications, 1'000'000u);
}

// The quantities follow the configuration.
TEST(StorageModel, QuantitiesFollowMethodAndMission) {
  auto naive = make({});
  ASSERT_EQ(naive->spec.quantities().size(), 1u);
  EXPECT_EQ(naive->spec.quantities()[0].name, "mttdl_hours");
  auto imp = make({{"method", "importance"}, {"mission_hours", 100.0}});
  ASSERT_EQ(imp->spec.quantities().size(), 5u);  // and the optional durability_nines
  EXPECT_TRUE(imp->spec.quantities()[2].derived());
  EXPECT_EQ(imp->spec.quantities()[2].name, "mttdl_hours");
  EXPECT_FALSE(imp->spec.quantities()[0].required);
  EXPECT_FALSE(imp->spec.quantities()[1].required);
  EXPECT_TRUE(imp->spec.quantities()[3].required);
  EXPECT_EQ(imp->spec.quantities()[3].kind, mcpilot::quantity_kind::ordinary);
  EXPECT_EQ(imp->spec.quantities()[4].name, "durability_nines");
  EXPECT_FALSE(imp->spec.quantities()[4].required);
}

}  // namespace MCPILOT_TEST_FILE
