#pragma once
// The exact long-run unavailability of a layout's lifetime scenario, beside the estimate of
// method = importance, which walks the same chain (storage/domain_walk.hpp with overlapping
// groups): every law exponential, repairs in parallel, no rebuild time, device outages and domain
// failures but no domain outages (whose state, the devices each outage holds, is not enumerated
// here).
//
// The state is which devices have failed and which are out: a device fails at lambda (also while
// out, which ends its outage), is repaired at mu and comes back up; an up device goes out at alpha
// and comes back at beta; a domain with a working device fails at r, failing all of them at once.
// A group with more than t failed devices is lost and replaced at once by a new one: its devices
// all come back up, for every group they serve. Some group's data is unavailable while more than
// t of its devices are down (failed or out). The states are found breadth-first from all up and
// the regenerative ratio of storage/availability_chain.hpp solves the chain (O(S^3)), so the
// answer is given for at most `max_states` states, and for at most 64 devices.

#include <cstddef>
#include <optional>
#include <vector>

#include "placement/layout.hpp"
#include "placement/lifetime.hpp"

namespace mcpilot::placement {

struct steady_availability {
  double unavailability = 0;        // long-run fraction of time some group is unavailable
  double unavailable_per_year = 0;  // long-run entries into unavailability per year
  std::size_t states = 0;
};

std::optional<steady_availability> exact_steady_availability(const layout& l,
                                                             const lifetime_settings& s,
                                                             std::size_t max_states = 600);

}  // namespace mcpilot::placement
