#pragma once
// mojette.layout's estimates against its exact values, for `mcpilot validate`.
#include "mcpilot/validate.hpp"

namespace mcpilot::mojette {

validation_study exact_study();

}  // namespace mcpilot::mojette
