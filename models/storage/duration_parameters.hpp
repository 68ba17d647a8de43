#pragma once
// The `lifetime.*` and `repair.*` parameters of a device, shared by every model whose devices fail
// and are repaired (storage.group, placement.design): one declaration, one reader, so the laws
// and their checks are the same in every model.

#include "mcpilot/model.hpp"
#include "mcpilot/parameters.hpp"
#include "storage/durations.hpp"

namespace mcpilot::storage {

// lifetime.distribution, lifetime.mean_hours, lifetime.shape, lifetime.scale_hours,
// lifetime.location_hours.
void declare_lifetime_parameters(model_spec& s);
// repair.distribution, repair.mean_hours, repair.shape, repair.scale_hours, repair.location_hours.
void declare_repair_parameters(model_spec& s);

// The configured laws. A parameter that belongs to another law is a parameter_error naming it:
// silently ignored, the user would believe it mattered.
duration_law read_lifetime(const parameters& p);
duration_law read_repair(const parameters& p);

// Laws that a double cannot evaluate over [0, horizon] hours (Weibull shape 1e-300, say) are a
// parameter_error naming the field, so that they fail at configuration, never inside a
// replication.
void check_laws(const duration_law& lifetime, const duration_law& repair, double horizon);

// Events per replication beyond which one replication takes minutes on one core: a replication
// runs to the end of its mission before max_seconds is looked at again.
inline constexpr double max_failures_per_mission = 1e8;

// Refuses (parameter_error on mission_hours, with the figure) a mission in which `devices` devices
// of this lifetime would fail more than max_failures_per_mission times. O(1).
void check_mission_failures(const duration_law& lifetime, double devices, double mission);

}  // namespace mcpilot::storage
