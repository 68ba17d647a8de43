#include "mcpilot/stats/adjusted_interval.hpp"

#include <algorithm>
#include <cmath>

#include "mcpilot/stats/distributions.hpp"

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

double skewness_adjusted_quantile(double z, double beta) {
  // Below 1e-8 the cube root's expansion z - beta - 2 beta (z - beta)^2 is exact to double
  // precision, and the formula's own cancellation would not be.
  if (std::abs(beta) < 1e-8) return z - beta - 2 * beta * (z - beta) * (z - beta);
  return (std::cbrt(1 + 6 * beta * (z - beta)) - 1) / (2 * beta);
}

double capped_skew_beta(double beta, double t) {
  const double cap = (std::sqrt(t * t + 4 * max_skew_expansion / 6) - t) / 2;
  return std::clamp(beta, -cap, cap);
}

double side_ratio_beta(double t, double ratio) {
  const auto sides = [t](double beta) {
    return -skewness_adjusted_quantile(-t, beta) / skewness_adjusted_quantile(t, beta);
  };
  double lo = 0, hi = capped_skew_beta(1.0, t);
  if (sides(hi) <= ratio) return hi;
  for (int i = 0; i < 64; ++i) {
    const double mid = (lo + hi) / 2;
    (sides(mid) <= ratio ? lo : hi) = mid;
  }
  return lo;
}

t_interval adjusted_mean_interval(std::span<const double> batches, double lag1, double skewness,
                                  double confidence) {
  t_interval iv = mean_interval(batches, confidence);
  const std::size_t h = batches.size();
  // Var(mean of h batch means) = s^2 / h (1 + 2 sum_k (1 - k/h) r_k), and for batch means that
  // are AR(1)-like, or less correlated beyond lag 1 (large batches of any process with summable
  // correlations), the bracket is at most (1 + r) / (1 - r).
  iv.sd *= std::sqrt(correlation_inflation(lag1, h));
  const double hh = static_cast<double>(h);
  const double se = iv.sd / std::sqrt(hh);
  const double t = t_critical(hh - 1, confidence);
  const double beta = capped_skew_beta(skewness / (6 * std::sqrt(hh)), t);
  // [x - G(t) se, x - G(-t) se]: G(t) sets the lower end and G(-t) the upper.
  const double g_t = skewness_adjusted_quantile(t, beta);
  const double g_minus_t = skewness_adjusted_quantile(-t, beta);
  iv.half_width = (g_t - g_minus_t) / 2 * se;
  iv.shift = -(g_t + g_minus_t) / 2 * se;
  iv.width_factor = (g_t - g_minus_t) / (2 * t);
  return iv;
}

}  // namespace mcpilot
