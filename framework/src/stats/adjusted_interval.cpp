#include "mcpilot/stats/adjusted_interval.hpp"

#include <algorithm>
#include <cmath>

namespace mcpilot {

double corrected_lag1(double lag1, std::size_t h) {
  if (h < 8) return lag1;
  const double hh = static_cast<double>(h);
  return (hh * lag1 + 1) / (hh - 4);
}

double correlation_inflation(double lag1, std::size_t h) {
  const double r = std::clamp(corrected_lag1(lag1, h), 0.0, max_inflation_lag1);
  return (1 + r) / (1 - r);
}

t_interval adjusted_mean_interval(std::span<const double> batches, double lag1, double confidence) {
  t_interval iv = mean_interval(batches, confidence);
  // Var(mean of h batch means) = s^2 / h (1 + 2 sum_k (1 - k/h) r_k), and for batch means that
  // are AR(1)-like, or less correlated beyond lag 1 (large batches of any process with summable
  // correlations), the bracket is at most (1 + r) / (1 - r).
  const double root = std::sqrt(correlation_inflation(lag1, batches.size()));
  iv.sd *= root;
  iv.half_width *= root;
  return iv;
}

}  // namespace mcpilot
