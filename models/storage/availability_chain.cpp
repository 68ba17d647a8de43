#include "storage/availability_chain.hpp"

#include <algorithm>
#include <boost/math/special_functions/binomial.hpp>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "mcpilot/number_text.hpp"
#include "storage/ctmc.hpp"
#include "storage/occupancy.hpp"

namespace mcpilot::storage {

int domain_outage_depth(double rho) {
  // rho^K / (K + 1)!, stepped up from K = 1.
  double share = rho / 2;
  for (int k = 1; k <= 8; ++k) {
    if (share <= 1e-13) return k;
    share *= rho / (k + 2);
  }
  throw std::domain_error(
      "domain outages overlap too often for the availability chain (rate x mean duration = " +
      number_text(rho) + "; it is cut at 8 outages running, so about 0.07 at most)");
}

namespace {

// Working-device types with domain outages: own outage (0, 1) times domain outages running
// (0..K); type 0 is up.
int type_of(int own, int k, int depth) {
  return own * (depth + 1) + k;
}

}  // namespace

double availability_states(const availability_rates& r) {
  const int n = r.disks, m = r.tolerance;
  if (!(r.domain_outage_rate > 0)) return (m + 1.0) * (n + 1.0) - m * (m + 1.0) / 2;
  const int types = 2 * (domain_outage_depth(r.domain_outage_rate / r.domain_outage_end) + 1);
  double count = 0;
  for (int f = 0; f <= m; ++f)
    count += boost::math::binomial_coefficient<double>(static_cast<unsigned>(n - f + types - 1),
                                                       static_cast<unsigned>(types - 1));
  return count;
}

availability_chain::availability_chain(const availability_rates& r) : r_(r) {
  const int n = r.disks, m = r.tolerance;
  if (n < 1 || m < 0 || m >= n)
    throw std::invalid_argument("availability_chain: need 0 <= tolerance < disks");
  if (r.domain_outage_rate > 0) {
    build_with_domain_outages();
    return;
  }
  std::size_t count = 0;
  for (int f = 0; f <= m; ++f) {
    first_.push_back(count);
    count += static_cast<std::size_t>(n - f + 1);
  }
  out_.resize(count);
  unavailable_.resize(count);
  f_.resize(count);
  o_.resize(count);
  for (int f = 0; f <= m; ++f)
    for (int o = 0; o <= n - f; ++o) {
      const std::size_t s = index(f, o);
      unavailable_[s] = f + o > m;
      f_[s] = f;
      o_[s] = o;
      auto& t = out_[s];
      const int u = n - f - o;
      // A failure from `o2` out devices left: loss, or f + 1 (with h into the last level).
      auto fail = [&](double rate, int o2) {
        if (rate <= 0) return;
        if (f == m) {
          t.push_back({loss_state, rate});
        } else if (f + 1 == m && r.rebuild_error > 0) {
          t.push_back({index(f + 1, o2), rate * (1 - r.rebuild_error)});
          t.push_back({loss_state, rate * r.rebuild_error});
        } else {
          t.push_back({index(f + 1, o2), rate});
        }
      };
      fail(u * r.failure_rate, o);
      fail(o * r.failure_rate, o - 1);
      if (u > 0 && r.outage_rate > 0) t.push_back({index(f, o + 1), u * r.outage_rate});
      if (o > 0) t.push_back({index(f, o - 1), o * r.outage_end});
      if (f > 0 && r.repair_rate > 0)
        t.push_back({index(f - 1, o), (r.parallel ? f : 1) * r.repair_rate});
    }
}

void availability_chain::build_with_domain_outages() {
  const auto& r = r_;
  const int n = r.disks, m = r.tolerance;
  const int depth = domain_outage_depth(r.domain_outage_rate / r.domain_outage_end);
  const int types = 2 * (depth + 1);
  if (availability_states(r) > 1e6)
    throw std::domain_error("availability_chain: too many states with domain outages");
  // Every state (f, counts per type), all up first; an index by the state's key.
  using state = std::vector<int>;  // [f, counts...]
  std::vector<state> states;
  std::map<state, std::size_t> where;
  for (int f = 0; f <= m; ++f) {
    state x(static_cast<std::size_t>(types) + 1, 0);
    x[0] = f;
    // The counts of `types` kinds summing to n - f, type 0 first taking all.
    auto fill = [&](auto&& self, int type, int left) -> void {
      if (type == types - 1) {
        x[static_cast<std::size_t>(type) + 1] = left;
        where.emplace(x, states.size());
        states.push_back(x);
        return;
      }
      for (int c = left; c >= 0; --c) {
        x[static_cast<std::size_t>(type) + 1] = c;
        self(self, type + 1, left - c);
      }
    };
    fill(fill, 0, n - f);
  }
  const std::size_t count = states.size();
  out_.resize(count);
  unavailable_.resize(count);
  f_.resize(count);
  o_.resize(count);
  for (std::size_t s = 0; s < count; ++s) {
    const state& x = states[s];
    const int f = x[0];
    const int up = x[1];
    f_[s] = f;
    o_[s] = n - f - up;
    unavailable_[s] = f + o_[s] > m;
    auto& t = out_[s];
    auto moved = [&](int from_type, int to_type, int df) {
      state y = x;
      y[0] += df;
      if (from_type >= 0) --y[static_cast<std::size_t>(from_type) + 1];
      if (to_type >= 0) ++y[static_cast<std::size_t>(to_type) + 1];
      return where.at(y);
    };
    for (int own = 0; own <= 1; ++own)
      for (int k = 0; k <= depth; ++k) {
        const int type = type_of(own, k, depth);
        const int c = x[static_cast<std::size_t>(type) + 1];
        if (c == 0) continue;
        // A failure: loss, or f + 1 (with h into the last level), as without domain outages.
        const double fail = c * r.failure_rate;
        if (fail > 0) {
          if (f == m) {
            t.push_back({loss_state, fail});
          } else if (f + 1 == m && r.rebuild_error > 0) {
            t.push_back({moved(type, -1, 1), fail * (1 - r.rebuild_error)});
            t.push_back({loss_state, fail * r.rebuild_error});
          } else {
            t.push_back({moved(type, -1, 1), fail});
          }
        }
        if (own == 0 && k == 0 && r.outage_rate > 0)
          t.push_back({moved(type, type_of(1, 0, depth), 0), c * r.outage_rate});
        if (own == 1) t.push_back({moved(type, type_of(0, k, depth), 0), c * r.outage_end});
        if (k < depth)
          t.push_back({moved(type, type_of(own, k + 1, depth), 0), c * r.domain_outage_rate});
        if (k > 0)
          t.push_back({moved(type, type_of(own, k - 1, depth), 0), c * k * r.domain_outage_end});
      }
    if (f > 0 && r.repair_rate > 0)
      t.push_back({moved(-1, 0, -1), (r.parallel ? f : 1) * r.repair_rate});
  }
}

std::size_t availability_chain::index(int f, int o) const {
  if (first_.empty())
    throw std::logic_error("availability_chain::index: a chain with domain outages");
  return first_[static_cast<std::size_t>(f)] + static_cast<std::size_t>(o);
}

double availability_chain::exit_rate(std::size_t s) const {
  double q = 0;
  for (const auto& t : out_[s]) q += t.rate;
  return q;
}

namespace {

// Rates into the unavailable states from each available state.
std::vector<double> entry_rates(const availability_chain& c) {
  std::vector<double> entry(c.size(), 0.0);
  for (std::size_t s = 0; s < c.size(); ++s) {
    if (c.unavailable(s)) continue;
    for (const auto& tr : c.from(s))
      if (tr.to != availability_chain::loss_state && c.unavailable(tr.to)) entry[s] += tr.rate;
  }
  return entry;
}

// E[integral over a cycle of reward(X_t)] / E[cycle length], cycles from all up (state 0) until
// all up again or a loss (the group replaced at once). The states other than 0 form an absorbing
// chain whose absorption is that return.
double regenerative_ratio(const availability_chain& c, const std::vector<double>& reward) {
  const std::size_t n = c.size();
  double q0 = 0;
  for (const auto& tr : c.from(0)) q0 += tr.rate;
  if (q0 == 0) return reward[0];
  std::vector<double> time(n - 1, 0.0), gain(n - 1, 0.0);
  if (n > 1) {
    transient_chain t(n - 1);
    for (std::size_t s = 1; s < n; ++s)
      for (const auto& tr : c.from(s)) {
        if (tr.to == availability_chain::loss_state || tr.to == 0)
          t.absorb(s - 1) += tr.rate;
        else
          t.rate(s - 1, tr.to - 1) += tr.rate;
      }
    time = solve_fundamental(t, std::vector<double>(n - 1, 1.0));
    gain = solve_fundamental(t, std::vector<double>(reward.begin() + 1, reward.end()));
  }
  // Both expectations times q0: E[cycle] q0 = 1 + sum_k q0k x_k, and likewise for the reward.
  double cycle = 1, total = reward[0];
  for (const auto& tr : c.from(0)) {
    if (tr.to == availability_chain::loss_state) continue;
    cycle += tr.rate * time[tr.to - 1];
    total += tr.rate * gain[tr.to - 1];
  }
  return total / cycle;
}

}  // namespace

double steady_unavailability(const availability_chain& c) {
  std::vector<double> in_u(c.size());
  for (std::size_t s = 0; s < c.size(); ++s) in_u[s] = c.unavailable(s) ? 1.0 : 0.0;
  return regenerative_ratio(c, in_u);
}

double steady_unavailable_entries(const availability_chain& c) {
  return regenerative_ratio(c, entry_rates(c));
}

mission_availability mission_unavailability(const availability_chain& c, double T,
                                            double max_jumps) {
  const std::size_t n = c.size();
  mission_availability r;
  if (!(T > 0)) return r;
  sparse_chain s;
  s.states = n;
  for (std::size_t i = 0; i < n; ++i)
    for (const auto& tr : c.from(i))
      if (tr.to != i)  // a move to itself changes nothing
        s.moves.push_back({i, tr.to == availability_chain::loss_state ? n : tr.to, tr.rate});
  std::vector<double> down(n, 0.0), entries = entry_rates(c);
  for (std::size_t i = 0; i < n; ++i)
    if (c.unavailable(i)) {
      down[i] = 1;
      entries[i] = 0;
    }
  const auto x = occupancy_integrals(s, 0, T, {down, entries}, max_jumps);
  r.unavailable_fraction = x[0] / T;
  r.unavailable_periods = x[1];
  return r;
}

}  // namespace mcpilot::storage
