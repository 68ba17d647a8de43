#include "storage/availability_chain.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "storage/ctmc.hpp"

namespace mcpilot::storage {

availability_chain::availability_chain(const availability_rates& r) : r_(r) {
  const int n = r.disks, m = r.tolerance;
  if (n < 1 || m < 0 || m >= n)
    throw std::invalid_argument("availability_chain: need 0 <= tolerance < disks");
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

std::size_t availability_chain::index(int f, int o) const {
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
  double big = 0;
  for (std::size_t s = 0; s < n; ++s) big = std::max(big, c.exit_rate(s));
  mission_availability r;
  if (big == 0 || !(T > 0)) return r;
  const double lt = big * T;
  if (lt > max_jumps)
    throw std::domain_error(
        "mission_unavailability: too many uniformization steps (L T = " + std::to_string(lt) + ")");
  const double spread = 12 * std::sqrt(lt) + 40;
  const auto lo = static_cast<std::size_t>(std::max(0.0, std::floor(lt - spread)));
  const auto hi = static_cast<std::size_t>(std::ceil(lt + spread));
  // tail[k - lo] = P(N > k) for k in [lo, hi]; 1 below lo (the mass left out is under 1e-30).
  std::vector<double> w(hi - lo + 1);
  double weight = std::exp(-lt + static_cast<double>(lo) * std::log(lt) -
                           std::lgamma(static_cast<double>(lo) + 1));
  double sum_w = 0;
  for (std::size_t k = lo; k <= hi; ++k) {
    w[k - lo] = weight;
    sum_w += weight;
    weight *= lt / static_cast<double>(k + 1);
  }
  std::vector<double> tail(w.size());
  double above = 0;
  for (std::size_t i = w.size(); i-- > 0;) {
    tail[i] = above / sum_w;
    above += w[i];
  }
  const std::vector<double> entry = entry_rates(c);
  std::vector<double> stay(n);
  for (std::size_t s = 0; s < n; ++s) stay[s] = std::max(0.0, 1.0 - c.exit_rate(s) / big);
  std::vector<double> p(n, 0.0), next(n);
  p[0] = 1.0;
  double down = 0, entries = 0;
  for (std::size_t k = 0; k <= hi; ++k) {
    const double tk = k < lo ? 1.0 : tail[k - lo];
    double d = 0, e = 0;
    for (std::size_t s = 0; s < n; ++s) {
      if (c.unavailable(s))
        d += p[s];
      else
        e += p[s] * entry[s];
    }
    down += tk * d;
    entries += tk * e;
    for (std::size_t s = 0; s < n; ++s) next[s] = p[s] * stay[s];
    for (std::size_t s = 0; s < n; ++s) {
      if (p[s] == 0) continue;
      for (const auto& tr : c.from(s))
        if (tr.to != availability_chain::loss_state) next[tr.to] += p[s] * tr.rate / big;
    }
    p.swap(next);
  }
  r.unavailable_fraction = down / big / T;
  r.unavailable_periods = entries / big;
  return r;
}

}  // namespace mcpilot::storage
