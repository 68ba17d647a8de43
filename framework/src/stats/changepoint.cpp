#include "mcpilot/stats/changepoint.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "mcpilot/error.hpp"
#include "mcpilot/number_text.hpp"
#include "mcpilot/stats/rank_sum.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "mcpilot/stats/summary.hpp"
#include "sparse_prefix_sums.hpp"
#include "tie_screen.hpp"

namespace mcpilot {

double changepoint_autocorrelation_limit(double interval_limit) {
  return std::min(interval_limit, loosest_changepoint_autocorrelation);
}

namespace {

// The proposal scan's blocks: the least and greatest prefix sum in each aligned block of
// `proposal_block` sums, so that a whole block of splits can be ruled out at once. O(n) to build,
// 2 n / proposal_block doubles.
constexpr std::size_t proposal_block = 64;

struct prefix_ranges {
  std::vector<double> lo, hi;
  explicit prefix_ranges(std::span<const double> sum) {
    const std::size_t blocks = (sum.size() + proposal_block - 1) / proposal_block;
    lo.resize(blocks);
    hi.resize(blocks);
    for (std::size_t k = 0; k < blocks; ++k) {
      const auto part = sum.subspan(k * proposal_block,
                                    std::min(proposal_block, sum.size() - k * proposal_block));
      const auto [a, b] = std::minmax_element(part.begin(), part.end());
      lo[k] = *a;
      hi[k] = *b;
    }
  }
};

// The whole series' prefix sums about its mean: the proposal scans them, and every test's
// subsession search reads its segment's batch means off them. Each test used to build its
// segment's own sums, about the segment's own mean (a pass for the mean in long double and one
// for the sums): a fifth of the detection's time, and 8 bytes per reading of the longest
// segment tested. Differences of these sums carry rounding errors instead of being exact, which
// matters only where the batch means are all equal (a constant stretch of 0/1 or quantised
// readings must still count as one, "nothing to correlate"): noise() bounds that error.
//
// The proposal holds all n + 1 sums. Past 2^18 readings (2 MB of sums) the tests that follow
// keep only every 64th and rebuild a test's slice from them, to the last bit the same
// (sparse_prefix_sums.hpp): the full sums held through the elimination, while the exact tables
// grow, were a quarter of the peak memory of analysing 10^6 readings. Rebuilding costs time
// (6-12% of a search of 10^6 AR(1) readings; 23% of a stream-style round of 4 x 210,000 queue
// waits, whose tests read few of the sums they span), so shorter series, where the sums weigh
// little against the program itself, keep them.
class series_sums {
 public:
  explicit series_sums(std::span<const double> x)
      : x_(x), full_(x), ranges_(full_->prefix_sums()) {}

  // All n + 1 sums, until release(): the proposal's.
  std::span<const double> all() const { return full_->prefix_sums(); }
  const prefix_ranges& ranges() const { return ranges_; }
  // Every 64th sum, once the full ones are released.
  const sparse_prefix_sums& sparse() const { return *sparse_; }
  bool whole() const { return full_.has_value(); }
  // Frees the full sums of a long series.
  void release() {
    if (!full_ || full_->size() < released_from) return;
    sparse_.emplace(x_, full_->mean(), full_->prefix_sums(), proposal_block);
    full_.reset();
  }
  // Sums b .. e: a view of the full sums, or rebuilt into `out`.
  std::span<const double> slice(std::size_t b, std::size_t e, std::vector<double>& out) const {
    return full_ ? full_->prefix_sums().subspan(b, e - b + 1) : sparse_->fill(b, e, out);
  }

  // Each sum is a running sum of rounded deviations, so the difference of the sums bounding a
  // batch of q readings errs by at most about (q + 1) eps M, with M the largest |sum| around it,
  // and a batch mean by 2 eps M; the grand mean as much again. 16 eps M bounds the error of a
  // deviation with room to spare. M comes from the blocks' ranges. O((e - b) / 64).
  double noise(std::size_t b, std::size_t e) const {
    double m = 0;
    for (std::size_t k = b / proposal_block; k <= e / proposal_block && k < ranges_.lo.size(); ++k)
      m = std::max({m, std::abs(ranges_.lo[k]), std::abs(ranges_.hi[k])});
    return 16 * std::numeric_limits<double>::epsilon() * m;
  }

 private:
  static constexpr std::size_t released_from = std::size_t{1} << 18;
  std::span<const double> x_;
  std::optional<batch_correlogram> full_;
  prefix_ranges ranges_;
  std::optional<sparse_prefix_sums> sparse_;
};

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

// The buffers a long search reuses from test to test: thousands of tests each allocating its
// own (page faults for the large ones) cost more than filling them.
struct test_scratch {
  std::vector<double> left, right;  // the two sides' batch sums
  std::vector<double> sums;         // the prefix sums of the longer side's window
  std::vector<double> screen;       // a few thousand batch sums at a time, for screen_sums
};

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

// What the tests of one search share: the options, and the two bounds that follow from the
// series' length in readings. A long series searched on means (changepoint.hpp, step 4) keeps
// the bounds of its readings, so that its tests compare no more means than a search of the
// readings would, and its tables stay cached: counted in means, a table bound twice as large and
// a cache too small for the tables the search asks for again made the first search of 10^6
// readings cost 1.5 times as much and every later one 7 times (docs/performance.md, fifteenth
// pass).
struct search_context {
  const changepoint_options& opt;
  double table_work;
  rank_sum_options rank;
  search_context(const changepoint_options& o, std::size_t readings)
      : opt(o), table_work(mcpilot::table_work(o, readings)), rank(test_options(readings)) {}
};

// The outcome of testing one candidate.
struct segment_test {
  std::optional<double> p;  // exact p; none when no subsession size qualifies (untestable)
  double order_p = 1;       // for an untestable candidate: the p at the plain estimate's q
};

// Exact p of the difference between the segments [b, at) and [at, e), on subsession means
// aligned at `at`. The longer segment is used up to length_ratio times the shorter one's length,
// next to the candidate.
double test_at(std::span<const double> x, std::size_t at, bool left_shorter, std::size_t shorter,
               std::size_t longer, std::size_t q0, const search_context& ctx,
               test_scratch& scratch) {
  const test_plan t = plan(q0, shorter, longer, ctx.table_work);
  if (t.k == 0) return 1;
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
      if (screen.mostly_tied(ya, yb)) return rank_sum_test_in_place(ya, yb, ctx.rank).p;
    }
  }
  const auto [ya, yb] = means(t);
  return rank_sum_test_in_place(ya, yb, ctx.rank).p;
}

// The readings a test of the split at `at` between [b, at) and [at, e) looks at: all of the
// shorter side, and of the longer side at most length_ratio times as many, next to the split.
// Two tests of one candidate with the same window give the same p.
struct test_window {
  bool left_shorter = false;
  std::size_t shorter = 0, longer = 0;
  bool operator==(const test_window&) const = default;
};

test_window window_of(std::size_t b, std::size_t at, std::size_t e,
                      const changepoint_options& opt) {
  test_window w;
  w.left_shorter = at - b <= e - at;
  w.shorter = std::min(at - b, e - at);
  w.longer =
      std::min(std::max(at - b, e - at), w.shorter * std::max<std::size_t>(opt.length_ratio, 1));
  return w;
}

// Windows of this many sums and more are searched in pieces rather than rebuilt whole (128 KB).
constexpr std::size_t streamed_above = std::size_t{1} << 14;

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
  if (sizes.corrected) {
    r.p = r.order_p = test_at(x, at, left_shorter, shorter, longer, *sizes.corrected, ctx, scratch);
  } else if (sizes.plain) {
    const double p = test_at(x, at, left_shorter, shorter, longer, *sizes.plain, ctx, scratch);
    r.order_p = p;
    if (!opt.correct_autocorrelation_bias) r.p = p;
  }
  // Keep the buffers for the many short tests, but not those of a long segment: a few tests of a
  // long series compare most of it, and holding their buffers would raise the peak memory.
  for (auto* v : {&scratch.left, &scratch.right, &scratch.sums})
    if (v->capacity() > (std::size_t{1} << 16)) std::vector<double>().swap(*v);
  return r;
}

// The candidates still in play, most removable first: a binary max-heap holding each candidate
// once, whose priority is changed in place when it is tested again. A heap of every test's
// entry, the stale ones skipped when they surfaced, held about twice as many and cost a
// twentieth of a search in cache misses. Ties cannot occur (the index is part of the order), so
// the order of removals is the same as any other heap's.
class removal_queue {
 public:
  struct entry {
    int tier;  // 2: remove, largest key first; 1: remove once no tier 2 is left; 0: kept
    double key;
    std::size_t index;
    bool operator<(const entry& o) const {
      return std::tie(tier, key, index) < std::tie(o.tier, o.key, o.index);
    }
  };

  explicit removal_queue(std::size_t candidates) : where_(candidates, absent) {
    heap_.reserve(candidates);
  }
  bool empty() const { return heap_.empty(); }
  const entry& top() const { return heap_.front(); }

  void set(const entry& e) {
    std::size_t at = where_[e.index];
    if (at == absent) {
      at = heap_.size();
      heap_.push_back(e);
    } else {
      heap_[at] = e;
    }
    down(up(at));
  }

  void pop() {
    where_[heap_.front().index] = absent;
    const entry last = heap_.back();
    heap_.pop_back();
    if (heap_.empty()) return;
    heap_.front() = last;
    down(0);
  }

 private:
  static constexpr std::size_t absent = static_cast<std::size_t>(-1);

  // Moves the entry at `at` towards the root while it outranks its parent; returns its place.
  std::size_t up(std::size_t at) {
    const entry e = heap_[at];
    while (at > 0 && heap_[(at - 1) / 2] < e) {
      heap_[at] = heap_[(at - 1) / 2];
      where_[heap_[at].index] = at;
      at = (at - 1) / 2;
    }
    heap_[at] = e;
    return at;
  }
  // Then towards the leaves while a child outranks it, and records where it stays.
  void down(std::size_t at) {
    const entry e = heap_[at];
    const std::size_t n = heap_.size();
    for (std::size_t child; (child = 2 * at + 1) < n; at = child) {
      if (child + 1 < n && heap_[child] < heap_[child + 1]) ++child;
      if (!(e < heap_[child])) break;
      heap_[at] = heap_[child];
      where_[heap_[at].index] = at;
    }
    heap_[at] = e;
    where_[e.index] = at;
  }

  std::vector<entry> heap_;
  std::vector<std::size_t> where_;
};

// The longest segment between r's change-points (the first of equal ones), and whether it holds
// more than half of the readings.
void choose_stable_phase(changepoint_result& r) {
  std::size_t begin = 0, best = 0;
  for (std::size_t k = 0; k <= r.changepoints.size(); ++k) {
    const std::size_t end = k < r.changepoints.size() ? r.changepoints[k] : r.n;
    if (end - begin > best) {
      best = end - begin;
      r.stable_begin = begin;
      r.stable_end = end;
    }
    begin = end;
  }
  r.accepted = 2 * best > r.n;
}

// Step 5 of changepoint.hpp: merges the neighbouring segments of r whose means differ by less
// than `fraction` of x's mean, the smallest difference first, with their segments' sums kept so
// that each merge costs one pass over the c change-points left: O(c^2), c <= n / min_segment.
void merge_small_shifts(std::span<const double> x, double fraction, changepoint_result& r) {
  if (fraction <= 0 || r.changepoints.empty()) return;
  const double limit = fraction * std::abs(mean(x));
  std::vector<double> sum, count;
  std::size_t begin = 0;
  for (std::size_t k = 0; k <= r.changepoints.size(); ++k) {
    const std::size_t end = k < r.changepoints.size() ? r.changepoints[k] : x.size();
    double s = 0;
    for (std::size_t i = begin; i < end; ++i) s += x[i];
    sum.push_back(s);
    count.push_back(static_cast<double>(end - begin));
    begin = end;
  }
  while (!r.changepoints.empty()) {
    std::size_t smallest = 0;
    double least = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < r.changepoints.size(); ++k) {
      const double d = std::abs(sum[k] / count[k] - sum[k + 1] / count[k + 1]);
      if (d < least) least = d, smallest = k;
    }
    if (!(least < limit)) break;
    sum[smallest] += sum[smallest + 1];
    count[smallest] += count[smallest + 1];
    sum.erase(sum.begin() + static_cast<std::ptrdiff_t>(smallest) + 1);
    count.erase(count.begin() + static_cast<std::ptrdiff_t>(smallest) + 1);
    r.changepoints.erase(r.changepoints.begin() + static_cast<std::ptrdiff_t>(smallest));
    r.p_values.erase(r.p_values.begin() + static_cast<std::ptrdiff_t>(smallest));
  }
}

// Steps 1-3 of changepoint.hpp on x, whose tests take their bounds from `readings`: x.size(),
// or the length of the series whose means x holds.
changepoint_result search(std::span<const double> x, const changepoint_options& options,
                          std::size_t readings) {
  const std::size_t n = x.size();
  changepoint_result r;
  r.n = n;
  const std::size_t ms = std::max<std::size_t>(options.min_segment, 1);

  series_sums sums(x);
  std::vector<std::size_t> at;
  if (n >= 2 * ms) at = propose(sums, n, ms);
  sums.release();
  r.proposed = at.size();

  // Candidates as a doubly linked list in series order, and a queue of removal priorities. The
  // candidate with the largest p above alpha/n goes first. One that cannot be tested (no
  // subsession size qualifies for the bias-corrected estimate on its segments, typically short
  // segments of autocorrelated readings) can never be kept on those segments, but removing it
  // early would throw away a real change whose segments are still short; it is ordered among the
  // others by the p at the plain estimate's q, and one whose plain p is already small waits
  // until nothing else is left to remove. Removing a neighbour lengthens its segments, so it is
  // tested again and may become testable.
  const std::size_t c = at.size();
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  const double threshold = options.alpha / static_cast<double>(n);
  std::vector<std::size_t> prev(c), next(c);
  std::vector<std::optional<double>> p(c);
  // The window of each candidate's current p; none yet is the empty window, never a real one
  // (every side holds at least min_segment >= 1 readings).
  std::vector<test_window> tested(c);
  std::vector<bool> alive(c, true);
  auto begin_of = [&](std::size_t i) { return prev[i] == none ? std::size_t{0} : at[prev[i]]; };
  auto end_of = [&](std::size_t i) { return next[i] == none ? n : at[next[i]]; };
  removal_queue heap(c);
  const search_context ctx(options, readings);
  test_scratch scratch;
  // A removal lengthens one side of each neighbour. When that side is the longer one and already
  // reached length_ratio times the shorter, the neighbour's test window is unchanged, and so are
  // its p and its place in the queue.
  auto evaluate = [&](std::size_t i) {
    const test_window w = window_of(begin_of(i), at[i], end_of(i), options);
    if (w == tested[i]) return;
    tested[i] = w;
    const segment_test t = test_segments(x, sums, at[i], w, ctx, scratch);
    p[i] = t.p;
    const int tier = t.p ? (*t.p > threshold ? 2 : 0) : (t.order_p > threshold ? 2 : 1);
    heap.set({tier, t.order_p, i});
  };
  for (std::size_t i = 0; i < c; ++i) {
    prev[i] = i == 0 ? none : i - 1;
    next[i] = i + 1 == c ? none : i + 1;
  }
  for (std::size_t i = 0; i < c; ++i) evaluate(i);
  while (!heap.empty()) {
    const removal_queue::entry top = heap.top();
    if (top.tier == 0) break;  // the highest priority left is a kept one: all are
    heap.pop();
    const std::size_t i = top.index;
    alive[i] = false;
    const std::size_t l = prev[i], rr = next[i];
    if (l != none) next[l] = rr;
    if (rr != none) prev[rr] = l;
    if (l != none) evaluate(l);
    if (rr != none) evaluate(rr);
  }
  for (std::size_t i = 0; i < c; ++i) {
    if (!alive[i]) continue;
    r.changepoints.push_back(at[i]);
    r.p_values.push_back(*p[i]);
  }
  merge_small_shifts(x, options.min_relative_shift, r);

  choose_stable_phase(r);
  return r;
}

// A series longer than max_points, searched on the means of b readings (changepoint.hpp, step
// 4), its positions then counted in readings again.
changepoint_result search_means(std::span<const double> x, const changepoint_options& options) {
  const std::size_t n = x.size();
  const std::size_t b = n / options.max_points + (n % options.max_points != 0);
  const std::size_t points = n / b;
  std::vector<double> means(points);
  for (std::size_t j = 0; j < points; ++j) {
    const std::size_t begin = j * b, end = j + 1 == points ? n : begin + b;
    means[j] = mean(x.subspan(begin, end - begin));
  }
  changepoint_result r = search(means, options, n);
  for (std::size_t& c : r.changepoints) c *= b;
  r.n = n;
  r.resolution = b;
  // In readings, since the last mean holds more of them.
  choose_stable_phase(r);
  return r;
}

}  // namespace

changepoint_result detect_changepoints(std::span<const double> x,
                                       const changepoint_options& options) {
  const std::size_t n = x.size();
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(x[i]))
      throw reading_error(i, "a reading must be a finite number, got " + number_text(x[i]));
  if (options.max_points != 0 && n > options.max_points) return search_means(x, options);
  return search(x, options, n);
}

std::vector<changepoint_segment> changepoint_segments(std::span<const double> x,
                                                      const changepoint_result& r,
                                                      bool reciprocal) {
  std::vector<changepoint_segment> out;
  std::size_t begin = 0;
  for (std::size_t k = 0; k <= r.changepoints.size(); ++k) {
    const std::size_t end = k < r.changepoints.size() ? r.changepoints[k] : r.n;
    const double m = mean(x.subspan(begin, end - begin));
    out.push_back({begin, end, reciprocal ? 1.0 / m : m,
                   r.accepted && begin == r.stable_begin && end == r.stable_end});
    begin = end;
  }
  return out;
}

bool changepoint_detection_due(std::size_t n, std::size_t last_n) {
  if (n <= last_n) return false;
  if (last_n == 0 || n <= 200) return true;
  return 100 * n >= 101 * last_n;
}

}  // namespace mcpilot
