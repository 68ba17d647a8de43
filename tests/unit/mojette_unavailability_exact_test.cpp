// Exact unavailability of a Mojette layout over a mission (models/mojette/exact_unavailability.cpp,
// on storage/occupancy.hpp) against answers found another way:
// - the occupancy integral against the closed form of a two-state chain;
// - the model's chain against chains written independently in Python and solved by scipy 1.10
//   (/usr/bin/python3; expm of the augmented generator [[Q, I], [0, 0]] T, whose top-right block
//   is the integral of e^{Qs} over [0, T]): RozoFS 4-of-6 on the count chain (failed, out), the
//   custom non-MDS layout of configs/mojette/custom-non-mds.toml on the chain of (up set, out
//   set) with recoverability by Katz's criterion written out again;
// - with failures negligible, the binomial integral of MojetteLifetime's outage test;
// - the event simulation, whose mean over 20,000 missions lies within 4.5 standard errors.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "mcpilot/rng.hpp"
#include "mojette/layout.hpp"
#include "mojette/recoverability.hpp"
#include "mojette/server_lifetime.hpp"
#include "storage/occupancy.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;
using kind = storage::duration_law::kind;

// An on/off chain (on -> off at a, off -> on at b) from on: the expected time off within [0, T]
// is a T / (a + b) - a (1 - e^{-(a+b) T}) / (a + b)^2; its entries into off, the integral of
// a P(on at s), are a (T - that).
TEST(Occupancy, TwoStateClosedForm) {
  const double a = 0.3, b = 1.7, T = 5;
  storage::sparse_chain c;
  c.states = 2;
  c.moves = {{0, 1, a}, {1, 0, b}};
  const auto r = storage::occupancy_integrals(c, 0, T, {{0, 1}, {a, 0}});
  const double off = a * T / (a + b) - a * -std::expm1(-(a + b) * T) / ((a + b) * (a + b));
  EXPECT_NEAR(r[0] / off, 1, 1e-12);
  EXPECT_NEAR(r[1] / (a * (T - off)), 1, 1e-12);
  // Absorption ends the reward: from a state that leaves only for absorption at rate k, the time
  // spent there by T is (1 - e^{-kT}) / k.
  storage::sparse_chain d;
  d.states = 1;
  d.moves = {{0, 1, 0.5}};
  EXPECT_NEAR(storage::occupancy_integrals(d, 0, 4, {{1}})[0] / (-std::expm1(-2.0) / 0.5), 1,
              1e-12);
  EXPECT_THROW(storage::occupancy_integrals(d, 1, 4, {{1}}), std::invalid_argument);
  EXPECT_THROW(storage::occupancy_integrals(d, 0, 4, {{1, 2}}), std::invalid_argument);
}

mojette::lifetime_scenario scenario(std::size_t servers, double mttf, double repair, bool parallel,
                                    double outage_rate, double outage_mean) {
  mojette::lifetime_scenario s;
  s.servers = servers;
  s.lifetime = {kind::exponential, mttf};
  s.repair = {kind::exponential, repair};
  s.parallel = parallel;
  s.mission_hours = 1000;
  s.outage.rate = outage_rate;
  s.outage.duration = {kind::exponential, outage_mean};
  return s;
}

std::vector<char> rozofs_4_6() {
  return mojette::recoverable_sets(mojette::block_grid(4096, 4), mojette::rozofs_layout(4).dirs);
}

std::vector<char> custom_non_mds() {
  const std::vector<mojette::direction> dirs{{1, 1}, {-1, 1}, {1, 2}, {-1, 2}, {3, 1}};
  return mojette::recoverable_sets(mojette::block_grid(128, 4), dirs);
}

// RozoFS 4-of-6, MTTF 1,000 h, rebuilds of 10 h, outages at 0.02 per server-hour for 10 h, over
// 1,000 h. scipy on the count chain: serial 0.0683212841392565 (153.06146402876766 periods a
// year), parallel 0.0679217343213684 (153.2194539720505); MTTF 100 h, rebuilds of 20 h, serial,
// over 200 h: 0.09368489023297782 (152.53616082079628). The script is kept beside the run
// notes as unavail.py; its chain is written from docs/models/mojette.md's rules alone.
TEST(MojetteUnavailabilityExact, RozofsAgainstScipy) {
  const auto rec = rozofs_4_6();
  const auto serial = mojette::exact_unavailability(scenario(6, 1000, 10, false, 0.02, 10), rec);
  ASSERT_TRUE(serial);
  EXPECT_NEAR(serial->unavailability / 0.0683212841392565, 1, 1e-9);
  EXPECT_NEAR(serial->events_per_year / 153.06146402876766, 1, 1e-9);
  const auto parallel = mojette::exact_unavailability(scenario(6, 1000, 10, true, 0.02, 10), rec);
  ASSERT_TRUE(parallel);
  EXPECT_NEAR(parallel->unavailability / 0.0679217343213684, 1, 1e-9);
  EXPECT_NEAR(parallel->events_per_year / 153.2194539720505, 1, 1e-9);
  // validate's mojette-exact case: MTTF 100 h, rebuilds of 20 h, serial, over 200 h.
  auto short_lived = scenario(6, 100, 20, false, 0.02, 10);
  short_lived.mission_hours = 200;
  const auto v = mojette::exact_unavailability(short_lived, rec);
  ASSERT_TRUE(v);
  EXPECT_NEAR(v->unavailability / 0.09368489023297782, 1, 1e-9);
  EXPECT_NEAR(v->events_per_year / 152.53616082079628, 1, 1e-9);
}

// Failures negligible (MTTF 10^15 h): each server is out at t with probability
// q(t) = p (1 - e^{-st}), p = o / (o + 1/u), s = o + 1/u, independently, and the block is
// unavailable while 3 or more are out; scipy's chain gives 0.061390157053673525, the binomial
// integral of MojetteLifetime.UnavailabilityUnderOutagesAgainstItsIntegral 0.061390.
TEST(MojetteUnavailabilityExact, OutagesAloneAreTheBinomialIntegral) {
  const auto e =
      mojette::exact_unavailability(scenario(6, 1e15, 24, false, 0.02, 10), rozofs_4_6());
  ASSERT_TRUE(e);
  EXPECT_NEAR(e->unavailability / 0.061390157053673525, 1, 1e-9);
  EXPECT_NEAR(e->events_per_year / 139.4908350955589, 1, 1e-9);
}

// The custom non-MDS layout (recoverable by Katz when sum |p| >= 4 or sum |q| >= 4), parallel
// rebuilds, outages at 0.05 per server-hour for 5 h: scipy on 212 states gives
// 0.03531346870680876 and 167.34092095237497 periods a year. Serial rebuilds of a layout that
// is not a threshold one have no exact value (the queue's order would be part of the state).
TEST(MojetteUnavailabilityExact, NonMdsLayoutAgainstScipy) {
  const auto rec = custom_non_mds();
  const auto e = mojette::exact_unavailability(scenario(5, 1000, 10, true, 0.05, 5), rec);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->states, 212u);
  EXPECT_NEAR(e->unavailability / 0.03531346870680876, 1, 1e-9);
  EXPECT_NEAR(e->events_per_year / 167.34092095237497, 1, 1e-9);
  EXPECT_FALSE(mojette::exact_unavailability(scenario(5, 1000, 10, false, 0.05, 5), rec));
}

// The long run, a lost layout replaced at once by a new one: RozoFS 4-of-6 as above (MTTF
// 1,000 h, rebuilds of 10 h, outages at 1/50 per server-hour of 10 h), solved in exact rational
// arithmetic on the count chain (tests/known/mojette_steady.py):
//   serial:   u = 8043984153204014564897540 / 115458489384586148529916187,
//             entries per hour = 153502850451421450172859506 / 8659386703843961139743714025;
//   parallel: u = 1631746965408779216589960 / 23619863805795393951117083,
//             entries per hour = 139816881990643088741116963046 / 7899072953253124622102330482275.
TEST(MojetteUnavailabilityExact, LongRunAgainstExactFractions) {
  const auto rec = rozofs_4_6();
  struct known {
    bool parallel;
    double u, per_hour;
  };
  for (const auto& k :
       {known{false, 8043984153204014564897540.0 / 115458489384586148529916187.0,
              153502850451421450172859506.0 / 8659386703843961139743714025.0},
        known{true, 1631746965408779216589960.0 / 23619863805795393951117083.0,
              139816881990643088741116963046.0 / 7899072953253124622102330482275.0}}) {
    const auto e = mojette::exact_unavailability(scenario(6, 1000, 10, k.parallel, 0.02, 10), rec);
    ASSERT_TRUE(e && e->steady_unavailability && e->steady_events_per_year);
    EXPECT_NEAR(*e->steady_unavailability / k.u, 1, 1e-12) << k.parallel;
    EXPECT_NEAR(*e->steady_events_per_year / (k.per_hour * 8766), 1, 1e-12) << k.parallel;
  }
}

// Outages that are not exponential, or no outages: no exact value.
TEST(MojetteUnavailabilityExact, OnlyForExponentialOutages) {
  auto s = scenario(6, 1000, 10, true, 0.02, 10);
  s.outage.duration = {kind::deterministic, 10};
  EXPECT_FALSE(mojette::exact_unavailability(s, rozofs_4_6()));
  s.outage.rate = 0;
  EXPECT_FALSE(mojette::exact_unavailability(s, rozofs_4_6()));
}

// The event simulation's mean unavailability over 20,000 missions of the serial RozoFS case.
TEST(MojetteUnavailabilityExact, SimulationAgrees) {
  const auto s = scenario(6, 1000, 10, false, 0.02, 10);
  const auto rec = rozofs_4_6();
  const double exact = mojette::exact_unavailability(s, rec)->unavailability;
  const int N = 20'000;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < N; ++i) {
    philox_stream rng(202, static_cast<std::uint64_t>(i));
    const double x = mojette::simulate_mission(s, rec, rng).unavailable_hours / s.mission_hours;
    sum += x;
    sum2 += x * x;
  }
  const double mean = sum / N, se = std::sqrt((sum2 / N - mean * mean) / N);
  EXPECT_NEAR(mean, exact, 4.5 * se);
}

}  // namespace MCPILOT_TEST_FILE
