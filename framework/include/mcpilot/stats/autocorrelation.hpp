#pragma once
// Serial correlation of readings, and the AR(1) formulas that explain why it matters.

#include <cstddef>
#include <span>

namespace mcpilot {

// Lag-k autocorrelation about the sample mean:
//   rho_k = sum_{i<n-k} (x_i - m)(x_{i+k} - m) / sum_i (x_i - m)^2.
// 0 when the readings do not vary (nothing to correlate); NaN when n <= k. O(n).
double autocorrelation(std::span<const double> x, std::size_t lag = 1);

// gamma_n, the factor by which correlation inflates Var(mean) for AR(1) with coefficient rho:
//   gamma_n = 1 + 2 [rho/(1-rho) - rho (1 - rho^n) / (n (1-rho)^2)]   (-> (1+rho)/(1-rho)).
// 8.96 for n = 1000 and rho = 0.8. O(1).
double ar1_variance_inflation(std::size_t n, double rho);

// True coverage of a nominal interval that ignores a variance inflation gamma:
//   2 Phi(z*/sqrt(gamma)) - 1, z* the normal critical value. O(1).
double naive_interval_coverage(double gamma, double confidence);

}  // namespace mcpilot
