#pragma once
// The lifetime scenario: every device fails after a lifetime drawn from `lifetime.*` and comes
// back after a repair drawn from `repair.*` (waiting for the replacement) plus its rebuild time
// (rebuild.hpp); a repaired device is new (renewal). Data is lost the first time a group has
// more than t devices down at once. All devices are new at time 0.

#include <cstdint>
#include <optional>
#include <vector>

#include "mcpilot/rng.hpp"
#include "placement/layout.hpp"
#include "storage/durations.hpp"

namespace mcpilot::placement {

struct lifetime_settings {
  storage::duration_law lifetime, repair;
  std::vector<double> rebuild_hours;  // per device, added to each repair
  int tolerance = 1;
};

struct lifetime_outcome {
  double loss_hours = 0;  // time of the first data loss
  int first_failed = -1;  // the device that failed first
};

// One history, simulated event by event to the first loss. O(v) per event (the next event is
// found by a scan: v is a few hundred at most).
lifetime_outcome simulate_lifetime(const layout& l, const std::vector<std::vector<int>>& of,
                                   const lifetime_settings& s, philox_stream& rng);

// The exact MTTDL and P(loss by mission) when lifetimes and repairs are exponential (or there is
// no repair) and rebuilds take no time: then the set of down devices is a Markov chain on the
// sets that lose nothing, solved with the storage model's absorbing-chain routines. nullopt when
// the laws do not allow it or the chain has more than `max_states` states (the solve is cubic).
struct lifetime_exact {
  double mttdl_hours = 0;
  std::optional<double> loss_in_mission;  // absent when uniformization would be too long
  std::size_t states = 0;
};
std::optional<lifetime_exact> exact_lifetime(const layout& l, const lifetime_settings& s,
                                             double mission_hours, std::size_t max_states = 600);

}  // namespace mcpilot::placement
