#include "storage/down_set_chain.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>

#include "storage/ctmc.hpp"

namespace mcpilot::storage {

std::optional<down_set_loss> down_set_chain_loss(const down_set_rates& r, double mission_hours,
                                                 std::size_t max_states) {
  const int v = r.devices;
  if (v > 64) return std::nullopt;
  const double fail = r.failure_rate, repair = r.repair_rate;
  std::vector<std::vector<int>> of(static_cast<std::size_t>(v));
  for (std::size_t g = 0; g < r.groups.size(); ++g)
    for (int d : r.groups[g]) of[static_cast<std::size_t>(d)].push_back(static_cast<int>(g));

  // Breadth first from "all up" over the down-sets that lose nothing.
  std::map<std::uint64_t, std::size_t> index{{0, 0}};
  std::vector<std::uint64_t> states{0};
  const auto loses = [&](std::uint64_t set, int d) {
    for (int g : of[static_cast<std::size_t>(d)]) {
      int n = 0;
      for (int e : r.groups[static_cast<std::size_t>(g)]) n += static_cast<int>((set >> e) & 1);
      if (n > r.tolerance) return true;
    }
    return false;
  };
  for (std::size_t i = 0; i < states.size(); ++i) {
    for (int d = 0; d < v; ++d) {
      const std::uint64_t bit = std::uint64_t{1} << d;
      if (states[i] & bit) continue;
      const std::uint64_t next = states[i] | bit;
      if (loses(next, d) || index.contains(next)) continue;
      if (states.size() >= max_states) return std::nullopt;
      index[next] = states.size();
      states.push_back(next);
    }
  }
  transient_chain chain(states.size());
  // A domain failure takes every device of the domain that is not already down at once: one jump
  // to the union, which is a down-set already enumerated when it loses nothing (a subset of a set
  // that loses nothing loses nothing, and the search above added devices one at a time).
  std::vector<std::uint64_t> domain_mask;
  if (r.domains > 0 && r.domain_failure_rate > 0) {
    domain_mask.assign(static_cast<std::size_t>(r.domains), 0);
    for (int d = 0; d < v; ++d)
      domain_mask[static_cast<std::size_t>(d % r.domains)] |= std::uint64_t{1} << d;
  }
  const auto loses_set = [&](std::uint64_t set) {
    for (const auto& g : r.groups) {
      int n = 0;
      for (int e : g) n += static_cast<int>((set >> e) & 1);
      if (n > r.tolerance) return true;
    }
    return false;
  };
  for (std::size_t i = 0; i < states.size(); ++i) {
    for (const std::uint64_t mask : domain_mask) {
      const std::uint64_t next = states[i] | mask;
      if (next == states[i]) continue;
      if (auto it = index.find(next); it != index.end())
        chain.rate(i, it->second) += r.domain_failure_rate;
      else if (loses_set(next))
        chain.absorb(i) += r.domain_failure_rate;
      else
        return std::nullopt;  // cannot happen (see above); no answer rather than a wrong one
    }
    for (int d = 0; d < v; ++d) {
      const std::uint64_t bit = std::uint64_t{1} << d;
      if (states[i] & bit) {
        if (repair > 0) chain.rate(i, index.at(states[i] & ~bit)) += repair;
      } else {
        const std::uint64_t next = states[i] | bit;
        if (auto it = index.find(next); it != index.end())
          chain.rate(i, it->second) += fail;
        else
          chain.absorb(i) += fail;
      }
    }
  }
  down_set_loss out;
  out.states = states.size();
  try {
    out.mttdl_hours = mean_time_to_absorption(chain)[0];
  } catch (const std::domain_error&) {
    return std::nullopt;
  }
  // Uniformization costs S² per jump and about L·t jumps: keep it under ~1e9 operations.
  double largest = 0;
  for (std::size_t i = 0; i < states.size(); ++i) largest = std::max(largest, chain.exit_rate(i));
  const double jumps = largest * mission_hours + 12 * std::sqrt(largest * mission_hours) + 40;
  const double work = jumps * static_cast<double>(states.size() * states.size());
  if (work <= 1e9) {
    try {
      out.loss_in_mission = absorbed_by(chain, 0, mission_hours);
    } catch (const std::domain_error&) {
    }
  }
  return out;
}

}  // namespace mcpilot::storage
