#pragma once
// The exact loss of any layout of groups over devices, under exponential failures and repairs:
// the set of failed devices is a Markov chain on the sets that lose nothing, each working device
// failing at lambda, each failed one repaired at mu on its own (parallel repairs, or none), and a
// domain failure (device d in domain d mod domains, as storage/outage_laws.hpp and
// placement.design place them) one jump to the union of the set and its domain. A group is lost
// when more than `tolerance` of its devices have failed. Solved with ctmc.hpp's absorbing-chain
// routines: GTH elimination for the MTTDL, uniformization for P(loss by the mission).
//
// placement.design's lifetime scenario uses it for its layouts, and storage.group for several
// groups sharing failure domains, where the per-group chains no longer combine.

#include <cstddef>
#include <optional>
#include <vector>

namespace mcpilot::storage {

struct down_set_rates {
  int devices = 0;                       // at most 64
  std::vector<std::vector<int>> groups;  // each group's devices
  int tolerance = 1;
  double failure_rate = 0;  // lambda per device
  double repair_rate = 0;   // mu per failed device; 0: no repair
  int domains = 0;          // 0: none
  double domain_failure_rate = 0;
};

struct down_set_loss {
  double mttdl_hours = 0;
  std::optional<double> loss_in_mission;  // absent when uniformization would be too long
  std::size_t states = 0;
};

// nullopt when there are more than 64 devices, more than `max_states` sets that lose nothing
// (the solve is cubic), or a chain the solvers refuse. O(states x devices) to enumerate,
// O(states^3) to solve, and O(states^2) per uniformization step, skipped past ~1e9 operations.
std::optional<down_set_loss> down_set_chain_loss(const down_set_rates& r, double mission_hours,
                                                 std::size_t max_states = 600);

}  // namespace mcpilot::storage
