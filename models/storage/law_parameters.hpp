#pragma once
// The lifetime and rebuild laws as model parameters (lifetime.*, repair.*): declared and read in
// one place, so that every model of failing and rebuilt devices (storage.group, mojette.layout)
// offers the same laws under the same names, with the same cross-field checks.

#include <string>

#include "mcpilot/model.hpp"
#include "storage/durations.hpp"

namespace mcpilot::storage {

// Declares lifetime.distribution, lifetime.mean_hours, lifetime.shape, lifetime.scale_hours,
// lifetime.location_hours, repair.distribution, repair.mean_hours, repair.shape,
// repair.scale_hours, repair.location_hours and repair.parallel; `unit` names the device
// ("disk", "server") in their descriptions.
void declare_laws(model_spec& s, const std::string& unit);

// The laws given; throw parameter_error naming the field when a parameter is missing for the
// chosen law or given for a law that does not use it.
duration_law read_lifetime(const parameters& p);
duration_law read_repair(const parameters& p);

}  // namespace mcpilot::storage
