#include "mcpilot/stats/trend.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

namespace {

// The regression over h values y(0) .. y(h - 1), read twice (for the mean, then the sums), so
// that batch means can be computed where they are needed instead of held.
template <class Y>
std::optional<trend_result> trend_of(std::size_t h, Y y) {
  if (h < 3) return std::nullopt;
  const double hh = static_cast<double>(h);
  const double jbar = (hh - 1) / 2;
  double ybar = 0;
  for (std::size_t j = 0; j < h; ++j) ybar += y(j);
  ybar /= hh;
  double sjj = 0, sjy = 0, syy = 0;
  for (std::size_t j = 0; j < h; ++j) {
    const double dj = static_cast<double>(j) - jbar, dy = y(j) - ybar;
    sjj += dj * dj;
    sjy += dj * dy;
    syy += dy * dy;
  }
  if (!(syy > 0)) return std::nullopt;
  trend_result r;
  r.count = h;
  r.slope = sjy / sjj;
  // Residual sum of squares syy - slope^2 sjj, clamped: rounding can make it slightly negative.
  const double rss = std::max(0.0, syy - r.slope * sjy);
  const double se = std::sqrt(rss / (hh - 2) / sjj);
  if (se > 0) {
    r.t = r.slope / se;
    r.p = 2 * t_cdf(hh - 2, -std::abs(r.t));
  } else {
    r.t = std::copysign(std::numeric_limits<double>::infinity(), r.slope);
    r.p = 0;
  }
  return r;
}

}  // namespace

std::optional<trend_result> linear_trend(std::span<const double> y) {
  return trend_of(y.size(), [y](std::size_t j) { return y[j]; });
}

std::optional<trend_result> subsession_trend(std::span<const double> readings, const analysis& a) {
  if (!a.subsession_size || !a.ci_low || a.n_used == 0) return std::nullopt;
  const std::size_t begin = a.warmup.removed_begin;
  if (begin + a.n_used > readings.size()) return std::nullopt;
  const auto used = readings.subspan(begin, a.n_used);
  const std::size_t q = *a.subsession_size, h = used.size() / q;
  // Each batch mean is computed on each of the regression's two passes, exactly as batch_means
  // would take it (of the reciprocals, for rates), rather than held: a vector of them was 8
  // bytes a reading at q = 1, at 10^6 readings the largest block of `mcpilot analyze`'s peak.
  if (a.kind != quantity_kind::rate) {
    if (q == 1) return linear_trend(used);
    return trend_of(h, [used, q](std::size_t j) { return mean(used.subspan(j * q, q)); });
  }
  return trend_of(h, [used, q](std::size_t j) {
    long double s = 0;
    for (std::size_t i = j * q; i < (j + 1) * q; ++i) s += 1.0 / used[i];
    return static_cast<double>(s / static_cast<long double>(q));
  });
}

}  // namespace mcpilot
