#pragma once
// Descriptive statistics over readings. All O(n), two passes where that buys accuracy.

#include <span>

namespace mcpilot {

// Arithmetic mean. NaN for an empty span.
double mean(std::span<const double> x);

// Unbiased sample variance, sum (x_i - mean)^2 / (n - 1), computed in two passes so that a large
// common offset does not cancel away the digits. NaN when n < 2.
double variance(std::span<const double> x);

// The sample skewness G1 = sqrt(n (n - 1)) / (n - 2) g1, g1 = m3 / m2^(3/2) from the moments
// about the mean (the adjusted Fisher-Pearson coefficient: Excel's SKEW, R e1071's type 2, Skart's
// B). 0 when n < 3 or every value is equal.
double skewness(std::span<const double> x);

// The median of v (the mean of the middle two for an even count), reordering v. O(n) on average.
// NaN for an empty span.
double median_in_place(std::span<double> v);

// n / sum(1/x_i). Every reading must be > 0; reading_error names the first that is not.
double harmonic_mean(std::span<const double> x);

}  // namespace mcpilot
