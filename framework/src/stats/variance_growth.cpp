#include "mcpilot/stats/variance_growth.hpp"

#include <algorithm>
#include <array>
#include <boost/math/special_functions/digamma.hpp>
#include <cmath>

#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

double variance_growth_exponent(std::span<const double> values) {
  constexpr std::size_t min_block = 8;
  if (values.size() < 2 * min_block) return 0;
  std::array<double, 4> x{}, y{};
  std::size_t points = 0;
  for (std::size_t k = 1; k <= 8; k *= 2) {
    const std::size_t m = values.size() / k;
    if (m < min_block) break;
    double sum_log = 0;
    for (std::size_t i = 0; i < k; ++i) {
      const double v = variance(values.subspan(i * m, m));
      if (!(v > 0) || !std::isfinite(v)) return 0;
      sum_log += std::log(v);
    }
    // E[ln(s^2 / sigma^2)] for m normal values is psi((m-1)/2) - ln((m-1)/2): below 0, and
    // further below for short blocks, which alone would read as growth.
    const double half_df = 0.5 * static_cast<double>(m - 1);
    const double bias = boost::math::digamma(half_df) - std::log(half_df);
    x[points] = std::log(static_cast<double>(m));
    y[points] = sum_log / static_cast<double>(k) - bias;
    ++points;
  }
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < points; ++i) mx += x[i], my += y[i];
  mx /= static_cast<double>(points);
  my /= static_cast<double>(points);
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < points; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  return sxy / sxx;
}

std::size_t grown_batches_needed(std::size_t needed, std::size_t h, double b) {
  b = std::clamp(b, 0.0, max_variance_growth);
  if (needed <= h || h == 0 || !(b > 0)) return needed;
  const double n = static_cast<double>(needed), have = static_cast<double>(h);
  const double grown = std::ceil(std::pow(n, 1 / (1 - b)) * std::pow(have, -b / (1 - b)));
  // A correction is no reason to call a width unreachable: beyond any run, keep the plain size.
  if (!(grown < 1e15)) return needed;
  return std::max(needed, static_cast<std::size_t>(grown));
}

}  // namespace mcpilot
