#pragma once
// Proportions: the mean of 0/1 readings.

#include <cstddef>
#include <optional>
#include <span>

namespace mcpilot {

// Throws reading_error for the first reading that is not exactly 0 or 1. O(n).
void check_binary(std::span<const double> x);

struct proportion_bounds {
  double low = 0;
  double high = 0;
};

// The seed's normal approximation p-hat +- t*_{h-1} sqrt(p-hat (1 - p-hat) / h), clipped to
// [0, 1]. Good when h p-hat and h (1 - p-hat) are both large (say > 10). O(1).
proportion_bounds wald_interval(double p_hat, std::size_t h, double confidence);

// Wilson's score interval: the p for which |p-hat - p| <= z sqrt(p (1-p)/n). It never leaves
// [0, 1], never has zero width for 0 < n, and keeps close to nominal coverage near 0 and 1,
// where the Wald interval collapses. Prefer it when n p-hat or n (1 - p-hat) is below ~10. O(1).
proportion_bounds wilson_interval(double p_hat, std::size_t n, double confidence);

// The fewest trials n for which Wilson's interval at p_hat (clipped to [0, 1], as reported) is at
// most `width` wide: what a session judged on Wilson's width still needs. nullopt when not even
// 10^15 trials suffice. The width falls as n grows, so a bisection finds n. O(log n).
std::optional<std::size_t> wilson_trials_needed(double p_hat, double width, double confidence);

// Clopper and Pearson's exact two-sided interval for a proportion from `events` in `n` trials:
// the p whose binomial tails put (1 - confidence)/2 on each side, from the beta quantiles
// B((1-c)/2; x, n-x+1) and B((1+c)/2; x+1, n-x); [0, ...] at x = 0 and [..., 1] at x = n. Used to
// report a study's rate (validate.hpp); conservative: it covers at least `confidence`. O(1).
proportion_bounds clopper_pearson_interval(std::size_t events, std::size_t n, double confidence);

// One-sided upper bound when no event was seen in n independent trials: the p with
// (1 - p)^n = 1 - confidence, i.e. 1 - (1 - confidence)^(1/n), about 3/n at 95% (the rule of
// three). The exact Clopper-Pearson bound, not an approximation. O(1).
double zero_events_upper_bound(std::size_t n, double confidence);

// The trials without any event needed for that upper bound to fall to `bound`:
//   n >= ln(1 - confidence) / ln(1 - bound). O(1).
std::size_t zero_events_trials_needed(double bound, double confidence);

}  // namespace mcpilot
