#include "mcpilot/stats/autocorrelation.hpp"

#include <cmath>
#include <limits>

#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

double autocorrelation(std::span<const double> x, std::size_t lag) {
  if (x.size() <= lag) return std::numeric_limits<double>::quiet_NaN();
  const double m = mean(x);
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double d = x[i] - m;
    den += d * d;
    if (i + lag < x.size()) num += d * (x[i + lag] - m);
  }
  if (den == 0) return 0;
  return static_cast<double>(num / den);
}

double ar1_variance_inflation(std::size_t n, double rho) {
  const double nn = static_cast<double>(n);
  return 1 + 2 * (rho / (1 - rho) - rho * (1 - std::pow(rho, nn)) / (nn * (1 - rho) * (1 - rho)));
}

double naive_interval_coverage(double gamma, double confidence) {
  return 2 * normal_cdf(normal_critical(confidence) / std::sqrt(gamma)) - 1;
}

}  // namespace mcpilot
