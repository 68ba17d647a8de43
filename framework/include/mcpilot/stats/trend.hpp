#pragma once
// A linear trend in the subsession means: the interval assumes a steady state, and a slow drift
// (a leak, a filling cache) can pass the change-point test, which looks for level shifts, and
// the autocorrelation limit, which with 3 or 4 subsessions cannot see it. Regressing the batch
// means on their index and testing the slope with Student's t (h - 2 degrees of freedom) is
// valid because batch means at the chosen size are nearly uncorrelated under a steady state.

#include <cstddef>
#include <optional>
#include <span>

#include "mcpilot/stats/analysis.hpp"

namespace mcpilot {

struct trend_result {
  double slope = 0;       // change of the batch mean per subsession, on the analysed scale
  double t = 0;           // slope / SE(slope); +-inf when the means lie exactly on a line
  double p = 1;           // two-sided
  std::size_t count = 0;  // batch means regressed
};

// Least-squares slope of y_j on j = 0..h-1 and its two-sided t test. nullopt when h < 3 or the
// means do not vary at all. O(h).
std::optional<trend_result> linear_trend(std::span<const double> batch_means);

// The trend of the batch means behind `a`, rebuilt from the readings `a` analysed (reciprocals
// for rates): the stable phase from a.warmup.removed_begin, a.n_used readings in subsessions of
// a.subsession_size. nullopt when `a` has no interval. O(n).
std::optional<trend_result> subsession_trend(std::span<const double> readings, const analysis& a);

}  // namespace mcpilot
