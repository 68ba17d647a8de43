#include "scaling_range.hpp"

#include <algorithm>
#include <cmath>

namespace mcpilot::cli {

double scaling_value_scale(std::span<const double> t) {
  double largest = 0, smallest = HUGE_VAL;
  for (const double v : t) {
    const double a = std::abs(v);
    if (!std::isfinite(a)) continue;  // the analysis says what is wrong with it
    largest = std::max(largest, a);
    if (a > 0) smallest = std::min(smallest, a);
  }
  if (largest == 0) return 1;
  if (largest <= 0x1p200 && smallest >= 0x1p-200) return 1;
  // The largest becomes about 1; with a range of values wider than 2^1000 nothing helps.
  return std::ldexp(1.0, std::ilogb(largest));
}

std::vector<double> scaled_values(std::span<const double> t, double scale) {
  std::vector<double> out(t.begin(), t.end());
  if (scale != 1)
    for (double& v : out) v /= scale;
  return out;
}

void unscale(scaling_result& r, double scale) {
  if (scale == 1) return;
  const auto times = [scale](double& x) { x *= scale; };
  const auto maybe = [scale](std::optional<double>& x) {
    if (x) *x *= scale;
  };
  for (auto& s : r.sizes) {
    times(s.median);
    times(s.mean);
    times(s.min);
    times(s.max);
    maybe(s.sd);
  }
  for (auto& n : r.normalized) {
    times(n.per_n);
    maybe(n.per_n_log_n);
    times(n.per_n2);
  }
  for (auto& c : r.candidates) {
    times(c.c);
    times(c.d);
    maybe(c.c_low);
    maybe(c.c_high);
  }
}

}  // namespace mcpilot::cli
