#pragma once
// What a comparison of two analysed series compares (`mcpilot compare`, `mcpilot bench`): each
// series' subsession means over the stable phase its analysis kept, with the variance its
// interval carries.

#include <optional>
#include <span>

#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/welch.hpp"

namespace mcpilot {

// The moments of the subsession means behind `a`, the analysis of `x` (on the analysed scale:
// reciprocals for a rate): readings [removed_begin, removed_begin + n_used) in batches of
// a.subsession_size, their variance multiplied by a.variance_inflation (1 for Pilot's interval),
// so that Welch's test on two of them carries the uncertainty each interval states. None when
// `a` rests on fewer than two subsession means (no interval to compare); std::invalid_argument
// when `x` is shorter than the analysis says. O(n_used).
std::optional<sample_moments> stable_moments(std::span<const double> x, const analysis& a);

}  // namespace mcpilot
