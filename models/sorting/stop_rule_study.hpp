#pragma once
// How often the sort-constant study's early stop is not reproducible: seeded synthetic runs of the
// study's grid, with intervals as wide as the study's and the machine's speed shifts of this VM,
// judged by early_stop_tracker with the one-size rule of before and the two-consecutive-sizes rule
// of now, on separately timed sessions and on paired timing (docs/models/sorting.md, "Where each
// sort stopped"; docs/validate.md).

#include "mcpilot/validate.hpp"

namespace mcpilot::sorting {

validation_study stop_rule_study();

}  // namespace mcpilot::sorting
