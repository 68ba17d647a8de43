#pragma once
// `mcpilot compare`'s verdict on two analysed series: Welch's test on their subsession means
// (stable_moments), for a rate on the reciprocal scale, where the harmonic mean is an ordinary
// mean, with the difference's interval carried back to the rates by the delta method
// (Var 1/y ~ Var y / y^4), and the subsession means of B the difference needs.

#include <cstddef>
#include <optional>

#include "mcpilot/stats/precision.hpp"
#include "mcpilot/stats/welch.hpp"

namespace mcpilot {

struct mean_comparison {
  welch_result test;   // on the analysed scale: df and the two-sided p
  welch_result shown;  // diff and its interval in the quantity's unit (test itself unless a rate)
  double t = 0;        // signed as the difference of the quantity (of the rates, for a rate)
  bool significant = false;  // p <= 1 - confidence
  // Subsession means of B for the observed difference to be significant (detected with
  // probability `power`), at least min_samples; none when no number suffices (required_b).
  std::optional<double> b_batches;
};

// a and b are the moments on the analysed scale (reciprocals for a rate). Needs what welch_test
// needs (std::invalid_argument otherwise: neither side's means vary). O(1).
mean_comparison compare_means(const sample_moments& a, const sample_moments& b, quantity_kind kind,
                              double confidence, double power, std::size_t min_samples);

}  // namespace mcpilot
