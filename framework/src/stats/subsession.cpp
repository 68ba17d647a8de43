#include "mcpilot/stats/subsession.hpp"

#include <cmath>
#include <limits>

#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

batch_correlogram::batch_correlogram(std::span<const double> x)
    : batch_correlogram(x, std::vector<double>()) {}

batch_correlogram::batch_correlogram(std::span<const double> x, std::vector<double>&& storage)
    : sum_(std::move(storage)) {
  // Filled by push_back rather than sized up front: zeroing memory that is overwritten at once
  // costs as much as the sums.
  sum_.clear();
  sum_.reserve(x.size() + 1);
  sum_.push_back(0);
  mean_ = mcpilot::mean(x);
  double s = 0;
  for (double v : x) sum_.push_back(s += v - mean_);
}

std::optional<double> batch_correlogram::lag1(std::size_t q) const {
  return pooled_lag1(std::span<const batch_correlogram>(this, 1), q);
}

std::optional<double> pooled_lag1(std::span<const batch_correlogram> series, std::size_t q) {
  if (q == 0 || series.empty()) return std::nullopt;
  // Deviations are taken from the first series' centre, so that batch means far from 0 keep
  // their digits; the grand mean of the used readings is then a small correction. The inputs are
  // doubles, so double sums lose nothing that matters here (the relative error of a sum of h
  // squares is about h 1e-16), and they run several times faster than long double: this loop
  // is the hottest in the change-point search and the stream analysis.
  const double origin = series.front().mean();
  const double qq = static_cast<double>(q);
  double total = 0;
  std::size_t batches = 0;
  for (const auto& c : series) {
    const std::size_t h = c.size() / q;
    if (h < 2) return std::nullopt;
    total += c.prefix_sum(h * q) + (c.mean() - origin) * qq * static_cast<double>(h);
    batches += h;
  }
  const double grand = total / (qq * static_cast<double>(batches));
  double num = 0, den = 0;
  for (const auto& c : series) {
    const std::size_t h = c.size() / q;
    const double shift = c.mean() - origin - grand;
    // Each prefix sum is loaded once and carried to the next batch (batch j is sum[(j+1) q] -
    // sum[j q]): for large q every load is a cache miss, and this halves them. The arithmetic,
    // and so every bit of the result, is that of batch_deviation.
    const double* sum = c.prefix_sums().data();
    double lo = sum[0];
    double prev = (sum[q] - lo) / qq + shift;
    den += prev * prev;
    lo = sum[q];
    for (std::size_t j = 1; j < h; ++j) {
      const double hi = sum[(j + 1) * q];
      const double y = (hi - lo) / qq + shift;
      lo = hi;
      den += y * y;
      num += prev * y;
      prev = y;
    }
  }
  if (den == 0) return std::nullopt;
  return num / den;
}

std::vector<double> batch_means(std::span<const double> x, std::size_t q) {
  std::vector<double> out;
  if (q == 0) return out;
  const std::size_t h = x.size() / q;
  if (q == 1) return {x.begin(), x.end()};
  out.reserve(h);
  for (std::size_t j = 0; j < h; ++j) out.push_back(mean(x.subspan(j * q, q)));
  return out;
}

double batch_autocorrelation(std::span<const double> x, std::size_t q) {
  if (q == 0 || x.size() / q < 2) return std::numeric_limits<double>::quiet_NaN();
  // Batch means that do not vary have nothing to correlate: 0, so they qualify at any limit.
  return batch_correlogram(x).lag1(q).value_or(0.0);
}

std::optional<subsession_choice> choose_subsession(std::span<const double> x, double limit) {
  if (x.size() < 3) return std::nullopt;
  return choose_subsession(batch_correlogram(x), limit);
}

std::optional<subsession_choice> choose_subsession(const batch_correlogram& correlogram,
                                                   double limit) {
  const std::size_t n = correlogram.size();
  if (n < 3) return std::nullopt;
  for (std::size_t q = 1; q <= n / 3; ++q) {
    const double rho = correlogram.lag1(q).value_or(0.0);
    if (std::abs(rho) <= limit) return subsession_choice{q, n / q, rho};
  }
  return std::nullopt;
}

}  // namespace mcpilot
