#pragma once
// How many (batch) means an interval of a given width needs.

#include <cstddef>
#include <optional>

namespace mcpilot {

// The smallest h >= 2 with h >= (2 t*_{h-1} sd / width)^2: the batch means needed for a whole
// interval width `width` when the batch means have standard deviation `sd`. For a width given as
// a fraction p of the mean, pass sd = c_v and width = p. nullopt when no finite h exists (width
// <= 0, or sd/width not finite, e.g. a relative width around a mean of 0). The search starts at
// the normal-theory bound, which is never above the answer, and steps up; it takes a handful of
// quantile evaluations, O(1) in practice.
std::optional<std::size_t> required_batches(double sd, double width, double confidence);

}  // namespace mcpilot
