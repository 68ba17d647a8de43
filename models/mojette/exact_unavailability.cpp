#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "mojette/recoverability.hpp"
#include "mojette/server_lifetime.hpp"
#include "storage/availability_chain.hpp"
#include "storage/nines.hpp"
#include "storage/occupancy.hpp"

namespace mcpilot::mojette {

std::optional<exact_availability> exact_unavailability(const lifetime_scenario& s,
                                                       std::span<const char> recoverable) {
  using kind = storage::duration_law::kind;
  if (!s.outage.active() || s.outage.duration.type != kind::exponential) return std::nullopt;
  if (s.lifetime.type != kind::exponential) return std::nullopt;
  if (s.repair.type != kind::exponential && s.repair.type != kind::none) return std::nullopt;
  const std::size_t n = s.servers;
  // All up alone has 2^n out-sets, past the 20,000 states below from n = 15 on: no enumeration of
  // the 2^n up-sets is started there.
  if (n > 14 || !recoverable[(std::uint64_t{1} << n) - 1]) return std::nullopt;
  const double lambda = 1 / s.lifetime.mean,
               mu = s.repair.type == kind::none ? 0.0 : 1 / s.repair.mean;
  const double alpha = s.outage.rate, beta = 1 / s.outage.duration.mean;
  const bool serial = !s.parallel && mu > 0;
  if (serial && !recoverability_threshold(recoverable, n).count_only) return std::nullopt;

  // States (up, out), out a subset of up, up recoverable; the index of each.
  const std::uint64_t all = (std::uint64_t{1} << n) - 1;
  constexpr std::size_t max_states = 20'000;
  std::size_t count = 0;
  for (std::uint64_t up = 0; up <= all; ++up)
    if (recoverable[up]) {
      count += std::size_t{1} << std::popcount(up);
      if (count > max_states) return std::nullopt;
    }
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::size_t> index;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> states;
  for (std::uint64_t up = 0; up <= all; ++up) {
    if (!recoverable[up]) continue;
    // Every subset of up, by the usual descending walk.
    for (std::uint64_t out = up;; out = (out - 1) & up) {
      index[{up, out}] = states.size();
      states.emplace_back(up, out);
      if (out == 0) break;
    }
  }
  const auto unavailable = [&](std::uint64_t up, std::uint64_t out) {
    return !recoverable[up & ~out];
  };
  storage::sparse_chain c;
  c.states = states.size();
  std::vector<double> down(states.size(), 0.0), entries(states.size(), 0.0);
  const auto add = [&](std::size_t a, std::uint64_t up, std::uint64_t out, double rate) {
    if (!(rate > 0)) return;
    if (!recoverable[up]) {
      c.moves.push_back({a, c.states, rate});
      return;
    }
    c.moves.push_back({a, index.at({up, out}), rate});
    if (!unavailable(states[a].first, states[a].second) && unavailable(up, out)) entries[a] += rate;
  };
  for (std::size_t a = 0; a < states.size(); ++a) {
    const auto [up, out] = states[a];
    down[a] = unavailable(up, out) ? 1.0 : 0.0;
    const double failed = static_cast<double>(n - static_cast<std::size_t>(std::popcount(up)));
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t bit = std::uint64_t{1} << i;
      if (!(up & bit)) {
        add(a, up | bit, out, serial ? mu / failed : mu);
      } else if (out & bit) {
        add(a, up & ~bit, out & ~bit, lambda);  // a failure ends the outage
        add(a, up, out & ~bit, beta);
      } else {
        add(a, up & ~bit, out, lambda);
        add(a, up, out | bit, alpha);
      }
    }
  }
  // The long run, a lost layout replaced at once by a new one with every server up: the
  // regenerative ratio over cycles from all up (storage/availability_chain.hpp), where its dense
  // solve is cheap. The chain is relabelled so that all up is state 0.
  std::optional<double> steady, steady_entries;
  if (states.size() <= 600) {
    const std::size_t start = index.at({all, 0});
    const auto label = [start](std::size_t i) { return i == start ? 0 : i == 0 ? start : i; };
    std::vector<std::vector<storage::availability_transition>> out(states.size());
    std::vector<char> in_down(states.size());
    for (const auto& m : c.moves) {
      const std::size_t from = label(m.from), to = m.to == c.states ? 0 : label(m.to);
      if (from != to) out[from].push_back({to, m.rate});
    }
    for (std::size_t i = 0; i < states.size(); ++i) in_down[label(i)] = down[i] > 0 ? 1 : 0;
    const storage::availability_chain chain(std::move(out), std::move(in_down));
    steady = storage::steady_unavailability(chain);
    steady_entries = storage::steady_unavailable_entries(chain) * storage::hours_per_year;
  }
  double work = 0, big = 0;
  {
    std::vector<double> exit(states.size(), 0.0);
    for (const auto& m : c.moves) exit[m.from] += m.rate;
    for (double e : exit) big = std::max(big, e);
    const double lt = big * s.mission_hours;
    work = static_cast<double>(c.moves.size()) * (lt + 12 * std::sqrt(lt) + 40);
  }
  if (work > 1e9) return std::nullopt;
  try {
    const auto r =
        storage::occupancy_integrals(c, index.at({all, 0}), s.mission_hours, {down, entries});
    exact_availability e;
    e.unavailability = r[0] / s.mission_hours;
    e.events_per_year = r[1] / (s.mission_hours / storage::hours_per_year);
    e.states = states.size();
    e.steady_unavailability = steady;
    e.steady_events_per_year = steady_entries;
    return e;
  } catch (const std::domain_error&) {
    return std::nullopt;
  }
}

}  // namespace mcpilot::mojette
