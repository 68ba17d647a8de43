#pragma once
// The exact availability of one redundancy group with exponential lifetimes, rebuilds and
// transient outages: a Markov chain on (f failed, o out) beside the simulation, as group_chain.hpp
// is for loss alone.
//
// States (f, o) with f = 0..tolerance and o = 0..disks - f; u = disks - f - o devices are up.
// - a failure of an up device (rate u lambda) or of an out one (o lambda, its outage ends with it)
//   moves f to f + 1; from f = tolerance it loses data, and into f = tolerance it loses data with
//   the rebuild-error probability h (group_chain.hpp);
// - an outage starts at rate u alpha, and each ends at rate beta (o beta in all);
// - a rebuild ends at rate mu, or f mu when rebuilds run in parallel.
// The group's data is unavailable in the states with f + o > tolerance. Loss is absorbing; lost
// data is counted by the loss quantities, not as unavailable.
//
// Domain outages, with one device of the group in each domain (outage_laws.hpp): a domain's
// outages arrive at alpha_d per domain-hour whether or not it is already out, each lasts an
// exponential time of rate beta_d, and a working device in the domain is out until every one
// of them has ended and its own outage too. So each working device carries its own outage (0 or
// 1; one starts only on a device that is not out at all) and the number k of its domain's
// outages running, an M/M/infinity count. A state is the failed count f and how many working
// devices are of each type (own, k); a failure removes a device of any type, a rebuilt device
// comes back up whatever its domain is doing (as the simulation does). k is truncated at a depth
// K, where an arrival at K is dropped: K is the smallest depth at which the share of a domain's
// outage time with more than K outages running, about rho^K / (K + 1)! for rho = alpha_d /
// beta_d, is below 1e-13 (domain_outage_depth). The values then move by less than 1e-12
// relative: a mirror with rho = 1/100 gave 1.7e-12 between K = 4 and 6, where K = 4's share is
// 8e-13 (tests/unit/storage_availability_test.cpp).

#include <cstddef>
#include <utility>
#include <vector>

namespace mcpilot::storage {

struct availability_rates {
  int disks = 0;
  int tolerance = 0;
  double failure_rate = 0;  // lambda per device
  double repair_rate = 0;   // mu; 0 = no repair
  bool parallel = false;
  double rebuild_error = 0;       // h
  double outage_rate = 0;         // alpha per up device
  double outage_end = 0;          // beta = 1 / mean outage
  double domain_outage_rate = 0;  // alpha_d per domain, one device of the group per domain
  double domain_outage_end = 0;   // beta_d = 1 / mean domain outage
};

// The depth K at which domain outages running together are truncated (above); throws
// std::domain_error when rho = alpha_d / beta_d needs more than 8.
int domain_outage_depth(double rho);

// The number of states availability_chain(r) has, computed without building it (a double: it
// grows as a binomial coefficient in the devices when there are domain outages).
double availability_states(const availability_rates& r);

struct availability_transition {
  std::size_t to;  // a state index, or loss_state
  double rate;
};

class availability_chain {
 public:
  static constexpr std::size_t loss_state = static_cast<std::size_t>(-1);
  explicit availability_chain(const availability_rates& r);
  // A chain given by its transitions, state 0 all up, for systems whose state is not one
  // group's (f, o) (down_out_chain.hpp): the steady-state routines below apply to
  // it; index(), failed() and out() do not.
  availability_chain(std::vector<std::vector<availability_transition>> out,
                     std::vector<char> unavailable)
      : unavailable_(std::move(unavailable)), out_(std::move(out)) {}

  std::size_t size() const { return out_.size(); }
  std::size_t index(int f, int o) const;  // without domain outages only
  bool unavailable(std::size_t s) const { return unavailable_[s]; }
  int failed(std::size_t s) const { return f_[s]; }
  int out(std::size_t s) const { return o_[s]; }
  const std::vector<availability_transition>& from(std::size_t s) const { return out_[s]; }
  double exit_rate(std::size_t s) const;

 private:
  availability_rates r_;
  std::vector<std::size_t> first_;  // index of (f, 0)
  std::vector<char> unavailable_;
  std::vector<int> f_, o_;
  std::vector<std::vector<availability_transition>> out_;

  void build_with_domain_outages();
};

// Long-run fraction of time unavailable, a lost group being replaced at once by a new one (all
// up): the regenerative ratio E[time unavailable in a cycle] / E[cycle] over cycles from all up,
// each expectation solved by subtraction-free elimination (ctmc.hpp). O(S^3) for S states.
double steady_unavailability(const availability_chain& c);
// Long-run rate of entries into the unavailable states, per hour, the same way.
double steady_unavailable_entries(const availability_chain& c);

// From all up at 0, loss absorbing, over [0, T]:
struct mission_availability {
  double unavailable_fraction = 0;  // (1/T) integral of P(unavailable at t)
  double unavailable_periods = 0;   // expected number of entries into the unavailable states
};
// By uniformization: integral_0^T p(t) dt = (1/L) sum_k P(N(L T) > k) v_k with v_k the state
// probabilities after k jumps (all terms positive). Throws std::domain_error past `max_jumps`.
mission_availability mission_unavailability(const availability_chain& c, double T,
                                            double max_jumps = 2e7);

}  // namespace mcpilot::storage
