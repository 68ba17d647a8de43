#pragma once
// What analysis.cpp (the stable phase and the subsession size) hands to analysis_verdict.cpp (the
// interval and the verdict on the batch means), kept out of the public header because no caller
// outside the analysis should reach past analyze(), analyze_streams() and analyze_derived().

#include <cstddef>
#include <span>

#include "mcpilot/stats/analysis.hpp"

namespace mcpilot::detail {

// Everything after the subsession size is known: the interval on the batch means, mapped to the
// kind's scale, the width target, the readings still needed, and the verdict. `a.n_used` must hold
// the number of readings behind the batches, and `a.subsession_autocorrelation` their lag-1. O(h).
void conclude(analysis& a, std::span<const double> batches, std::size_t q,
              const analysis_options& opt);

// The same for summary_statistic::median, on the stable readings themselves (the order-statistic
// interval has no batches; the indicators' autocorrelation time stands for the subsession size).
// O(n log n).
void conclude_median(analysis& a, std::span<const double> stable, const analysis_options& opt);

}  // namespace mcpilot::detail
