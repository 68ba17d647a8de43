#pragma once
// Warm-up and cool-down detection: binary segmentation proposes change-points, an exact rank test
// on subsession means keeps only those whose neighbouring segments really differ.
//
// 1. Proposal. A split of a segment of L readings after its first tau reduces the sum of squared
//    deviations by tau (L - tau) / L (mean_left - mean_right)^2. The best split of the whole
//    series is a candidate, and each side is split again, until no side can be split leaving
//    min_segment readings on both sides. Prefix sums make one scan of a segment O(L), so the
//    proposal costs O(n log n) when splits are balanced (O(n^2 / min_segment) in the worst case,
//    a split at min_segment from an end at every level). A bound per block of 64 prefix sums
//    skips most of each scan (O(L / 64) plus the blocks that could hold the winner), which makes
//    the usual case, noise split near the ends, several times cheaper; the winner is the same.
// 2. Pruning. For each candidate the readings of its two neighbouring segments are merged into
//    subsession means and compared by rank_sum_test: the exact rank-sum p-value, or Fisher's
//    exact test on lower/higher classes when the means are mostly tied (0/1 readings). The
//    longer segment is used up to length_ratio times the shorter's length, next to the
//    candidate, and the batches are aligned on the candidate. The subsession size q is the one
//    choose_subsession gives for those readings of the longer segment (the better estimate of
//    the autocorrelation), raised if needed until tabulating the exact distribution for the k
//    and m means costs k (k m / 2) <= rank_table_work operations. Beyond 64 means the longer
//    side's count is lowered to the largest floor(k 2^(j/4)) available, dropping < 16% of it,
//    so that a long series needs a few hundred distinct exact tables instead of thousands. A
//    candidate whose longer segment has no q with |rho_1(q)| <= autocorrelation_limit cannot be
//    tested: it is never kept on those segments (the readings are too autocorrelated to say
//    anything, and keeping it would let excursions pass for changes), but it is removed in the
//    order of the p it has at the plain estimate's q, so that a real change between short
//    segments survives until its neighbours are merged away and it becomes testable. A rank test
//    too small to reach alpha / n at all (2 / C(k + m, k) above it) counts as no test: removed
//    for its p, a 12-sd step with one batch on its shorter side went before the false candidates
//    beside it. The candidate with the largest p is removed and its two neighbours are tested
//    again on their merged segments, until every remaining candidate is testable with
//    p <= alpha / n.
//    Few batches. A candidate without a rank test is tested by Student's pooled t on the medians
//    of batches of q = shorter / 4 readings, the 4 of the shorter side against those of the
//    longer, when the longer side holds fewer than 8 batches of q (the corrected rule cannot judge
//    them) and the plain rule chose q or less. Otherwise the t's p only orders it for removal; in
//    particular where the rank test was too small to decide, whose t cut a busy period of M/M/1
//    waits as a cool-down in most sessions at rho 0.9. This finds a step between two stretches
//    that each wander over tens of readings, which no q with 8 batches tests (docs/statistics.md,
//    "A step among wandering runs"); on AR(1) readings it raises the false rate by at most about
//    a point.
// 3. Stable phase: the longest segment (the first of equal ones); accepted iff it holds more than
//    half of the readings. When not accepted the caller must not use a segment (say so instead).
// 4. Long series. A series of more than max_points readings is searched, by steps 1-3, on the
//    means of b = ceil(n / max_points) consecutive readings (the last mean also takes the
//    n mod b readings left over): change-points fall on multiples of b, no segment is shorter
//    than min_segment means, and alpha is divided by the number of means, the places the
//    proposal chooses among. On such a series the test already compares means of many readings
//    (the table bound below keeps k near 40 at 10^6 readings), so only segments shorter than
//    min_segment b readings are lost. Why: the search's cost grows faster than n, and on 10^6
//    readings it was 5-7 times the cost of parsing them (docs/performance.md, issue 16).
//
// Cost: O(n log n) for a balanced proposal; at most n / min_segment candidates, and each removal
// retests at most two (not a neighbour whose test window it leaves unchanged), so at most
// 3 n / min_segment tests, each O(L log L) in the L <= (1 + length_ratio) times the shorter
// segment's readings it compares, plus one exact table lookup (building a new table costs at most
// rank_table_work operations, then it is cached for the process). With n counted in means, at
// most max_points: a long series costs O(n) for its means plus a bounded search. Measured:
// docs/performance.md, "Performance: change-point detection" and the passes of issue 16.

#include <cstddef>
#include <span>
#include <vector>

namespace mcpilot {

// The rank test assumes nearly independent subsession means; quick's 0.8 limit lets AR(1)
// excursions through as change-points (10-100% false rate on AR(1)), so the test never uses a
// looser limit than normal's 0.2, whatever the interval uses. The one rule for `analyze`, the
// engine and `changepoints` alike. O(1).
inline constexpr double loosest_changepoint_autocorrelation = 0.2;
double changepoint_autocorrelation_limit(double interval_limit);

struct changepoint_options {
  double alpha = 0.01;                 // a candidate stays while p <= alpha / n
  std::size_t min_segment = 30;        // no segment shorter than this many readings
  double autocorrelation_limit = 0.2;  // for the subsession means the test compares
  // Judge |rho_1(q)| by the bias-corrected estimate (h rho^ + 1) / (h - 4) from h >= 8 batches
  // instead of choose_subsession's plain rho^ (h >= 3). The plain estimate is biased low by about
  // (1 + 4 rho) / h, so short segments of autocorrelated readings get a q too small and their
  // excursions pass for changes (AR(1), rho 0.9, n = 100: 5.8% false instead of about 2%; see
  // docs/validation.md).
  bool correct_autocorrelation_bias = true;
  // A candidate without a rank test is tested by Student's t on 4 batch medians of the shorter
  // side against those of the longer (step 2, "Few batches"), instead of never being kept
  // (docs/statistics.md, "A step among wandering runs"). Only with the corrected estimate.
  bool few_batch_fallback = true;
  // The longer neighbouring segment is compared up to this many times the shorter one's length
  // (the readings next to the candidate). Beyond 8 the precision of the difference of the means
  // gains at most 1 - sqrt(8/9) = 6% while the cost grows with the length.
  std::size_t length_ratio = 8;
  // Bound on k (k m / 2), the operations that tabulating the exact distribution of U for k <= m
  // subsession means costs; q grows until the test fits. 2^20 keeps 50 vs 400 readings at q = 1
  // (a table of about a millisecond, built once per process). Series longer than 2^14 readings
  // use max(2^18, 2^34 / n) if that is less, since they need some n / 10 tests.
  std::size_t rank_table_work = std::size_t{1} << 20;
  // Series of more than this many readings are searched on means of ceil(n / max_points)
  // readings (step 4 above); 0 searches every series reading by reading. 2^15 makes `analyze` of
  // 10^6 readings in a fresh process about 3.2 times the cost of parsing them instead of 9-10;
  // 2^16 gave 3.8 and 2^17 4.7 (docs/performance.md, fifteenth pass).
  std::size_t max_points = std::size_t{1} << 15;
  // 5. Shifts too small to matter. After the pruning, neighbouring segments whose means differ
  //    by less than this fraction of the series' mean are merged, the smallest difference
  //    first (0: none are). The rank test's power grows with n: on 10^5 readings of a shared
  //    machine it keeps shifts of a fraction of a percent, no segment holds half of the
  //    readings, and a session doubles its rounds until its time runs out for a drift far
  //    below the precision it asked for. The engine sets it from that precision
  //    (stream_phase.cpp); `changepoints` and the studies of the test itself leave it at 0.
  double min_relative_shift = 0;
};

// The test that kept a change-point: the exact rank test (or Fisher's, on tied means), or
// Student's t on few batch medians (step 2, "Few batches").
enum class changepoint_test { rank, few_batches };

struct changepoint_result {
  std::size_t n = 0;
  std::vector<std::size_t> changepoints;  // indices where a new segment starts, ascending
  std::vector<double> p_values;           // p-value of each kept change-point
  std::vector<changepoint_test> tests;    // and the test it comes from
  std::size_t stable_begin = 0;           // the longest segment, half-open [begin, end)
  std::size_t stable_end = 0;
  bool accepted = false;     // the stable segment holds more than half of the readings
  std::size_t proposed = 0;  // candidates the binary segmentation proposed
  // Readings per point searched: 1, or b for a series of more than max_points readings, whose
  // change-points are multiples of b.
  std::size_t resolution = 1;
};

// Throws reading_error for a reading that is not finite.
changepoint_result detect_changepoints(std::span<const double> x,
                                       const changepoint_options& options = {});

// One segment between the change-points of a result: readings [begin, end), their mean, and
// whether it is the accepted stable phase.
struct changepoint_segment {
  std::size_t begin = 0, end = 0;
  double mean = 0;
  bool stable = false;
};

// The segments r's change-points cut x (the series the detection ran on) into, in order. With
// `reciprocal` (x holds a rate's reciprocals) each mean is the harmonic mean of the rates,
// 1 / mean(x). O(n).
std::vector<changepoint_segment> changepoint_segments(std::span<const double> x,
                                                      const changepoint_result& r, bool reciprocal);

// When a session should run the detection again: after every round until it has 200 readings,
// then each time the readings have grown by 1% since the last detection (last_n = 0: never run).
// This keeps the total cost of repeated detection within a constant factor of one detection on
// the final series. O(1).
bool changepoint_detection_due(std::size_t n, std::size_t last_n);

}  // namespace mcpilot
