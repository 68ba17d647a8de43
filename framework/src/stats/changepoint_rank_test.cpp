// Step 2 of changepoint.hpp, the test of one candidate: the subsession size from the
// autocorrelation of the batch means of its window, the bound on the exact table's cost, and the
// rank test of the two sides' batch sums. Apart from the elimination (changepoint.cpp), which
// needs only a candidate's p and retests its neighbours as candidates go.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "changepoint_parts.hpp"
#include "mcpilot/stats/rank_sum.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "sparse_prefix_sums.hpp"
#include "tie_screen.hpp"

namespace mcpilot::detail {

namespace {

// The two subsession sizes a test may use, on a slice of the series' sums:
// - corrected: lag-1 autocorrelation of batch means estimated from h batches is biased low, by
//   about -(1 + 4 rho) / h for an AR(1)-like sequence whose mean is estimated (Marriott and Pope
//   1954; Kendall 1954), so a short segment of strongly correlated readings appears to qualify at
//   a q whose means are still correlated, and their excursions pass for changes. The corrected
//   estimate inverts that bias: rho~ = (h rho^ + 1) / (h - 4). The smallest q (with at least
//   min_batches batches) whose |rho~| is within the limit; none if none (or not asked for).
// - plain: choose_subsession's rule, the smallest q up to L/3 whose plain |rho_1(q)| is within
//   the limit; the test falls back on it when the corrected rule finds none (and it is Pilot's).
// Both in one pass over q, so that each rho_1(q) is computed once: on short segments of strongly
// correlated readings (queue waits) the corrected rule often finds no q, and searching for the
// plain one apart computed the same rho_1(q) again. Prefix sums make each q cost O(L / q), so
// the search is O(L log L).
struct subsession_sizes {
  std::optional<std::size_t> corrected, plain;
};

// Those two rules, fed rho_1(q) for q = 1, 2, .. in turn on a segment of n readings; take()
// returns true once both sizes are settled. The caller reads the rho off full sums in its own
// loop, or in groups off rebuilt ones: a search through a callable instead cost a stream-style
// round 8%.
class subsession_rule {
 public:
  subsession_rule(std::size_t n, double limit, bool corrected_rule)
      : n_(n), limit_(limit), corrected_open_(corrected_rule && n >= min_batches) {}
  bool take(std::size_t q, std::optional<double> rho) {
    if (!r_.plain && std::abs(rho.value_or(0.0)) <= limit_) r_.plain = q;
    if (corrected_open_ && n_ / q < min_batches) corrected_open_ = false;
    if (corrected_open_) {
      if (!rho) return r_.corrected = q, true;  // constant means: nothing to correlate
      const double hh = static_cast<double>(n_ / q);
      if (std::abs((hh * *rho + 1) / (hh - 4)) <= limit_) return r_.corrected = q, true;
    }
    return r_.plain && !corrected_open_;
  }
  const subsession_sizes& sizes() const { return r_; }

 private:
  static constexpr std::size_t min_batches = 8;
  std::size_t n_;
  double limit_;
  bool corrected_open_;
  subsession_sizes r_;
};

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

// Sums of consecutive batches of q readings, into `out`. The rank tests need only their order,
// which the division by q would not change; each is summed directly in one order, so equal
// readings give equal sums and ties survive (a difference of prefix sums would not guarantee
// that). O(n).
std::span<double> batch_sums(std::span<const double> x, std::size_t q, std::vector<double>& out) {
  out.resize(x.size() / q);
  if (q == 1) {
    std::copy(x.begin(), x.end(), out.begin());
    return out;
  }
  // Four batches at a time, each still summed alone and in order (the same roundings), so that
  // four chains of additions overlap instead of each waiting on the one before.
  const double* v = x.data();
  std::size_t j = 0;
  for (; j + 4 <= out.size(); j += 4) {
    const double* b = v + j * q;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (std::size_t i = 0; i < q; ++i) {
      s0 += b[i];
      s1 += b[q + i];
      s2 += b[2 * q + i];
      s3 += b[3 * q + i];
    }
    out[j] = s0;
    out[j + 1] = s1;
    out[j + 2] = s2;
    out[j + 3] = s3;
  }
  for (; j < out.size(); ++j) {
    double s = 0;
    for (std::size_t i = j * q; i < (j + 1) * q; ++i) s += v[i];
    out[j] = s;
  }
  return out;
}

// The sums of q readings over a, then b, offered to a screen (tie_screen.hpp) a few thousand at
// a time through `buf` rather than all held. Each sum is batch_sums' own.
tie_screen screen_sums(std::span<const double> a, std::span<const double> b, std::size_t q,
                       double limit, std::vector<double>& buf) {
  tie_screen screen(a.size() / q + b.size() / q, limit);
  constexpr std::size_t piece = 4096;
  for (const std::span<const double> side : {a, b}) {
    if (q == 1) {  // the sums are the readings
      screen.offer(side);
      continue;
    }
    const std::size_t h = side.size() / q;
    for (std::size_t j = 0; j < h; j += piece)
      screen.offer(batch_sums(side.subspan(j * q, std::min(piece, h - j) * q), q, buf));
  }
  return screen;
}

// The bound on one table's cost for a series of n readings: rank_table_work, lowered for long
// series (which need some n / 10 tests, and gain no useful power from finer means) to
// max(2^18, 2^34 / n), so that 10^5 readings stay well under a second even with a cold cache.
// It depends on n alone, never on the readings' order.
double table_work(const changepoint_options& opt, std::size_t n) {
  const double cap = std::max(std::ldexp(1.0, 18), std::ldexp(1.0, 34) / static_cast<double>(n));
  return std::min(static_cast<double>(opt.rank_table_work), cap);
}

// The rank tests' table cache for a series of n readings. The distinct tables a search asks for
// grow more slowly than n (measured on AR(1) series, the cells kept: 0.67e6 numbers at 10^5
// readings, 1.15e6 at 10^6), and most are asked for again by later tests. 2n keeps them all from
// some 6 10^5 readings on; below, the least recently used are rebuilt when needed again (at
// 10^5, 1,212 builds per search instead of 1,053 once), so that analysing 10^5 readings stays
// below Pilot's peak memory. Between the default 2 MB and 64 MB.
rank_sum_options test_options(std::size_t n) {
  rank_sum_options o;
  o.cache_cells = std::clamp<std::uint64_t>(std::uint64_t{2} * n, rank_sum_default_cache_cells,
                                            std::uint64_t{1} << 23);
  return o;
}

// The p of one rank test, and whether that test could have kept the candidate at all.
struct rank_outcome {
  double p = 1;
  bool can_reach = false;  // its smallest p, 2 / C(k + m, k) without ties, is <= the threshold
};

bool reaches(std::size_t k, std::size_t m, double threshold) {
  if (k == 0) return false;
  const double kk = static_cast<double>(k), mm = static_cast<double>(m);
  const double log_choose = std::lgamma(kk + mm + 1) - std::lgamma(kk + 1) - std::lgamma(mm + 1);
  return std::log(2.0) - log_choose <= std::log(threshold);
}

// Exact p of the difference between the segments [b, at) and [at, e), on subsession means
// aligned at `at`. The longer segment is used up to length_ratio times the shorter one's length,
// next to the candidate.
rank_outcome test_at(std::span<const double> x, std::size_t at, bool left_shorter,
                     std::size_t shorter, std::size_t longer, std::size_t q0,
                     const search_context& ctx, test_scratch& scratch) {
  const test_plan t = plan(q0, shorter, longer, ctx.table_work);
  if (t.k == 0) return {};
  const bool can_reach = reaches(t.k, t.m, ctx.threshold);
  auto sides = [&](const test_plan& plan) {  // the readings under each side's means
    const std::size_t ka = left_shorter ? plan.k : plan.m, kb = left_shorter ? plan.m : plan.k;
    return std::pair{x.subspan(at - ka * plan.q, ka * plan.q), x.subspan(at, kb * plan.q)};
  };
  auto means = [&](const test_plan& plan) {
    const auto [a, b] = sides(plan);
    return std::pair{batch_sums(a, plan.q, scratch.left), batch_sums(b, plan.q, scratch.right)};
  };
  if (t.q != q0) {
    // The cost bound is for the rank tables. If the means at the autocorrelation's own q are
    // mostly tied (0/1 or coarsely quantised readings), the test there is Fisher's, which needs
    // no table, and merging further would only blur the classes. The choice looks at the pooled
    // values alone, so it does not change the null distribution of either test.
    // They are screened as they are summed, and held only if they may be tied: a copy was most
    // of the series in the last tests of a long one (8 MB of the peak at 10^6 readings).
    const std::size_t k0 = shorter / q0;
    const test_plan fine{q0, k0, canonical_count(k0, longer / q0)};
    const double limit = rank_sum_options{}.tie_factor_limit;
    const auto [ra, rb] = sides(fine);
    const tie_screen screen = screen_sums(ra, rb, q0, limit, scratch.screen);
    if (screen.may_be_tied()) {
      const auto [ya, yb] = means(fine);
      if (screen.mostly_tied(ya, yb))
        return {rank_sum_test_in_place(ya, yb, ctx.rank).p, reaches(k0, fine.m, ctx.threshold)};
    }
  }
  const auto [ya, yb] = means(t);
  return {rank_sum_test_in_place(ya, yb, ctx.rank).p, can_reach};
}

// Keep the buffers for the many short tests, but not those of a long segment: a few tests of a
// long series compare most of it, and holding their buffers would raise the peak memory.
void release(test_scratch& scratch) {
  for (auto* v : {&scratch.left, &scratch.right, &scratch.sums})
    if (v->capacity() > (std::size_t{1} << 16)) std::vector<double>().swap(*v);
}

// Windows of this many sums and more are searched in pieces rather than rebuilt whole (128 KB).
constexpr std::size_t streamed_above = std::size_t{1} << 14;

}  // namespace

search_context::search_context(const changepoint_options& o, std::size_t readings,
                               std::size_t points)
    : opt(o),
      table_work(detail::table_work(o, readings)),
      rank(test_options(readings)),
      threshold(o.alpha / static_cast<double>(points)) {}

test_window window_of(std::size_t b, std::size_t at, std::size_t e,
                      const changepoint_options& opt) {
  test_window w;
  w.left_shorter = at - b <= e - at;
  w.shorter = std::min(at - b, e - at);
  w.longer =
      std::min(std::max(at - b, e - at), w.shorter * std::max<std::size_t>(opt.length_ratio, 1));
  return w;
}

segment_test test_segments(std::span<const double> x, const series_sums& sums, std::size_t at,
                           const test_window& w, const search_context& ctx, test_scratch& scratch) {
  const changepoint_options& opt = ctx.opt;
  const auto [left_shorter, shorter, longer] = w;
  const std::size_t lb = left_shorter ? at : at - longer, le = lb + longer;
  segment_test r;
  const double noise = sums.noise(lb, le);
  const std::size_t n = le - lb;
  subsession_rule rule(n, opt.autocorrelation_limit, opt.correct_autocorrelation_bias);
  if (sums.whole() || n < streamed_above) {
    const std::span<const double> near_longer = sums.slice(lb, le, scratch.sums);
    for (std::size_t q = 1; q <= n / 3; ++q)
      if (rule.take(q, prefix_lag1(near_longer, q, noise))) break;
  } else {
    // A long window's sums are not built whole: each group of q (1-2, then four times as many
    // at a time) is read off in one pass over rebuilt pieces.
    for (std::size_t first = 1; first <= n / 3;) {
      const std::size_t last = lag1_group_last(first, n / 3);
      const auto group =
          streamed_lag1(sums.sparse(), lb, le, first, last, lag1_arithmetic::paired, noise);
      std::size_t q = first;
      while (q <= last && !rule.take(q, group[q - first])) ++q;
      if (q <= last) break;
      first = last + 1;
    }
  }
  const subsession_sizes sizes = rule.sizes();
  const bool fallback = opt.few_batch_fallback && opt.correct_autocorrelation_bias;
  if (sizes.corrected) {
    const rank_outcome t =
        test_at(x, at, left_shorter, shorter, longer, *sizes.corrected, ctx, scratch);
    r.p = r.order_p = t.p;
    // A test too small to reach the threshold says nothing against a change: removed for its p,
    // a 12-sd step with 30 readings on one side went before the false candidates beside it.
    if (t.can_reach || t.p <= ctx.threshold || !fallback) return release(scratch), r;
    r.p.reset();
  }
  // Untestable by ranks. Ordered by the plain-q test's p alone, a candidate whose shorter side
  // holds no batch there (p = 1) went first: a 12-sd step between a short segment and a long
  // wandering one before the false candidates beside it (docs/statistics.md, "A step among
  // wandering runs").
  std::optional<few_batch_result> t;
  if (fallback) {
    const std::size_t q = shorter / few_batches;
    t = few_batch_test(x, at, left_shorter, shorter, longer, sizes.plain && *sizes.plain <= q);
    if (t->valid) {
      r.p = r.order_p = t->p;
      r.test = changepoint_test::few_batches;
      return release(scratch), r;
    }
  }
  if (sizes.plain && !sizes.corrected) {
    r.order_p = test_at(x, at, left_shorter, shorter, longer, *sizes.plain, ctx, scratch).p;
    if (!opt.correct_autocorrelation_bias) r.p = r.order_p;
  }
  if (t) r.order_p = std::min(r.order_p, t->p);
  release(scratch);
  return r;
}

}  // namespace mcpilot::detail
