#include "mojette/server_lifetime.hpp"

#include <algorithm>
#include <bit>
#include <boost/random/exponential_distribution.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "mojette/recoverability.hpp"
#include "storage/ctmc.hpp"
#include "storage/group_chain.hpp"

namespace mcpilot::mojette {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
using kind = storage::duration_law::kind;

}  // namespace

mission_outcome simulate_mission(const lifetime_scenario& s, std::span<const char> recoverable,
                                 philox_stream& rng) {
  const std::size_t n = s.servers;
  const bool repairs = s.repair.type != kind::none;
  const bool outages = s.outage.active();
  std::vector<double> fail_at(n), done_at(n, inf);
  for (auto& f : fail_at) f = s.lifetime.sample(rng);
  // Outages: the end of each server's outage while it is out, and the start of its next one
  // while it is up and in.
  std::vector<double> back_at(n, inf), out_at(n, inf);
  const auto next_outage = [&](double t) {
    return t + boost::random::exponential_distribution<double>(s.outage.rate)(rng);
  };
  if (outages)
    for (auto& o : out_at) o = next_outage(0);
  std::vector<std::size_t> queue;  // serial rebuilds: failed servers, head first
  std::size_t head = 0;
  double head_done = inf;
  std::uint64_t up = (std::uint64_t{1} << n) - 1, out = 0;
  mission_outcome result;
  double since = inf;  // start of the current unavailable period
  const auto note = [&](double t) {
    const bool unavailable = !recoverable[up & ~out];
    if (unavailable && since == inf) {
      since = t;
      ++result.unavailable_periods;
    } else if (!unavailable && since < inf) {
      result.unavailable_hours += t - since;
      since = inf;
    }
  };
  const auto finish = [&](bool lost, double t) {
    if (since < inf) result.unavailable_hours += std::min(t, s.mission_hours) - since;
    result.lost = lost;
    result.survivors = up;
    return result;
  };
  while (true) {
    const auto f = std::min_element(fail_at.begin(), fail_at.end());
    std::size_t rebuilt = n;
    double t_rebuild = inf;
    if (s.parallel) {
      const auto d = std::min_element(done_at.begin(), done_at.end());
      rebuilt = static_cast<std::size_t>(d - done_at.begin());
      t_rebuild = *d;
    } else if (head < queue.size()) {
      rebuilt = queue[head];
      t_rebuild = head_done;
    }
    double t = std::min(*f, t_rebuild);
    std::size_t moved = n;  // a server whose outage starts or ends at t
    bool starts = false;
    if (outages)
      for (std::size_t i = 0; i < n; ++i) {
        if (out_at[i] < t) t = out_at[i], moved = i, starts = true;
        if (back_at[i] < t) t = back_at[i], moved = i, starts = false;
      }
    if (t > s.mission_hours) return finish(false, s.mission_hours);
    if (moved < n) {
      const std::uint64_t bit = std::uint64_t{1} << moved;
      if (starts) {
        out |= bit;
        out_at[moved] = inf;
        back_at[moved] = t + s.outage.duration.sample(rng);
      } else {
        out &= ~bit;
        back_at[moved] = inf;
        out_at[moved] = next_outage(t);
      }
      note(t);
    } else if (t == *f) {
      const auto i = static_cast<std::size_t>(f - fail_at.begin());
      fail_at[i] = inf;
      up &= ~(std::uint64_t{1} << i);
      out &= ~(std::uint64_t{1} << i);  // a failure ends an outage
      back_at[i] = out_at[i] = inf;
      if (!recoverable[up]) return finish(true, t);
      note(t);
      if (!repairs) continue;
      if (s.parallel) {
        done_at[i] = t + s.repair.sample(rng);
      } else {
        queue.push_back(i);
        if (queue.size() - head == 1) head_done = t + s.repair.sample(rng);
      }
    } else {
      up |= std::uint64_t{1} << rebuilt;
      fail_at[rebuilt] = t + s.lifetime.sample(rng);
      if (s.parallel) {
        done_at[rebuilt] = inf;
      } else if (++head == queue.size()) {
        queue.clear();
        head = 0;
        head_done = inf;
      } else {
        head_done = t + s.repair.sample(rng);
      }
      if (outages) out_at[rebuilt] = next_outage(t);
      note(t);
    }
  }
}

std::optional<double> exact_loss_in_mission(const lifetime_scenario& s,
                                            std::span<const char> recoverable) {
  if (s.lifetime.type != kind::exponential) return std::nullopt;
  if (s.repair.type != kind::exponential && s.repair.type != kind::none) return std::nullopt;
  const std::size_t n = s.servers;
  const double lambda = 1 / s.lifetime.mean;
  const double mu = s.repair.type == kind::none ? 0.0 : 1 / s.repair.mean;
  const threshold_info t = recoverability_threshold(recoverable, n);
  if (t.count_only && t.min_survivors >= 1 && t.min_survivors <= n) {
    storage::group_rates g;
    g.disks = static_cast<int>(n);
    g.tolerance = static_cast<int>(n - t.min_survivors);
    g.failure_rate = lambda;
    g.repair_rate = mu;
    g.parallel = s.parallel;
    return storage::system_loss_by(g, 1, s.mission_hours);
  }
  if (!s.parallel && mu > 0) return std::nullopt;
  // The chain on recoverable survivor sets.
  std::vector<std::size_t> state(std::size_t{1} << n, 0);
  std::vector<std::uint64_t> sets;
  for (std::uint64_t m = 0; m < (std::uint64_t{1} << n); ++m)
    if (recoverable[m]) {
      state[m] = sets.size();
      sets.push_back(m);
    }
  const double S = static_cast<double>(sets.size());
  const double jumps = static_cast<double>(n) * (lambda + mu) * s.mission_hours;
  if (sets.size() > 256 || S * S * (jumps + 12 * std::sqrt(jumps) + 40) > 1e9) return std::nullopt;
  storage::transient_chain c(sets.size());
  for (std::size_t a = 0; a < sets.size(); ++a)
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t bit = std::uint64_t{1} << i;
      if (sets[a] & bit) {
        const std::uint64_t to = sets[a] & ~bit;
        if (recoverable[to])
          c.rate(a, state[to]) += lambda;
        else
          c.absorb(a) += lambda;
      } else if (mu > 0) {
        c.rate(a, state[sets[a] | bit]) += mu;  // a superset of a recoverable set recovers
      }
    }
  try {
    return storage::absorbed_by(c, state[(std::uint64_t{1} << n) - 1], s.mission_hours);
  } catch (const std::domain_error&) {
    return std::nullopt;
  }
}

}  // namespace mcpilot::mojette
