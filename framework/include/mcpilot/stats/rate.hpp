#pragma once
// Rates (work per time) are summarised by the harmonic mean, which is the rate of the whole run
// when every reading covers the same work. The interval is built on the reciprocals 1/x, whose
// mean is an ordinary mean, and mapped back.

#include <optional>
#include <span>
#include <vector>

namespace mcpilot {

// 1/x_i for each reading; a reading <= 0 (or not finite) is a reading_error naming its index.
std::vector<double> reciprocals(std::span<const double> x);

struct rate_bounds {
  double low = 0;
  std::optional<double> high;  // none when d >= y-bar: the data do not bound the rate from above
};

// [1/(ybar + d), 1/(ybar - d)] for reciprocal mean ybar > 0 and half-width d >= 0. O(1).
rate_bounds rate_interval(double reciprocal_mean, double half_width);

// The half-width d on the reciprocal scale that makes the rate interval's whole width equal to
// `rate_width_fraction` of the harmonic mean: solves 2r/(1 - r^2) = p for r = d/ybar, so
// r = (sqrt(1 + p^2) - 1)/p. Returns 2r, the whole relative width on the reciprocal scale. O(1).
double reciprocal_relative_width(double rate_width_fraction);

// Same for an absolute width W on the rate scale: d = (sqrt(1 + W^2 ybar^2) - 1)/W; returns 2d.
double reciprocal_absolute_width(double rate_width, double reciprocal_mean);

}  // namespace mcpilot
