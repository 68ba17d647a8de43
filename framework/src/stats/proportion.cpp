#include "mcpilot/stats/proportion.hpp"

#include <algorithm>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "mcpilot/error.hpp"
#include "mcpilot/number_text.hpp"
#include "mcpilot/stats/distributions.hpp"

namespace mcpilot {

void check_binary(std::span<const double> x) {
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i] != 0 && x[i] != 1)
      throw reading_error(i, "a proportion's readings must be 0 or 1, got " + number_text(x[i]));
}

proportion_bounds wald_interval(double p_hat, std::size_t h, double confidence) {
  const double hh = static_cast<double>(h);
  const double half = t_critical(hh - 1, confidence) * std::sqrt(p_hat * (1 - p_hat) / hh);
  return {std::max(0.0, p_hat - half), std::min(1.0, p_hat + half)};
}

proportion_bounds wilson_interval(double p_hat, std::size_t n, double confidence) {
  const double z = normal_critical(confidence);
  const double nn = static_cast<double>(n);
  const double z2n = z * z / nn;
  const double centre = (p_hat + z2n / 2) / (1 + z2n);
  const double half = z / (1 + z2n) * std::sqrt(p_hat * (1 - p_hat) / nn + z2n / (4 * nn));
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

proportion_bounds clopper_pearson_interval(std::size_t events, std::size_t n, double confidence) {
  if (n == 0) return {0, 1};
  const double x = static_cast<double>(std::min(events, n)), m = static_cast<double>(n);
  const double tail = (1 - confidence) / 2;
  const double low = x == 0 ? 0 : boost::math::ibeta_inv(x, m - x + 1, tail);
  const double high = x == m ? 1 : boost::math::ibeta_inv(x + 1, m - x, 1 - tail);
  return {low, high};
}

std::optional<std::size_t> wilson_trials_needed(double p_hat, double width, double confidence) {
  const auto wide = [&](std::size_t n) {
    const proportion_bounds b = wilson_interval(p_hat, n, confidence);
    return b.high - b.low > width;
  };
  constexpr std::size_t most = 1'000'000'000'000'000;
  if (!(width > 0) || wide(most)) return std::nullopt;
  std::size_t lo = 0, hi = most;  // wide(lo) or lo == 0; !wide(hi)
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    (wide(mid) ? lo : hi) = mid;
  }
  return hi;
}

double zero_events_upper_bound(std::size_t n, double confidence) {
  // -expm1(log1p(-c)/n) keeps digits for the tiny bounds of rare events.
  return -std::expm1(std::log1p(-confidence) / static_cast<double>(n));
}

std::size_t zero_events_trials_needed(double bound, double confidence) {
  if (!(bound < 1)) return 1;  // one trial already bounds p below 1; log1p(-bound) would not
  // A bound of 1e-300 asks for some 3e300 trials, which no size_t holds: saturate.
  const double n = std::ceil(std::log1p(-confidence) / std::log1p(-bound));
  return n < 1.8e19 ? static_cast<std::size_t>(n) : std::numeric_limits<std::size_t>::max();
}

}  // namespace mcpilot
