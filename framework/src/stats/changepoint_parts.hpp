// The pieces of stats/changepoint.hpp's search that its three files share: the series' prefix
// sums, which the proposal (changepoint_proposal.cpp) scans and each candidate's test
// (changepoint_rank_test.cpp) reads its batch means off, and the test of one candidate, which the
// elimination (changepoint.cpp) calls again as candidates are removed. Internal to the statistics.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "mcpilot/stats/changepoint.hpp"
#include "mcpilot/stats/rank_sum.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "sparse_prefix_sums.hpp"

namespace mcpilot::detail {

// The proposal scan's blocks: the least and greatest prefix sum in each aligned block of
// `proposal_block` sums, so that a whole block of splits can be ruled out at once. O(n) to build,
// 2 n / proposal_block doubles.
inline constexpr std::size_t proposal_block = 64;

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

// Step 1 of changepoint.hpp: the candidate splits of s's n readings, each leaving at least ms
// readings on both sides, in series order. O(n log n) for balanced splits.
std::vector<std::size_t> propose(const series_sums& s, std::size_t n, std::size_t ms);

// The buffers a long search reuses from test to test: thousands of tests each allocating its
// own (page faults for the large ones) cost more than filling them.
struct test_scratch {
  std::vector<double> left, right;  // the two sides' batch sums
  std::vector<double> sums;         // the prefix sums of the longer side's window
  std::vector<double> screen;       // a few thousand batch sums at a time, for screen_sums
};

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
  double threshold;  // alpha / the points searched
  search_context(const changepoint_options& o, std::size_t readings, std::size_t points);
};

// The outcome of testing one candidate.
struct segment_test {
  std::optional<double> p;  // exact p; none when no subsession size qualifies (untestable)
  double order_p = 1;       // for an untestable candidate: the p at the plain estimate's q
  changepoint_test test = changepoint_test::rank;  // where p comes from
};

// The readings a test of the split at `at` between [b, at) and [at, e) looks at: all of the
// shorter side, and of the longer side at most length_ratio times as many, next to the split.
// Two tests of one candidate with the same window give the same p.
struct test_window {
  bool left_shorter = false;
  std::size_t shorter = 0, longer = 0;
  bool operator==(const test_window&) const = default;
};

// The window of the split at `at` between [b, at) and [at, e) under opt.length_ratio.
test_window window_of(std::size_t b, std::size_t at, std::size_t e, const changepoint_options& opt);

// Step 2 of changepoint.hpp for the candidate at `at` on window w: its subsession size, then the
// exact rank test of the two sides' batch sums. x is the series of `sums`.
segment_test test_segments(std::span<const double> x, const series_sums& sums, std::size_t at,
                           const test_window& w, const search_context& ctx, test_scratch& scratch);

// The test a candidate falls back on when no subsession size qualifies for the rank test
// (changepoint.hpp, step 2): Student's pooled t on the means of batches of q = shorter / 4
// readings, aligned at `at`, against at most 32 of the longer side's. It is a test (valid) when
// the longer side holds fewer than 8 such batches, so that the corrected rule could not judge
// them, and the plain rule chose q or less (`plain_within`). Otherwise the p only orders the
// candidate for removal.
// O(shorter + min(longer, 8 shorter)).
inline constexpr std::size_t few_batches = 4;
inline constexpr std::size_t max_longer_batches = 32;
struct few_batch_result {
  double p = 1;
  bool valid = false;
};
few_batch_result few_batch_test(std::span<const double> x, std::size_t at, bool left_shorter,
                                std::size_t shorter, std::size_t longer, bool plain_within);

}  // namespace mcpilot::detail
