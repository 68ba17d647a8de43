// Step 1 of changepoint.hpp, the proposal: binary segmentation of the series by its prefix sums,
// with the bound per block that lets a scan skip most splits. Apart from the tests
// (changepoint_rank_test.cpp) because it shares nothing with them but the sums
// (changepoint_parts.hpp), and it is the one place the search's scan time goes.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "changepoint_parts.hpp"

namespace mcpilot::detail {

namespace {

// The best split of [b, e) (at least ms readings each side): the first t with the largest
// reduction of the sum of squares, (left len - total tl)^2 / (tl tr len); 0 when none reduces
// anything.
//
// The reduction's two divisions made a plain scan, run over every reading at every level of
// the segmentation, the slowest loop of the detection; and splits of noise fall near the ends,
// so a series of 10^6 readings is scanned some 85 times over. Two rules keep the winner the same
// split while looking at few of them:
// - a screen without division: t can beat `best` only if d^2 = (left len - total tl)^2 comes
//   within a relative 1e-9 of best tl tr len (the two forms differ by a few rounding errors);
//   only then is the reduction computed, by the formula of the plain scan;
// - a bound per block: over a block of t, left lies between the block's least and greatest
//   prefix sum, so |d| is at most its largest value at the four corners (d is bilinear in left
//   and tl), and tl tr is least at an end of the block (it is concave). The block holding the
//   largest bound is scanned first, which usually finds the winner, and every block whose bound
//   falls below the screen is skipped. Ties go to the smaller t, as in a scan in order.
std::size_t best_split(const double* sum, const prefix_ranges& ranges, std::size_t b, std::size_t e,
                       std::size_t ms) {
  const double len = static_cast<double>(e - b);
  const double base = sum[b];
  const double total = sum[e] - base;
  double best = 0;
  std::size_t at = 0;
  auto scan = [&](std::size_t from, std::size_t to) {  // t in [from, to)
    for (std::size_t t = from; t < to; ++t) {
      const double tl = static_cast<double>(t - b), tr = len - tl;
      const double left = sum[t] - base;
      const double d = left * len - total * tl;
      if (!(d * d > best * (1 - 1e-9) * tl * tr * len)) continue;
      const double diff = left / tl - (total - left) / tr;
      const double reduction = tl * tr / len * diff * diff;
      if (reduction > best || (reduction == best && reduction > 0 && t < at)) {
        best = reduction;
        at = t;
      }
    }
  };
  const std::size_t first = b + ms, last = e - ms + 1;  // t in [first, last)
  if (last - first < 4 * proposal_block) {
    scan(first, last);
    return at;
  }
  const std::size_t k0 = first / proposal_block, k1 = (last - 1) / proposal_block;
  auto block_from = [&](std::size_t k) { return std::max(first, k * proposal_block); };
  auto block_to = [&](std::size_t k) { return std::min(last, (k + 1) * proposal_block); };
  auto bound = [&](std::size_t k) {  // >= d^2 / (tl tr) for every t of block k
    const double t0 = static_cast<double>(block_from(k) - b);
    const double t1 = static_cast<double>(block_to(k) - 1 - b);
    const double l0 = ranges.lo[k] - base, l1 = ranges.hi[k] - base;
    const double d = std::max({std::abs(l0 * len - total * t0), std::abs(l0 * len - total * t1),
                               std::abs(l1 * len - total * t0), std::abs(l1 * len - total * t1)});
    const double ends = std::min(t0 * (len - t0), t1 * (len - t1));
    return d * d / ends;
  };
  std::size_t top = k0;
  double top_bound = -1;
  for (std::size_t k = k0; k <= k1; ++k)
    if (const double v = bound(k); v > top_bound) top_bound = v, top = k;
  scan(block_from(top), block_to(top));
  for (std::size_t k = k0; k <= k1; ++k) {
    // The bound is a few roundings from exact; 1e-6 of slack keeps it an upper bound.
    if (k == top || bound(k) * (1 + 1e-6) < best * (1 - 1e-9) * len) continue;
    scan(block_from(k), block_to(k));
  }
  return at;
}

}  // namespace

// Binary segmentation: every candidate split, unordered. Explicit stack, since a series whose
// splits fall at min_segment from an end recurses n / min_segment deep.
// The centred prefix sums of the correlogram keep the differences accurate for long series with a
// large common offset.
std::vector<std::size_t> propose(const series_sums& s, std::size_t n, std::size_t ms) {
  std::vector<std::size_t> out;
  std::vector<std::pair<std::size_t, std::size_t>> todo{{0, n}};
  while (!todo.empty()) {
    const auto [b, e] = todo.back();
    todo.pop_back();
    if (e - b < 2 * ms) continue;
    const std::size_t at = best_split(s.all().data(), s.ranges(), b, e, ms);
    if (at == 0) continue;  // a constant segment: no split reduces anything
    out.push_back(at);
    todo.emplace_back(b, at);
    todo.emplace_back(at, e);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace mcpilot::detail
