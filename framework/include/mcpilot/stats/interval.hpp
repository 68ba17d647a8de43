#pragma once
// The Student-t interval for a mean of (nearly) independent values.

#include <cstddef>
#include <span>

namespace mcpilot {

struct t_interval {
  double mean = 0;
  double sd = 0;          // sample standard deviation of the values
  std::size_t count = 0;  // how many values
  double half_width = 0;  // t*_{count-1} sd / sqrt(count); the whole width C is twice this
  double shift = 0;       // of the interval's centre from the mean (a skewness adjustment)
  // The whole width over that of the symmetric t interval on the same sd: 1 for the symmetric
  // interval, up to the skewness adjustment's cap for the adjusted one. The required sample size
  // is computed for the interval as it is, so from sd times this factor.
  double width_factor = 1;
  double centre() const { return mean + shift; }
  double low() const { return centre() - half_width; }
  double high() const { return centre() + half_width; }
};

// x-bar +- t*_{h-1} s / sqrt(h). Needs h >= 2 (std::invalid_argument otherwise). O(h).
t_interval mean_interval(std::span<const double> values, double confidence);

}  // namespace mcpilot
