#include "mcpilot/stats/rate.hpp"

#include <cmath>
#include <string>

#include "mcpilot/error.hpp"
#include "mcpilot/number_text.hpp"

namespace mcpilot {

std::vector<double> reciprocals(std::span<const double> x) {
  std::vector<double> y;
  y.reserve(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!(x[i] > 0) || !std::isfinite(x[i]))
      throw reading_error(i, "a rate must be a finite number > 0, got " + number_text(x[i]));
    y.push_back(1.0 / x[i]);
  }
  return y;
}

rate_bounds rate_interval(double reciprocal_mean, double half_width) {
  rate_bounds r;
  r.low = 1.0 / (reciprocal_mean + half_width);
  if (half_width < reciprocal_mean) r.high = 1.0 / (reciprocal_mean - half_width);
  return r;
}

// (sqrt(1 + a^2) - 1)/a is written a/(sqrt(1 + a^2) + 1): the same number without the
// cancellation that loses every digit once a^2 is below the machine epsilon.
double reciprocal_relative_width(double p) {
  return 2 * p / (std::sqrt(1 + p * p) + 1);
}

double reciprocal_absolute_width(double w, double ybar) {
  return 2 * w * ybar * ybar / (std::sqrt(1 + w * w * ybar * ybar) + 1);
}

}  // namespace mcpilot
