#include "mcpilot/stats/changepoint.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <string>
#include <tuple>
#include <utility>

#include "mcpilot/error.hpp"
#include "mcpilot/stats/rank_sum.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

namespace {

// Prefix sums of the readings less their mean: centring keeps the differences of prefix sums
// accurate for long series with a large common offset.
struct centered_prefix {
  std::vector<long double> sum;  // sum[i] = sum_{j<i} (x_j - center)

  explicit centered_prefix(std::span<const double> x) : sum(x.size() + 1, 0) {
    const long double center = mean(x);
    for (std::size_t i = 0; i < x.size(); ++i) sum[i + 1] = sum[i] + (x[i] - center);
  }
};

// Binary segmentation: every candidate split, unordered. Explicit stack, since a series whose
// splits fall at min_segment from an end recurses n / min_segment deep.
std::vector<std::size_t> propose(const centered_prefix& s, std::size_t n, std::size_t ms) {
  std::vector<std::size_t> out;
  std::vector<std::pair<std::size_t, std::size_t>> todo{{0, n}};
  while (!todo.empty()) {
    const auto [b, e] = todo.back();
    todo.pop_back();
    if (e - b < 2 * ms) continue;
    const long double len = static_cast<long double>(e - b);
    const long double total = s.sum[e] - s.sum[b];
    long double best = 0;
    std::size_t at = 0;
    for (std::size_t t = b + ms; t + ms <= e; ++t) {
      const long double tl = static_cast<long double>(t - b), tr = len - tl;
      const long double left = s.sum[t] - s.sum[b];
      const long double diff = left / tl - (total - left) / tr;
      const long double reduction = tl * tr / len * diff * diff;
      if (reduction > best) {
        best = reduction;
        at = t;
      }
    }
    if (at == 0) continue;  // a constant segment: no split reduces anything
    out.push_back(at);
    todo.emplace_back(b, at);
    todo.emplace_back(at, e);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The count of the longer side's means actually compared. Up to 64 (the sizes rank_sum keeps
// in one precomputed table) it is all of them; beyond, the largest floor(k 2^(j/4)) that is
// available, so that the tests of a long series share a few hundred exact tables rather than
// needing one for every pair of lengths. That drops less than 16% of the longer side, whose
// weight in the precision of a difference of means is the smaller one.
std::size_t canonical_count(std::size_t k, std::size_t available) {
  if (available <= 64 || available <= k) return available;
  std::size_t best = k;
  for (int j = 1;; ++j) {
    const auto g =
        static_cast<std::size_t>(std::floor(static_cast<double>(k) * std::exp2(j / 4.0)));
    if (g > available) return best;
    best = g;
  }
}

struct test_plan {
  std::size_t q = 0, k = 0, m = 0;  // subsession size; means of the shorter and longer side
};

// The smallest q >= q0 for which tabulating the exact distribution, k (k m / 2) operations for
// k <= m means, stays within `work`.
test_plan plan(std::size_t q0, std::size_t shorter, std::size_t longer, double work) {
  for (std::size_t q = std::max<std::size_t>(q0, 1);; ++q) {
    const std::size_t k = shorter / q, m = canonical_count(k, longer / q);
    const double kk = static_cast<double>(k), mm = static_cast<double>(m);
    if (k == 0 || kk * kk * mm / 2 <= work) return {q, k, m};
  }
}

// Exact p of the difference between the segments [b, at) and [at, e), on subsession means
// aligned at `at`. The longer segment is used up to length_ratio times the shorter one's length,
// next to the candidate.
double segment_p(std::span<const double> x, std::size_t b, std::size_t at, std::size_t e,
                 const changepoint_options& opt) {
  const bool left_shorter = at - b <= e - at;
  const std::size_t shorter = std::min(at - b, e - at);
  const std::size_t longer =
      std::min(std::max(at - b, e - at), shorter * std::max<std::size_t>(opt.length_ratio, 1));
  const std::span<const double> near_longer =
      left_shorter ? x.subspan(at, longer) : x.subspan(at - longer, longer);
  const auto choice = choose_subsession(near_longer, opt.autocorrelation_limit);
  if (!choice) return 1;
  const test_plan t = plan(choice->size, shorter, longer, static_cast<double>(opt.rank_table_work));
  if (t.k == 0) return 1;
  const std::size_t ka = left_shorter ? t.k : t.m, kb = left_shorter ? t.m : t.k;
  // batch_means sums each batch directly, so equal readings give equal means and ties survive.
  const std::vector<double> ya = batch_means(x.subspan(at - ka * t.q, ka * t.q), t.q);
  const std::vector<double> yb = batch_means(x.subspan(at, kb * t.q), t.q);
  return rank_sum_test(ya, yb).p;
}

}  // namespace

changepoint_result detect_changepoints(std::span<const double> x,
                                       const changepoint_options& options) {
  const std::size_t n = x.size();
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(x[i]))
      throw reading_error(i, "a reading must be a finite number, got " + std::to_string(x[i]));
  changepoint_result r;
  r.n = n;
  const std::size_t ms = std::max<std::size_t>(options.min_segment, 1);

  std::vector<std::size_t> at;
  if (n >= 2 * ms) at = propose(centered_prefix(x), n, ms);
  r.proposed = at.size();

  // Candidates as a doubly linked list in series order; a max-heap of (p, index) with stale
  // entries skipped by comparing against the candidate's current p.
  const std::size_t c = at.size();
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> prev(c), next(c);
  std::vector<double> p(c);
  std::vector<bool> alive(c, true);
  auto begin_of = [&](std::size_t i) { return prev[i] == none ? std::size_t{0} : at[prev[i]]; };
  auto end_of = [&](std::size_t i) { return next[i] == none ? n : at[next[i]]; };
  using entry = std::pair<double, std::size_t>;
  std::priority_queue<entry> heap;
  for (std::size_t i = 0; i < c; ++i) {
    prev[i] = i == 0 ? none : i - 1;
    next[i] = i + 1 == c ? none : i + 1;
  }
  for (std::size_t i = 0; i < c; ++i) {
    p[i] = segment_p(x, begin_of(i), at[i], end_of(i), options);
    heap.emplace(p[i], i);
  }
  const double threshold = options.alpha / static_cast<double>(n);
  while (!heap.empty()) {
    const auto [pi, i] = heap.top();
    heap.pop();
    if (!alive[i] || pi != p[i]) continue;
    if (pi <= threshold) break;  // the largest p left is small enough: all are
    alive[i] = false;
    const std::size_t l = prev[i], rr = next[i];
    if (l != none) next[l] = rr;
    if (rr != none) prev[rr] = l;
    for (std::size_t j : {l, rr}) {
      if (j == none) continue;
      p[j] = segment_p(x, begin_of(j), at[j], end_of(j), options);
      heap.emplace(p[j], j);
    }
  }
  for (std::size_t i = 0; i < c; ++i) {
    if (!alive[i]) continue;
    r.changepoints.push_back(at[i]);
    r.p_values.push_back(p[i]);
  }

  std::size_t begin = 0, best = 0;
  for (std::size_t k = 0; k <= r.changepoints.size(); ++k) {
    const std::size_t end = k < r.changepoints.size() ? r.changepoints[k] : n;
    if (end - begin > best) {
      best = end - begin;
      r.stable_begin = begin;
      r.stable_end = end;
    }
    begin = end;
  }
  r.accepted = 2 * best > n;
  return r;
}

bool changepoint_detection_due(std::size_t n, std::size_t last_n) {
  if (n <= last_n) return false;
  if (last_n == 0 || n <= 200) return true;
  return 100 * n >= 101 * last_n;
}

}  // namespace mcpilot
