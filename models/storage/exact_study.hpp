#pragma once
// storage.group's availability estimates against the availability chain's exact values, for
// `mcpilot validate`.
#include "mcpilot/validate.hpp"

namespace mcpilot::storage {

validation_study exact_study();

}  // namespace mcpilot::storage
