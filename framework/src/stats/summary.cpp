#include "mcpilot/stats/summary.hpp"

#include <cmath>
#include <limits>
#include <string>

#include <boost/math/statistics/univariate_statistics.hpp>

#include "mcpilot/error.hpp"
#include "mcpilot/number_text.hpp"

namespace mcpilot {

double mean(std::span<const double> x) {
  if (x.empty()) return std::numeric_limits<double>::quiet_NaN();
  long double s = 0;
  for (double v : x) s += v;
  return static_cast<double>(s / static_cast<long double>(x.size()));
}

double variance(std::span<const double> x) {
  if (x.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  const double m = mean(x);
  long double ss = 0;
  for (double v : x) ss += (v - m) * (v - m);
  return static_cast<double>(ss / static_cast<long double>(x.size() - 1));
}

double skewness(std::span<const double> x) {
  if (x.size() < 3) return 0;
  const double n = static_cast<double>(x.size());
  const double g1 = boost::math::statistics::skewness(x.begin(), x.end());  // 0 for equal values
  // Values that differ by a few ulps can give m2 so small that g1 overflows: no usable skewness.
  return std::isfinite(g1) ? g1 * std::sqrt(n * (n - 1)) / (n - 2) : 0.0;
}

double harmonic_mean(std::span<const double> x) {
  if (x.empty()) return std::numeric_limits<double>::quiet_NaN();
  long double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!(x[i] > 0) || !std::isfinite(x[i]))
      throw reading_error(i, "a rate must be a finite number > 0, got " + number_text(x[i]));
    s += 1.0L / x[i];
  }
  return static_cast<double>(static_cast<long double>(x.size()) / s);
}

double median_in_place(std::span<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  return boost::math::statistics::median(v);
}

}  // namespace mcpilot
