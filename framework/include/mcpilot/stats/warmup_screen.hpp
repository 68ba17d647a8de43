#pragma once
// A warm-up too short for the change-point search: the first few readings of a stream (a cold
// cache, a first process start) against what follows (docs/statistics.md, "A short warm-up").
//
// The change-point search cannot isolate a first segment shorter than min_segment points, and a
// long series is searched on means of b readings, so a warm-up of 20 slow runs among 60,000 is
// invisible to it: the rank test then compares 30 means of which 20 readings are slow against
// thousands, and does not reach p <= alpha / n. This screen looks only at the start: for every
// length d in [min_length, max_length] it compares the mean of the first d readings, less the one
// farthest from the reference's mean, with the mean of a reference stretch that follows
// max_length, standardised by the reference's integrated autocorrelation time,
//
//   z_d = (mean(x[0, d) less one) - mean(ref)) / sqrt(s_ref^2 tau_ref (1/(d-1) + 1/R)),
//
// takes the d with the largest |z_d|, and keeps it when |z_d| > Phi^-1(1 - alpha / (2 D)) (D the
// lengths tried: Bonferroni over them, conservative because neighbouring z_d are correlated)
// and when at least `majority` of those d readings lie on the same side of the reference's median.
// tau makes the test hold for autocorrelated readings (Var(mean of d) <= s^2 tau / d for
// positively correlated ones); leaving one reading out, and the majority, keep a descheduling
// outlier among the first readings from passing for a warm-up. Cost: O(R log R) for tau,
// O(max_length + R) otherwise.

#include <cstddef>
#include <span>

namespace mcpilot {

struct warmup_screen_options {
  std::size_t min_length = 5;
  std::size_t max_length = 60;  // also capped at n / max_share
  // The reference holds at least (max_share - 1) times the longest start tried. 10 by default;
  // the screen of the readings before a later phase uses 4, so that a warm-up of 20 ahead of an
  // earlier level of 194 readings is not cut to 19 by the cap.
  std::size_t max_share = 10;
  double alpha = 0.01;
  double majority = 0.8;
  // The reference: the readings from max_length on, this many times max_length, at least
  // min_reference, at most what there is.
  std::size_t reference_ratio = 20;
  std::size_t min_reference = 2000;
};

struct warmup_screen_result {
  std::size_t length = 0;  // readings at the start to drop; 0: none
  double z = 0;            // z_d at the d chosen (also when not kept)
  double threshold = 0;
  double p_value = 1;         // Bonferroni-adjusted two-sided normal p of z_d, at most 1
  double tau = 1;             // of the reference, at least 1
  std::size_t reference = 0;  // R
};

// Nothing is screened (length 0) when max_length < min_length after the cap, or the reference's
// readings do not vary.
warmup_screen_result screen_short_warmup(std::span<const double> x,
                                         const warmup_screen_options& options = {});

}  // namespace mcpilot
