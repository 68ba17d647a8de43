#pragma once
// The lifetime scenario: every device fails after a lifetime drawn from `lifetime.*` and comes
// back after a repair drawn from `repair.*` (waiting for the replacement) plus its rebuild time
// (rebuild.hpp); a repaired device is new (renewal). Data is lost the first time a group has
// more than t devices failed at once. All devices are new at time 0.
//
// Beside the failures, as in storage.group (storage/outage_laws.hpp):
// - transient outages of single devices (`outage.*`): the device is down, with its data, until
//   the outage ends; it may fail while out, which ends the outage;
// - failure domains (`domains.*`): device d sits in domain d mod count (racks striped over the
//   device numbers); a domain outage takes every device of the domain that has not failed down
//   until it ends, a domain failure destroys them all at once.
// A group's data is unavailable while more than t of its devices are down (failed or out) and it
// has not been lost; lost only through failures. A lost group stays lost.

#include <cstdint>
#include <optional>
#include <vector>

#include "mcpilot/rng.hpp"
#include "placement/layout.hpp"
#include "storage/down_out_chain.hpp"
#include "storage/durations.hpp"
#include "storage/outage_laws.hpp"

namespace mcpilot::placement {

struct lifetime_settings {
  storage::duration_law lifetime, repair;
  std::vector<double> rebuild_hours;  // per device, added to each repair
  int tolerance = 1;
  storage::outage_law outage;      // transient outages of single devices
  storage::domain_config domains;  // racks, power domains
  double mission_hours = 0;        // the span of groups_lost and the unavailable time
};

inline int domain_of_device(const storage::domain_config& d, int device) {
  return d.domain_of(0, device, 0);
}

struct lifetime_outcome {
  double loss_hours = 0;  // time of the first data loss
  int first_failed = -1;  // the device that failed first
  // Over [0, mission_hours]:
  int groups_lost = 0;
  double unavailable_hours = 0;  // some group unavailable (down > t, not lost)
  int unavailable_periods = 0;   // such periods that started within the mission
};

// One history, simulated event by event to the first loss and at least to the mission's end.
// Outages are followed over the mission only: they never lose data, so past the mission nothing
// that is still to be measured depends on them. O(v + domains) per event (the next event is found
// by a scan: v is a few hundred at most). Without outages and domains it draws exactly what it
// drew before they existed, so earlier results replay.
lifetime_outcome simulate_lifetime(const layout& l, const std::vector<std::vector<int>>& of,
                                   const lifetime_settings& s, philox_stream& rng);

// The exact MTTDL and P(loss by mission) when lifetimes and repairs are exponential (or there is
// no repair) and rebuilds take no time: then the set of failed devices is a Markov chain on the
// sets that lose nothing (a domain failure is one jump to the union with its domain; outages do
// not change the loss), solved with the storage model's absorbing-chain routines. nullopt when
// the laws do not allow it or the chain has more than `max_states` states (the solve is cubic).
struct lifetime_exact {
  double mttdl_hours = 0;
  std::optional<double> loss_in_mission;  // absent when uniformization would be too long
  std::size_t states = 0;
};
std::optional<lifetime_exact> exact_lifetime(const layout& l, const lifetime_settings& s,
                                             double mission_hours, std::size_t max_states = 600);

// The exact long-run unavailability (storage/down_out_chain.hpp: a lost group replaced at once),
// which method = importance estimates: with the laws above, exponential device outages and no
// domain outages; nullopt otherwise or beyond `max_states`.
std::optional<storage::steady_availability> exact_steady_availability(const layout& l,
                                                                      const lifetime_settings& s,
                                                                      std::size_t max_states = 600);

}  // namespace mcpilot::placement
