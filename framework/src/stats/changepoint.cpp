// The change-point search put together (changepoint.hpp): around the proposal
// (changepoint_proposal.cpp) and the test of one candidate (changepoint_rank_test.cpp), the
// elimination of candidates by their tests, the merging of small shifts, the choice of the stable
// phase, and the search on means of a long series.
#include "mcpilot/stats/changepoint.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "changepoint_parts.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/number_text.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

double changepoint_autocorrelation_limit(double interval_limit) {
  return std::min(interval_limit, loosest_changepoint_autocorrelation);
}

namespace {

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
    r.tests.erase(r.tests.begin() + static_cast<std::ptrdiff_t>(smallest));
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

  detail::series_sums sums(x);
  std::vector<std::size_t> at;
  if (n >= 2 * ms) at = detail::propose(sums, n, ms);
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
  std::vector<changepoint_test> test(c, changepoint_test::rank);
  // The window of each candidate's current p; none yet is the empty window, never a real one
  // (every side holds at least min_segment >= 1 readings).
  std::vector<detail::test_window> tested(c);
  std::vector<bool> alive(c, true);
  auto begin_of = [&](std::size_t i) { return prev[i] == none ? std::size_t{0} : at[prev[i]]; };
  auto end_of = [&](std::size_t i) { return next[i] == none ? n : at[next[i]]; };
  removal_queue heap(c);
  const detail::search_context ctx(options, readings, n);
  detail::test_scratch scratch;
  // A removal lengthens one side of each neighbour. When that side is the longer one and already
  // reached length_ratio times the shorter, the neighbour's test window is unchanged, and so are
  // its p and its place in the queue.
  auto evaluate = [&](std::size_t i) {
    const detail::test_window w = detail::window_of(begin_of(i), at[i], end_of(i), options);
    if (w == tested[i]) return;
    tested[i] = w;
    const detail::segment_test t = detail::test_segments(x, sums, at[i], w, ctx, scratch);
    p[i] = t.p;
    test[i] = t.test;
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
    r.tests.push_back(test[i]);
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
