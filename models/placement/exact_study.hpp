#pragma once
// placement.design's estimates against its exact values, for `mcpilot validate`.
#include <vector>

#include "mcpilot/validate.hpp"

namespace mcpilot::placement {

// The cases exact_study() runs; the validation program runs them too, beside its own.
std::vector<exact_case> exact_cases();

validation_study exact_study();

}  // namespace mcpilot::placement
