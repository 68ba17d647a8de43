#pragma once
// placement.design's estimates against its exact values, for `mcpilot validate`.
#include "mcpilot/validate.hpp"

namespace mcpilot::placement {

validation_study exact_study();

}  // namespace mcpilot::placement
