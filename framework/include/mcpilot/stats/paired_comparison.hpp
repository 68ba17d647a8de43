#pragma once
// Two commands measured in blocks (block k holds the k-th run of each, next to each other in
// time), compared on the pairs the blocks give. A machine whose speed changes during the session
// changes both runs of a block alike, so the per-block difference b_k - a_k keeps the commands'
// difference and loses the machine's history; comparing each command's own stable phase instead
// compares two different periods when the commands' warm-up removals cut at different places
// (docs/bench.md, "Comparing commands").
//
// The change-points are searched on the differences, and the window they leave is kept for both
// commands: one common window, never two that may not overlap. On that window:
// - the difference mean(b) - mean(a): analyze() of the differences (subsession size from their
//   autocorrelation, the interval the requirements name), and the paired t test on their
//   subsession means;
// - the ratio R = mean(b) / mean(a): the ratio estimator's linearisation
//   z_k = R + (b_k - R a_k) / mean(a), whose mean is R and whose batch means carry R's error
//   (the delta method); analyze() of z gives its interval, batched by z's own autocorrelation.

#include <cstddef>
#include <optional>
#include <span>

#include "mcpilot/stats/analysis.hpp"

namespace mcpilot {

struct paired_comparison {
  std::size_t blocks = 0;                    // pairs given: min(a.size(), b.size())
  std::size_t kept_begin = 0, kept_end = 0;  // the common window [begin, end) of blocks
  analysis difference;                       // of b_k - a_k, change-points searched on it
  analysis ratio;                            // of z_k over the window, no change-point search
  double mean_a = 0, mean_b = 0;             // over the window
  // The intervals the verdict uses: symmetric, mean +- t*(h-1) sqrt(v / h) on the subsession
  // means with their variance v times the inflation for their lag-1 autocorrelation (the
  // adjusted interval without its skewness shift). Two identical commands give differences
  // symmetric about 0, so the batch means' skewness is noise there, and on heavy-tailed run
  // times (a busy machine) a shift of up to 0.7 half-widths was seen to come from it alone.
  std::optional<double> difference_low, difference_high;
  std::optional<double> ratio_low, ratio_high;
  // The paired t test of mean difference 0 on the differences' subsession means (their variance
  // times the interval's inflation); p = 1 and df = 0 when there are fewer than two.
  double t = 0, df = 0, p = 1;
  // Whether the difference's interval excludes 0 and the ratio's excludes 1: both must agree.
  bool separated = false;
};

// At options.requirements.confidence; options.remove_warmup decides the change-point search on
// the differences. The readings must be finite (reading_error otherwise). O(n log n).
paired_comparison compare_paired(std::span<const double> a, std::span<const double> b,
                                 const analysis_options& options);

// Blocks of each command that the difference needs, beyond those it has, for an interval at
// `confidence` to exclude 0 if the mean difference stays what it is: the half-width falls as
// 1/sqrt(n). nullopt when the difference is 0 or has no interval. O(1).
std::optional<std::uint64_t> paired_blocks_needed(const paired_comparison& c, double confidence);

}  // namespace mcpilot
