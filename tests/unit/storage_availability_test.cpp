// storage.group's transient outages, failure domains and the quantities built on them
// (unavailability, unavailable_events_per_year, fraction_lost, durability_nines), checked against
// known answers computed independently of the code under test:
// - the availability chain's steady state, as exact fractions: the chain written out by hand in
//   Python from the rules, its stationary law solved in rationals with sympy (a lost group
//   replaced by a new one), not by the regenerative elimination the C++ uses;
// - mission integrals by the Van Loan block exponential: the top-right block of
//   exp([[Q, I], [0, 0]] T) is integral_0^T exp(Q t) dt, with mpmath at 40 digits, not
//   uniformization;
// - correlated domain failures, by chains over which disks have failed (sympy rationals);
// - a domain outage of deterministic length over Poisson arrivals, by its closed form.
// The script is reproduced below each table.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "../support/weibull_binomial_tail.hpp"
#include "placement/placement_model.hpp"
#include "storage/availability_chain.hpp"
#include "storage/system_mission.hpp"
#include "storage_support.hpp"

namespace MCPILOT_TEST_FILE {

using namespace storage_test;
using mcpilot::storage::availability_chain;
using mcpilot::storage::availability_rates;

constexpr double year = 8766;

// A session capped at `cap` replications: the interval is honest at whatever size it stops,
// and the default suite stays quick.
mcpilot::session_result capped(const configured& c, std::uint64_t seed, double ci_perc,
                               std::uint64_t cap = 200'000) {
  auto s = settings(seed, ci_perc);
  s.max_replications = cap;
  s.max_seconds = 30;
  return mcpilot::run_session(c.model, c.spec, s);
}

// Every quantity of the session required, so that each is estimated to the session's precision.
void require_all(configured& c) {
  for (auto& q : c.spec.quantities()) q.required = true;
}

struct chain_case {
  availability_rates rates;
  double steady;   // exact fraction, below
  double mission;  // T
  double unavailable_fraction;
  double periods;
};

// python3: states (f, o) with the rates of availability_chain.hpp written out by hand; steady
// state: sympy LUsolve of pi Q = 0, sum pi = 1 (loss -> all up); mission: mpmath expm of the
// Van Loan block matrix, dps 40. Results:
//   mirror (2, 1, l=1, mu=10, alpha=2, beta=5)            23/247           T=3  0.07190610005435948
//                                                                             periods 2.7826751581514312
//   3 disks tol 1 parallel, l=1/2, mu=4, a=1, b=8, h=1/10 518306600/7728450507  T=2
//                                                          0.046892937299381462
//                                                          periods 1.3015157183520757
//   triple tol 2, l=1/10, mu=2, a=1/2, b=4                 868441145/218719978164  T=5
//                                                          0.0034595979851187559 periods
//                                                          0.16598388300457251
const chain_case known[] = {
    {{2, 1, 1.0, 10.0, false, 0.0, 2.0, 5.0},
     23.0 / 247,
     3,
     0.07190610005435948,
     2.7826751581514312},
    {{3, 1, 0.5, 4.0, true, 0.1, 1.0, 8.0},
     518306600.0 / 7728450507.0,
     2,
     0.046892937299381462,
     1.3015157183520757},
    {{3, 2, 0.1, 2.0, false, 0.0, 0.5, 4.0},
     868441145.0 / 218719978164.0,
     5,
     0.0034595979851187559,
     0.16598388300457251},
};

TEST(StorageAvailability, SteadyStateAgainstExactFractions) {
  for (const auto& k : known) {
    const availability_chain c(k.rates);
    EXPECT_NEAR(mcpilot::storage::steady_unavailability(c), k.steady, 1e-12 * k.steady);
  }
}

TEST(StorageAvailability, MissionAgainstBlockExponential) {
  for (const auto& k : known) {
    const availability_chain c(k.rates);
    const auto m = mcpilot::storage::mission_unavailability(c, k.mission);
    EXPECT_NEAR(m.unavailable_fraction, k.unavailable_fraction, 1e-10 * k.unavailable_fraction);
    EXPECT_NEAR(m.unavailable_periods, k.periods, 1e-10 * k.periods);
  }
}

TEST(StorageAvailability, MergedPeriods) {
  std::vector<mcpilot::storage::period> p{{5, 6}, {1, 3}, {2, 4}, {4, 4.5}, {7, 8}};
  const auto [total, count] = mcpilot::storage::merge_periods(p);
  EXPECT_DOUBLE_EQ(total, 3.5 + 1 + 1);  // [1, 4.5), [5, 6), [7, 8)
  EXPECT_EQ(count, 3);
}

// The naive simulation with outages covers the chain's exact values, and the model prints them.
TEST(StorageAvailability, NaiveCoversTheMirror) {
  auto c = make({{"disks", 2},
                 {"tolerance", 1},
                 {"lifetime.mean_hours", 1.0},
                 {"repair.mean_hours", 0.1},
                 {"outage.rate_per_hour", 2.0},
                 {"outage.mean_hours", 0.2},
                 {"mission_hours", 3.0}});
  const auto exact = c->model.analytic();
  EXPECT_NEAR(exact.at("unavailability"), 0.07190610005435948, 1e-9);
  EXPECT_NEAR(exact.at("unavailable_events_per_year"), 2.7826751581514312 / (3 / year),
              1e-9 * 2.78 / (3 / year));
  // Outages never lose data: loss is the plain mirror's, and fraction_lost is P(loss by T) per
  // year for one group; durability_nines its transform.
  const double p = exact.at("loss_in_mission");
  EXPECT_NEAR(exact.at("fraction_lost"), p / (3 / year), 1e-12 * p / (3 / year));
  EXPECT_NEAR(exact.at("durability_nines"), -std::log10(-std::expm1(year / 3 * std::log1p(-p))),
              1e-12);
  require_all(*c);
  const auto r = capped(*c, 71, 0.2);
  // durability_nines is 0 here to the last digit (a 3-hour mission: the annual loss probability
  // is 1); it is covered in AnnualDurability below.
  for (const char* q : {"unavailability", "unavailable_events_per_year", "fraction_lost",
                        "loss_in_mission", "mttdl_hours"})
    EXPECT_TRUE(covers(r, q, exact.at(q))) << q;
}

// durability_nines with a one-year mission, where it is -log10 P(loss within the year) exactly.
TEST(StorageAvailability, AnnualDurability) {
  auto c = make({{"disks", 2},
                 {"tolerance", 1},
                 {"lifetime.mean_hours", 20000.0},
                 {"repair.mean_hours", 1000.0},
                 {"mission_hours", year}});
  const auto exact = c->model.analytic();
  EXPECT_NEAR(exact.at("durability_nines"), -std::log10(exact.at("loss_in_mission")), 1e-12);
  require_all(*c);
  const auto r = capped(*c, 78, 0.2);
  for (const char* q : {"durability_nines", "fraction_lost", "loss_in_mission"})
    EXPECT_TRUE(covers(r, q, exact.at(q))) << q;
}

TEST(StorageAvailability, NaiveCoversTripleWithOutages) {
  auto c = make({{"disks", 3},
                 {"tolerance", 2},
                 {"lifetime.mean_hours", 10.0},
                 {"repair.mean_hours", 0.5},
                 {"outage.rate_per_hour", 0.5},
                 {"outage.mean_hours", 0.25},
                 {"mission_hours", 5.0}});
  const auto exact = c->model.analytic();
  EXPECT_NEAR(exact.at("unavailability"), 0.0034595979851187559, 1e-12);
  c->spec.quantities()[static_cast<std::size_t>(c->spec.quantity_index("unavailability"))]
      .required = true;
  const auto r = capped(*c, 72, 0.2, 30'000);
  EXPECT_TRUE(covers(r, "unavailability", exact.at("unavailability")));
  EXPECT_TRUE(covers(r, "unavailable_events_per_year", exact.at("unavailable_events_per_year")));
}

// python3 (sympy): MTTDL of a mirror whose two disks share one domain, l = 1, mu = 10, domain
// failures 1/2 per hour: T0 = 1/(2l + r) + 2l/(2l + r) T1, T1 = 1/(l + r + mu) + mu/(l + r + mu) T0
// = 54/35; P(loss by 1) = 0.47455733005373469 (mpmath expm). Two mirrors striped over two
// domains (domain k holds disk k of each), the state being each group's set of failed disks:
// MTTDL 167/95, P(loss by 1) = 0.42324367391798581.
TEST(StorageDomains, CorrelatedFailuresKnownAnswers) {
  struct domain_case {
    int groups, domains;
    double mttdl, loss;
  };
  for (const auto& k : {domain_case{1, 1, 54.0 / 35, 0.47455733005373469},
                        domain_case{2, 2, 167.0 / 95, 0.42324367391798581}}) {
    auto c = make({{"disks", 2},
                   {"tolerance", 1},
                   {"groups", k.groups},
                   {"lifetime.mean_hours", 1.0},
                   {"repair.mean_hours", 0.1},
                   {"domains.count", k.domains},
                   {"domains.failure_rate_per_hour", 0.5},
                   {"mission_hours", 1.0}});
    // One group: the chain on per-domain failed counts gives it exactly; two groups sharing
    // domains: the chain of the whole system's failed devices (tolerance 1, so one rebuild at a
    // time is the same as parallel in both).
    EXPECT_NEAR(c->model.analytic().at("mttdl_hours"), k.mttdl, 1e-12 * k.mttdl);
    EXPECT_NEAR(c->model.analytic().at("loss_in_mission"), k.loss, 1e-10);
    const auto r = run(*c, 73 + static_cast<unsigned>(k.groups), 0.1);
    EXPECT_TRUE(covers(r, "mttdl_hours", k.mttdl)) << k.groups;
    EXPECT_TRUE(covers(r, "loss_in_mission", k.loss)) << k.groups;
  }
}

// python3 (sympy, over the ordered pair of per-domain failed counts, not the sorted multiset the
// model uses): 4 disks tolerating 2 in two domains of 2, lambda 1, parallel rebuilds mu = 10,
// domain failures 1/2, h = 1/10 on a failure that leaves exactly 2 failed: MTTDL 493/235,
// P(loss by 1) = 0.36931636762699711 (mpmath expm).
TEST(StorageDomains, TwoDomainsOfTwoExact) {
  auto c = storage_test::two_domains_of_two("naive");
  const auto exact = c->model.analytic();
  EXPECT_NEAR(exact.at("mttdl_hours"), 493.0 / 235, 1e-12);
  EXPECT_NEAR(exact.at("loss_in_mission"), 0.36931636762699711, 1e-10);
  const auto r = capped(*c, 95, 0.1);
  EXPECT_TRUE(covers(r, "mttdl_hours", 493.0 / 235));
  EXPECT_TRUE(covers(r, "loss_in_mission", 0.36931636762699711));
}

// One device per domain: a domain failure is a device failure, so the chain with lambda + r is
// exact: 3 disks, tolerance 1, one rebuild, MTTDL = (5 l + mu) / (6 l^2) = 35/27 at l = 1.5,
// mu = 10.
TEST(StorageDomains, OneDevicePerDomainFoldsIntoTheFailureRate) {
  for (const char* method : {"naive", "importance"}) {
    auto c = make({{"disks", 3},
                   {"tolerance", 1},
                   {"lifetime.mean_hours", 1.0},
                   {"repair.mean_hours", 0.1},
                   {"domains.count", 3},
                   {"domains.failure_rate_per_hour", 0.5},
                   {"method", method}});
    EXPECT_NEAR(c->model.analytic().at("mttdl_hours"), 35.0 / 27, 1e-12);
    EXPECT_TRUE(covers(run(*c, 75, 0.1), "mttdl_hours", 35.0 / 27)) << method;
  }
}

// A domain outage of fixed length d over Poisson arrivals (rate a, each extending the outage to
// its own end) keeps the domain down while an arrival is under d old: P(down at t) =
// 1 - exp(-a min(t, d)). One disk, tolerance 0, exponential life L, independent of outages, so
// E[unavailable time] = integral_0^T e^{-t/L} (1 - e^{-a min(t, d)}) dt, and periods start at
// arrivals into an idle domain while the disk lives: integral_0^T a e^{-t/L} e^{-a min(t, d)} dt.
TEST(StorageDomains, DeterministicDomainOutagesClosedForm) {
  const double a = 0.5, d = 1, L = 100, T = 50, c0 = 1 / L;
  const double down = (1 - std::exp(-c0 * d)) / c0 - (1 - std::exp(-(a + c0) * d)) / (a + c0) +
                      (1 - std::exp(-a * d)) * (std::exp(-c0 * d) - std::exp(-c0 * T)) / c0;
  const double starts = a * (1 - std::exp(-(a + c0) * d)) / (a + c0) +
                        a * std::exp(-a * d) * (std::exp(-c0 * d) - std::exp(-c0 * T)) / c0;
  auto c = make({{"disks", 1},
                 {"tolerance", 0},
                 {"lifetime.mean_hours", L},
                 {"domains.count", 1},
                 {"domains.outage_rate_per_hour", a},
                 {"domains.outage_distribution", "deterministic"},
                 {"domains.outage_mean_hours", d},
                 {"mission_hours", T}});
  EXPECT_EQ(c->model.analytic().count("unavailability"), 0u);  // no chain for domain outages
  require_all(*c);
  const auto r = capped(*c, 76, 0.1);
  EXPECT_TRUE(covers(r, "unavailability", down / T));
  EXPECT_TRUE(covers(r, "unavailable_events_per_year", starts / (T / year)));
  EXPECT_TRUE(covers(r, "loss_in_mission", -std::expm1(-T / L)));
}

// Without outages and domains the naive simulation draws what it always drew: the same seed gives
// the same readings whether or not the new quantities are asked for.
TEST(StorageAvailability, OutagesNeverLoseData) {
  auto with = make({{"disks", 4},
                    {"tolerance", 1},
                    {"lifetime.mean_hours", 1.0},
                    {"repair.mean_hours", 0.1},
                    {"outage.rate_per_hour", 3.0},
                    {"outage.mean_hours", 0.3},
                    {"mission_hours", 2.0}});
  auto without = make({{"disks", 4},
                       {"tolerance", 1},
                       {"lifetime.mean_hours", 1.0},
                       {"repair.mean_hours", 0.1},
                       {"mission_hours", 2.0}});
  EXPECT_EQ(with->model.analytic().at("mttdl_hours"), without->model.analytic().at("mttdl_hours"));
  EXPECT_EQ(without->model.analytic().at("unavailability"), 0.0);
  EXPECT_TRUE(covers(run(*with, 77, 0.1), "mttdl_hours", 17.0 / 12));
}

}  // namespace MCPILOT_TEST_FILE

namespace MCPILOT_TEST_FILE {

// Domain outages with one device per domain (availability_chain.hpp): the chain's steady state
// against the chain written out by hand in Python over ordered device states (each device
// failed, or working with its own outage 0/1 and its domain's outages running 0..K), its
// stationary law solved in exact rationals (fractions.Fraction, sparse Gauss-Jordan; a lost group
// replaced by a new one), not by the elimination over counts the C++ uses:
//   mirror (2, 1, l=1, mu=10, serial, a=2, b=5, ad=1/20, bd=5), K = 6 (rho = 1/100):
//     0.09627528910925734 (K = 4 gives 0.0962752891090978, 1.7e-12 relative below)
//   triple (3, 2, l=1/10, mu=2, parallel, a=1/2, b=4, ad=1/2000000, bd=4), K = 2 (rho 1.25e-7):
//     0.003333204033642604988257677 (342 states; the same elimination in mpmath at 40 digits,
//     as the rationals had not finished in ten minutes)
// The depths are the ones domain_outage_depth picks for these rho.
TEST(StorageAvailability, DomainOutagesAgainstExactFractions) {
  EXPECT_EQ(mcpilot::storage::domain_outage_depth(0.01), 6);
  EXPECT_EQ(mcpilot::storage::domain_outage_depth(1.25e-7), 2);
  EXPECT_THROW(mcpilot::storage::domain_outage_depth(0.5), std::domain_error);
  availability_rates mirror{2, 1, 1.0, 10.0, false, 0.0, 2.0, 5.0};
  mirror.domain_outage_rate = 1.0 / 20;
  mirror.domain_outage_end = 5;
  const availability_chain m(mirror);
  EXPECT_EQ(static_cast<double>(m.size()), mcpilot::storage::availability_states(mirror));
  EXPECT_NEAR(mcpilot::storage::steady_unavailability(m), 0.09627528910925734, 1e-12 * 0.0963);
  availability_rates triple{3, 2, 0.1, 2.0, true, 0.0, 0.5, 4.0};
  triple.domain_outage_rate = 1.0 / 2000000;
  triple.domain_outage_end = 4;
  const availability_chain t(triple);
  EXPECT_NEAR(mcpilot::storage::steady_unavailability(t), 0.003333204033642605, 1e-12 * 0.00333);
  // The domain outages add a little to the same triple without them.
  triple.domain_outage_rate = 0;
  EXPECT_GT(mcpilot::storage::steady_unavailability(t),
            mcpilot::storage::steady_unavailability(availability_chain(triple)));
}

// The naive simulation is the independent implementation of the rules (overlapping domain
// outages extend each other, a device out for both reasons is back when both have ended, a
// rebuilt device comes back whatever its domain does): it covers the chain's mission values.
TEST(StorageAvailability, NaiveCoversTheChainWithDomainOutages) {
  auto c = make({{"disks", 2},
                 {"tolerance", 1},
                 {"lifetime.mean_hours", 1.0},
                 {"repair.mean_hours", 0.1},
                 {"outage.rate_per_hour", 2.0},
                 {"outage.mean_hours", 0.2},
                 {"domains.count", 2},
                 {"domains.outage_rate_per_hour", 0.2},
                 {"domains.outage_mean_hours", 0.2},
                 {"mission_hours", 3.0}});
  const auto exact = c->model.analytic();
  ASSERT_EQ(exact.count("unavailability"), 1u);
  // The domain outages add to the mirror's 0.0719 without them (NaiveCoversTheMirror).
  EXPECT_GT(exact.at("unavailability"), 0.0719061);
  require_all(*c);
  const auto r = capped(*c, 73, 0.2);
  for (const char* q : {"unavailability", "unavailable_events_per_year", "loss_in_mission"})
    EXPECT_TRUE(covers(r, q, exact.at(q))) << q;
}

// Importance sampling with domain outages: three-way replication across three domains, server
// outages of 15 minutes at 1e-4 per hour and domain outages of 2 hours at 1e-5 per domain-hour;
// u ~ 1.7e-13, four times what the server outages alone give.
TEST(StorageAvailability, ImportanceCoversDomainOutages) {
  std::vector<mcpilot::test::named_value> values{{"disks", std::int64_t{3}},
                                                 {"tolerance", std::int64_t{2}},
                                                 {"lifetime.mean_hours", 100000.0},
                                                 {"repair.mean_hours", 1.0},
                                                 {"repair.parallel", true},
                                                 {"outage.rate_per_hour", 1e-4},
                                                 {"outage.mean_hours", 0.25},
                                                 {"domains.count", std::int64_t{3}},
                                                 {"domains.outage_rate_per_hour", 1e-5},
                                                 {"domains.outage_mean_hours", 2.0},
                                                 {"method", std::string("importance")}};
  auto c = mcpilot::test::make_configured<mcpilot::storage::storage_model>(values);
  const auto exact = c->model.analytic();
  ASSERT_EQ(exact.count("unavailability"), 1u);
  EXPECT_GT(exact.at("unavailability"), 1.5e-13);
  EXPECT_LT(exact.at("unavailability"), 2e-13);
  for (auto& q : c->spec.quantities())
    q.required = q.name == "unavailability" || q.name == "unavailable_events_per_year";
  const auto r = capped(*c, 79, 0.2, 2'000'000);
  EXPECT_TRUE(covers(r, "unavailability", exact.at("unavailability")));
  EXPECT_TRUE(covers(r, "unavailable_events_per_year", exact.at("unavailable_events_per_year")));
  EXPECT_TRUE(quantity(r, "unavailability").stats.converged);
}

// Importance sampling on the availability chain: the regenerative ratio covers the exact
// long-run values (the steady states above, as exact fractions), from a frequent case to a rare
// one where naive simulation would need ~1e13 cycles.
TEST(StorageAvailability, ImportanceCoversSteadyState) {
  struct is_case {
    std::vector<std::pair<const char*, value>> params;
    double steady_one_group;  // u of one group; nan: not checked against a fraction here
  };
  const double nan = std::nan("");
  const is_case cases[] = {
      {{{"disks", 2},
        {"tolerance", 1},
        {"lifetime.mean_hours", 1.0},
        {"repair.mean_hours", 0.1},
        {"outage.rate_per_hour", 2.0},
        {"outage.mean_hours", 0.2},
        {"groups", 3}},
       23.0 / 247},
      {{{"disks", 3},
        {"tolerance", 2},
        {"lifetime.mean_hours", 10.0},
        {"repair.mean_hours", 0.5},
        {"outage.rate_per_hour", 0.5},
        {"outage.mean_hours", 0.25}},
       868441145.0 / 218719978164.0},
      // Three-way replication, outages of 15 minutes at 1e-4 per device-hour: u ~ 1e-12.
      {{{"disks", 3},
        {"tolerance", 2},
        {"lifetime.mean_hours", 100000.0},
        {"repair.mean_hours", 1.0},
        {"repair.parallel", true},
        {"outage.rate_per_hour", 1e-4},
        {"outage.mean_hours", 0.25}},
       nan},
  };
  std::uint64_t seed = 80;
  for (const auto& k : cases) {
    std::vector<mcpilot::test::named_value> values;
    for (const auto& [name, v] : k.params) values.emplace_back(name, v.v);
    values.emplace_back("method", std::string("importance"));
    auto c = mcpilot::test::make_configured<mcpilot::storage::storage_model>(values);
    const auto exact = c->model.analytic();
    const int groups = c->spec.quantity_index("unavailability") >= 0 ? 1 : 0;
    ASSERT_EQ(groups, 1);
    if (!std::isnan(k.steady_one_group)) {
      const double G = k.params.size() > 6 ? 3 : 1;
      EXPECT_NEAR(exact.at("unavailability"), 1 - std::pow(1 - k.steady_one_group, G),
                  1e-12 * exact.at("unavailability"));
    }
    for (auto& q : c->spec.quantities())
      q.required = q.name == "unavailability" || q.name == "unavailable_events_per_year";
    const auto r = capped(*c, seed++, 0.2, 2'000'000);
    EXPECT_TRUE(covers(r, "unavailability", exact.at("unavailability")));
    EXPECT_TRUE(covers(r, "unavailable_events_per_year", exact.at("unavailable_events_per_year")));
    EXPECT_TRUE(quantity(r, "unavailability").stats.converged);
  }
}

}  // namespace MCPILOT_TEST_FILE

namespace MCPILOT_TEST_FILE {

// Without repair, the exact loss probability is a binomial tail for any lifetime law; the
// issue's value, 1.820726786e-4 for 10 disks tolerating 2 with Weibull(1.12, 461,386 h) over a
// year, was computed in Python with exact binomial coefficients. With rebuild errors h the
// failure into the last level loses data with probability h: tail(m) + h (tail(m - 1) - tail(m)),
// from tests/support's own binomial tail.
TEST(StorageUnrepaired, WeibullLossIsPrintedAsExact) {
  auto c = make({{"disks", 10},
                 {"tolerance", 2},
                 {"lifetime.distribution", "weibull"},
                 {"lifetime.shape", 1.12},
                 {"lifetime.scale_hours", 461386.0},
                 {"repair.distribution", "none"},
                 {"mission_hours", 8760.0}});
  EXPECT_NEAR(c->model.analytic().at("loss_in_mission"), 1.820726786e-4, 1e-9 * 1.820726786e-4);
  const double t2 = mcpilot::test::weibull_binomial_tail(10, 2, 8760, 1.12, 461386);
  const double t1 = mcpilot::test::weibull_binomial_tail(10, 1, 8760, 1.12, 461386);
  auto h = make({{"disks", 10},
                 {"tolerance", 2},
                 {"lifetime.distribution", "weibull"},
                 {"lifetime.shape", 1.12},
                 {"lifetime.scale_hours", 461386.0},
                 {"repair.distribution", "none"},
                 {"rebuild_error_probability", 0.1},
                 {"mission_hours", 8760.0}});
  const double want = t2 + 0.1 * (t1 - t2);
  EXPECT_NEAR(h->model.analytic().at("loss_in_mission"), want, 1e-9 * want);
  EXPECT_TRUE(
      covers(capped(*h, 90, 0.2, 2'000'000), "mttdl_hours", h->model.analytic().at("mttdl_hours")));
}

}  // namespace MCPILOT_TEST_FILE

namespace MCPILOT_TEST_FILE {

// placement.design's lifetime scenario has durability_nines too: with a one-year mission it is
// -log10 of its exact P(loss within the year), and the quantity is declared, optional.
TEST(StorageNines, PlacementLifetimeDeclaresIt) {
  auto c = mcpilot::test::make_configured<mcpilot::placement::placement_model>(
      {{"design", "fano"},
       {"tolerance", 1},
       {"scenario", "lifetime"},
       {"mission_hours", year},
       {"lifetime.mean_hours", 10000.0},
       {"repair.mean_hours", 50.0}});
  const auto exact = c->model.analytic();
  EXPECT_NEAR(exact.at("durability_nines"), -std::log10(exact.at("loss_in_mission")), 1e-12);
  const int q = c->spec.quantity_index("durability_nines");
  ASSERT_GE(q, 0);
  EXPECT_FALSE(c->spec.quantities()[static_cast<std::size_t>(q)].required);
}

}  // namespace MCPILOT_TEST_FILE
