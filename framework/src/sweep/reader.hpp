#pragma once
// Private to the config reader: the [sweep] table of a config into a sweep_plan, with every
// mistake an input_error naming FILE:LINE:COLUMN and the key.

#include <toml++/toml.h>

#include <string>
#include <vector>

#include "mcpilot/model.hpp"
#include "mcpilot/sweep/plan.hpp"

namespace mcpilot::config_detail {

// The most points one sweep may have; more is almost surely a typo (a factor of 1.0001).
inline constexpr std::size_t max_sweep_points = 100000;

// Reads [sweep] (`node` is its value; `source` the file name for messages).
sweep_plan read_sweep(const toml::node& node, const std::string& source);

// Every key must name something a point can set: a parameter of the model, a field of
// [experiment] other than name, seed and threads, or quantity.NAME.FIELD of a declared quantity.
// A --set of a swept key is refused too: the sweep would silently override it.
void check_sweep_keys(const sweep_plan& plan, const model_spec& spec, const std::string& model_name,
                      const std::vector<std::string>& sets);

}  // namespace mcpilot::config_detail
