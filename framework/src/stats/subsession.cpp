#include "mcpilot/stats/subsession.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "mcpilot/stats/summary.hpp"
#include "sparse_prefix_sums.hpp"

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

namespace {

// The lag-1 sums of one series' batches of q, deviations `shift` from the series' mean: the loop
// pooled_lag1 runs for each series. Each prefix sum is loaded once and carried to the next batch
// (batch j is sum[(j+1) q] - sum[j q]): for large q every load is a cache miss, and this halves
// them. The arithmetic, and so every bit of the result, is that of batch_deviation.
void add_lag1_sums(const double* sum, std::size_t q, std::size_t h, double shift, double& num,
                   double& den) {
  const double qq = static_cast<double>(q);
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

}  // namespace

std::optional<double> prefix_lag1(std::span<const double> sum, std::size_t q, double noise) {
  if (q == 0 || sum.empty()) return std::nullopt;
  const std::size_t h = (sum.size() - 1) / q;
  if (h < 2) return std::nullopt;
  const double qq = static_cast<double>(q), hh = static_cast<double>(h);
  const double grand = (sum[h * q] - sum[0]) / (qq * hh);
  // The change-point search calls this for every q of tens of thousands of segments, and on
  // strongly correlated readings (queue waits) it was half of a stream-style round. A multiply
  // instead of a divide per batch, and two chains of sums instead of one, so that consecutive
  // batches do not wait on each other's additions: about three times faster, at the price of
  // a few roundings (the analysis proper keeps batch_correlogram::lag1's own arithmetic).
  // The two chains are the two lanes of one SSE2 vector (batches 2i+1 and 2i+2, in the order
  // the scalar chains took them, so every bit is theirs): half the instructions again.
  using lanes = double __attribute__((vector_size(16)));
  const double inv = 1 / qq;
  const double* s = sum.data();
  const double first = (s[q] - s[0]) * inv - grand;
  lanes den = {first * first, 0}, num = {0, 0};
  lanes y = {0, first};      // lane 1: the batch before the next pair
  lanes bounds = {0, s[q]};  // lane 1: the sum that opens the next pair's first batch
  std::size_t j = 1;
  auto step = [&](lanes hi, lanes lo) {
    const lanes next = (hi - lo) * inv - grand;
    den += next * next;
    num += __builtin_shufflevector(y, next, 1, 2) * next;
    y = next;
    bounds = hi;
  };
  if (q == 1) {  // the costliest q, whose sums are adjacent: two loads instead of a shuffle
    for (; j + 1 < h; j += 2) {
      lanes hi, lo;
      std::memcpy(&hi, s + j + 1, sizeof hi);
      std::memcpy(&lo, s + j, sizeof lo);
      step(hi, lo);
    }
  } else {
    for (; j + 1 < h; j += 2) {
      const lanes hi = {s[(j + 1) * q], s[(j + 2) * q]};
      step(hi, __builtin_shufflevector(bounds, hi, 1, 2));
    }
  }
  double den0 = den[0], num0 = num[0];
  if (j < h) {
    const double last = (s[(j + 1) * q] - bounds[1]) * inv - grand;
    den0 += last * last;
    num0 += y[1] * last;
  }
  const double total_den = den0 + den[1], total_num = num0 + num[1];
  if (total_den <= hh * noise * noise) return std::nullopt;  // every batch mean within rounding
  return total_num / total_den;
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
    add_lag1_sums(c.prefix_sums().data(), q, h, c.mean() - origin - grand, num, den);
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
  // Up to 2^16 readings the full sums are built (512 KB at most). Beyond, only every 64th is
  // kept and each group of q (1-2, then four times as many at a time) is read off in one pass:
  // the same doubles (sparse_prefix_sums.hpp), without 8 bytes a reading held beside the
  // readings and, after a change-point search, its exact tables.
  constexpr std::size_t streamed_from = std::size_t{1} << 16;
  if (x.size() < streamed_from) return choose_subsession(batch_correlogram(x), limit);
  const std::size_t n = x.size();
  const sparse_prefix_sums sums(x, mean(x), 64);
  for (std::size_t first = 1; first <= n / 3;) {
    const std::size_t last = lag1_group_last(first, n / 3);
    const auto rhos = streamed_lag1(sums, 0, n, first, last, lag1_arithmetic::pooled);
    for (std::size_t q = first; q <= last; ++q) {
      const double rho = rhos[q - first].value_or(0.0);
      if (std::abs(rho) <= limit) return subsession_choice{q, n / q, rho};
    }
    first = last + 1;
  }
  return std::nullopt;
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
