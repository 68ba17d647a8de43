#pragma once
// The key families a sort is timed on: inputs that take different paths through the sorts.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mcpilot/rng.hpp"
#include "sorts.hpp"

namespace mcpilot::sorting {

// uniform: independent uniform 32-bit keys (the default, and the seed's study);
// sorted / reversed: uniform keys in ascending / descending order;
// few-unique: keys drawn from 8 values, so most compare equal;
// organ-pipe: uniform keys ascending to the middle, then descending.
const std::vector<std::string>& key_families();

// Fills `out` with one array of the family. Throws std::invalid_argument for an unknown family
// (the model's parameter choice() rejects it first).
void fill_keys(std::string_view family, philox_stream& rng, std::span<key> out);

}  // namespace mcpilot::sorting
