#pragma once
// The layout a configuration of placement.design chooses: `design` and the parameters that
// belong to it (order, devices, group_size, base_block, modulus, blocks_file, allow_unbalanced,
// groups, scatter_width, placement_seed). A parameter given for a design that does not use it,
// or missing for one that needs it, is a parameter_error naming it; so is a design that does not
// exist for its parameters (constructions.hpp).

#include <string>
#include <vector>

#include "mcpilot/parameters.hpp"
#include "placement/layout.hpp"

namespace mcpilot::placement {

// The values of `design`, in the order `describe` lists them.
const std::vector<std::string>& design_names();

layout layout_from_parameters(const parameters& p);

}  // namespace mcpilot::placement
