#pragma once
// storage.group's availability estimates against the availability chain's exact values, for
// `mcpilot validate`.
#include <vector>

#include "mcpilot/validate.hpp"

namespace mcpilot::storage {

// The cases, shared with the full-size program tests/validation/storage_availability.cpp.
std::vector<exact_case> availability_cases();

validation_study exact_study();

}  // namespace mcpilot::storage
