#pragma once
// The exact long-run unavailability of any layout of groups over devices (placement.design's, or
// storage.group's groups sharing failure domains), beside the estimate of the explicit-state walk
// (domain_walk.hpp), which walks the same chain: every law exponential, repairs in parallel,
// device outages and domain failures but no domain outages (whose state, the devices each outage
// holds, is not enumerated here).
//
// The state is which devices have failed and which are out: a device fails at lambda (also while
// out, which ends its outage), is repaired at mu and comes back up; an up device goes out at alpha
// and comes back at beta; a domain with a working device fails at r, failing all of them at once
// (device d in domain d mod domains, as down_set_chain.hpp). A group with more than `tolerance`
// failed devices is lost and replaced at once by a new one: its devices all come back up, for
// every group they serve. Some group's data is unavailable while more than `tolerance` of its
// devices are down (failed or out). The states are found breadth-first from all up, and the
// regenerative ratio of availability_chain.hpp solves the chain.

#include <cstddef>
#include <optional>

#include "storage/down_set_chain.hpp"

namespace mcpilot::storage {

struct down_out_rates {
  down_set_rates failures;  // the layout, failures, repairs (> 0) and domain failures
  double outage_rate = 0;   // alpha per device that is up
  double outage_end = 0;    // beta = 1 / mean outage
};

struct steady_availability {
  double unavailability = 0;        // long-run fraction of time some group is unavailable
  double unavailable_per_year = 0;  // long-run entries into unavailability per year
  std::size_t states = 0;
};

// nullopt for more than 64 devices, no repair, or more than `max_states` states (the solve is
// cubic). O(states x (devices + domains) x groups) to enumerate, O(states^3) to solve.
std::optional<steady_availability> down_out_availability(const down_out_rates& r,
                                                         std::size_t max_states = 600);

}  // namespace mcpilot::storage
