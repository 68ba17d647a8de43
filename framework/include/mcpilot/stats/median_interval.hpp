#pragma once
// A distribution-free interval for the median (docs/statistics.md, "The median"): for run times
// with a heavy right tail, where users ask for the typical run rather than the mean, and where
// the mean's interval needs many readings.

#include <cstddef>
#include <optional>
#include <span>

namespace mcpilot {

struct median_interval {
  double median = 0;
  double low = 0, high = 0;  // order statistics x_(rank_low) and x_(rank_high), 1-based
  std::size_t rank_low = 0, rank_high = 0;
  // Integrated autocorrelation time of the indicators 1[x_i <= median] (Geyer's initial
  // sequence), at least 1: how many readings count as one independent one for the median.
  double tau = 1;
  bool exact = true;  // ranks from Binomial(n, 1/2) itself (tau = 1), not its normal form
};

// For independent readings the interval [x_(k), x_(n-k+1)] covers the median of any continuous
// distribution with probability 1 - 2 P(B <= k - 1), B ~ Binomial(n, 1/2); k is the largest rank
// for which that is at least the confidence (R: qbinom). For correlated readings the sample
// median's spread follows the indicators' long-run variance, tau / (4 n) instead of 1 / (4 n)
// (the Bahadur representation), so the ranks are n/2 -+ z sqrt(n tau) / 2, z the normal quantile.
// tau is estimated from the indicators and never taken below 1. nullopt when n is too small for
// the confidence (20 readings give k = 6 at 95%; 5 readings give none). O(n log n).
std::optional<median_interval> median_confidence_interval(std::span<const double> x,
                                                          double confidence);

// The readings the interval needs to reach a whole width: it narrows like 1 / sqrt(n), so
// n (width / target)^2, at least n + 1 when the width is not reached. O(1).
std::size_t median_readings_needed(std::size_t n, double width, double target);

}  // namespace mcpilot
