#pragma once
// Welch's comparison of two means with unequal variances and sizes.

#include <optional>
#include <span>

namespace mcpilot {

// What is known of one sample: mean, variance and count of its (batch) means.
struct sample_moments {
  double mean = 0;
  double variance = 0;
  double count = 0;
};

sample_moments moments(std::span<const double> x);  // O(n)

struct welch_result {
  double diff = 0;  // mean_a - mean_b
  double se = 0;    // sqrt(s_a^2/n_a + s_b^2/n_b)
  double t = 0;     // diff / se
  double df = 0;    // Welch-Satterthwaite, not floored
  double p = 0;     // two-sided, 2 F_df(-|t|)
  double diff_low = 0;
  double diff_high = 0;  // diff +- t*_df se
};

// Needs count >= 2 on both sides and se > 0 (std::invalid_argument otherwise). O(1).
welch_result welch_test(const sample_moments& a, const sample_moments& b, double confidence);

// mean_b / mean_a with its interval at the confidence of w = welch_test(a, b, confidence): the
// delta method, with Welch's t* and degrees of freedom. O(1).
struct ratio_interval {
  double ratio = 0, low = 0, high = 0;
};
ratio_interval welch_ratio(const sample_moments& a, const sample_moments& b, const welch_result& w);

// Whether a and b are told apart at `level`: Welch's p <= level and the ratio's interval at
// 1 - level excludes 1. Both must agree: they are different approximations, and near the
// boundary one can separate the means while the other's interval still holds 1, and a
// "separated" beside a ratio interval holding 1 would contradict itself. Needs what welch_test
// needs. O(1).
bool separated(const sample_moments& a, const sample_moments& b, double level);

// Readings of B needed, against the measured baseline A, for the observed difference d to reach
// significance at level 1 - confidence:  n_B = s_B^2 / ((d / t*)^2 - s_A^2 / n_A).
// With power > 0, t* becomes t* + z_power (the power-th normal quantile), so that a true
// difference of d is detected with that probability. t* uses the Welch df of the current data.
// nullopt when the denominator is <= 0: the baseline's own uncertainty already exceeds what the
// required p allows, and no number of B readings suffices. O(1).
std::optional<double> required_b(const sample_moments& a, const sample_moments& b,
                                 double confidence, double power = 0);

}  // namespace mcpilot
