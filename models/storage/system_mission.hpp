#pragma once
// A system of redundancy groups, simulated event by event with its failure domains: the time of
// its first data loss and, over a mission, how much of its data was lost and how long some of it
// was unavailable. The naive estimator of storage.group.

#include <limits>
#include <optional>

#include "mcpilot/rng.hpp"
#include "storage/group_simulation.hpp"
#include "storage/outage_laws.hpp"

namespace mcpilot::storage {

struct system_outcome {
  double loss = std::numeric_limits<double>::infinity();  // the first group's loss
  // Over [0, mission] (zero without a mission):
  int groups_lost = 0;           // groups that lost data by the mission's end
  double unavailable_hours = 0;  // time during which some group's data was unavailable
  int unavailable_periods = 0;   // such periods that started within the mission
};

// Runs the system until its first data loss and, with a mission, at least to the mission's end.
// Groups advance together to a common horizon, starting at `first_horizon` and doubling, so that
// none is followed far past the system's loss; a domain event first advances every group to its
// time, then takes its devices out or destroys them. Without domains and outages it draws exactly
// what the simulation of independent groups always drew, so earlier results replay. The system is
// unavailable while any group is: their periods are merged. O(groups x events per group).
system_outcome simulate_system(const group_config& g, const domain_config& d, int groups,
                               double first_horizon, std::optional<double> mission,
                               philox_stream& rng);

// Merges overlapping periods (sorted in place) and returns {their total length, their number}.
std::pair<double, int> merge_periods(std::vector<period>& periods);

}  // namespace mcpilot::storage
