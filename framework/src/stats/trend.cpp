#include "mcpilot/stats/trend.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/subsession.hpp"

namespace mcpilot {

std::optional<trend_result> linear_trend(std::span<const double> y) {
  const std::size_t h = y.size();
  if (h < 3) return std::nullopt;
  const double hh = static_cast<double>(h);
  const double jbar = (hh - 1) / 2;
  double ybar = 0;
  for (double v : y) ybar += v;
  ybar /= hh;
  double sjj = 0, sjy = 0, syy = 0;
  for (std::size_t j = 0; j < h; ++j) {
    const double dj = static_cast<double>(j) - jbar, dy = y[j] - ybar;
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

std::optional<trend_result> subsession_trend(std::span<const double> readings, const analysis& a) {
  if (!a.subsession_size || !a.ci_low || a.n_used == 0) return std::nullopt;
  const std::size_t begin = a.warmup.removed_begin;
  if (begin + a.n_used > readings.size()) return std::nullopt;
  const auto used = readings.subspan(begin, a.n_used);
  const std::size_t q = *a.subsession_size;
  if (a.kind != quantity_kind::rate) return linear_trend(batch_means(used, q));
  // The means of the reciprocals, batch by batch, as batch_means would take them from a copy of
  // the readings inverted: that copy was 8 bytes a reading, at 10^6 readings a quarter of the
  // peak memory of `mcpilot analyze`.
  std::vector<double> means;
  means.reserve(used.size() / q);
  for (std::size_t j = 0; j + q <= used.size(); j += q) {
    long double s = 0;
    for (std::size_t i = j; i < j + q; ++i) s += 1.0 / used[i];
    means.push_back(static_cast<double>(s / static_cast<long double>(q)));
  }
  return linear_trend(means);
}

}  // namespace mcpilot
