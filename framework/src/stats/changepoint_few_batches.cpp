// The test a candidate falls back on when its rank test cannot be made (changepoint.hpp, step 2):
// a step between two stretches each of which wanders over tens of readings. Every subsession
// size with the 8 batches the bias-corrected lag 1 needs still has correlated means there, and
// with the 4 or 5 batches a side of such a stretch holds, the exact rank test cannot reach
// alpha / n (8 + 8 means give at least 2 / C(16, 8) = 1.6e-4). So the step among wandering runs
// of docs/statistics.md was never kept, even at 12 standard deviations.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "changepoint_parts.hpp"
#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot::detail {

namespace {

// The medians of h consecutive batches of q readings into `out`, and their mean. Medians, not
// means: a warm-up of 20 readings at ten times the level lay in the first batch of the recorded
// case, and its mean alone made the t-test's variance too large to see the step.
double median_of_batches(std::span<const double> x, std::size_t q, std::size_t h, double* out,
                         std::vector<double>& buf) {
  double total = 0;
  for (std::size_t j = 0; j < h; ++j) {
    buf.assign(x.begin() + static_cast<std::ptrdiff_t>(j * q),
               x.begin() + static_cast<std::ptrdiff_t>((j + 1) * q));
    out[j] = median_in_place(buf);
    total += out[j];
  }
  return total / static_cast<double>(h);
}

}  // namespace

few_batch_result few_batch_test(std::span<const double> x, std::size_t at, bool left_shorter,
                                std::size_t shorter, std::size_t longer, bool plain_within) {
  const std::size_t q = shorter / few_batches;
  if (q == 0) return {};
  const std::size_t ha = shorter / q, hb = std::min(longer / q, max_longer_batches);
  std::array<double, max_longer_batches + 2 * few_batches> means;
  std::vector<double> buf;
  double* a = means.data();
  double* b = means.data() + ha;
  const std::size_t ka = left_shorter ? ha : hb, kb = left_shorter ? hb : ha;
  const double ma =
      median_of_batches(x.subspan(at - ka * q, ka * q), q, ka, left_shorter ? a : b, buf);
  const double mb = median_of_batches(x.subspan(at, kb * q), q, kb, left_shorter ? b : a, buf);
  const double mean_short = left_shorter ? ma : mb, mean_long = left_shorter ? mb : ma;
  double ss = 0;
  for (std::size_t j = 0; j < ha; ++j) ss += (a[j] - mean_short) * (a[j] - mean_short);
  for (std::size_t j = 0; j < hb; ++j) ss += (b[j] - mean_long) * (b[j] - mean_long);
  const double df = static_cast<double>(ha + hb - 2);
  const double se =
      std::sqrt(ss / df * (1.0 / static_cast<double>(ha) + 1.0 / static_cast<double>(hb)));
  const double d = std::abs(mean_short - mean_long);
  few_batch_result r;
  r.p = !(se > 0) ? (d > 0 ? 0.0 : 1.0) : 2 * t_cdf(df, -d / se);
  // Not where the corrected rule found means of q readings nearly independent but the rank test
  // could not reach alpha / n: there the t on few medians cut a cool-down in 41 of 60 sessions of
  // M/M/1 waits at rho 0.9 (5 before) and doubled their readings, its tails too light for busy
  // periods at alpha / n.
  r.valid = longer / q < 8 && plain_within;
  return r;
}

}  // namespace mcpilot::detail
