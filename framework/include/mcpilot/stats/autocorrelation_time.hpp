#pragma once
// The integrated autocorrelation time of a stream of readings, and from it the readings a width
// needs: what sizes a measurement of a correlated stream (docs/statistics.md, "The integrated
// autocorrelation time").

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace mcpilot {

// Sample autocovariances gamma_k = (1/n) sum_{i<n-k} (x_i - m)(x_{i+k} - m), k = 0 .. max_lag
// (clamped to n - 1), about the sample mean m; the 1/n divisor keeps the sequence positive
// definite (R's acf(type = "covariance")). By FFT on the readings zero-padded to a power of two
// s >= 2n, done as s/2 complex points since the readings are real: O(n log n) time, 16 s bytes
// (32 n to 64 n). Empty for n = 0.
std::vector<double> autocovariances(std::span<const double> x, std::size_t max_lag);

struct autocorrelation_time {
  // tau = 1 + 2 sum_{k>=1} rho_k, so that Var(mean) ~ tau sigma^2 / n: 1 for independent
  // readings, (1 + phi) / (1 - phi) for AR(1) with coefficient phi. Below 1 for negatively
  // correlated readings, down to 1/n (alternating readings, whose mean is nearly exact).
  double tau = 1;
  // The lags summed: 2 m + 1 for Geyer's initial sequence of m + 1 pairs.
  std::size_t window = 1;
  // The pairs stayed positive up to n/2 lags, so the sum was cut by the data's length rather than
  // by the sequence turning negative: tau is then a lower bound (a drift, or too few readings).
  bool truncated = false;
  // sum_{k<window} k rho_k / tau: where the correlation's weight lies. Batch means of q readings
  // have lag-1 autocorrelation rho_1(q) ~ decay / q to first order in 1/q (docs/statistics.md,
  // "The correlation-adjusted interval"): phi / (1 - phi^2) for AR(1), 0 for independent readings.
  double decay = 0;
};

// Geyer's initial monotone sequence estimator (C. J. Geyer, "Practical Markov chain Monte Carlo",
// Statistical Science 7(4):473-483, 1992, section 3.3): with Gamma_m = gamma_{2m} + gamma_{2m+1},
// sum while Gamma_m > 0, each Gamma_m lowered to the smallest before it, and
//   tau = (-gamma_0 + 2 sum_m Gamma_m) / gamma_0.
// Unlike a fixed window it needs no tuning constant, and unlike rho_1 alone it sees correlation
// that decays slowly. Consistent for reversible Markov chains; for other stationary series it
// is the usual heuristic (the sum of the positive initial part of the correlogram). Readings that
// do not vary: tau = 1. n < 4: tau = 1, window 1 (nothing to estimate from). O(n log n).
autocorrelation_time integrated_autocorrelation_time(std::span<const double> x);

// The same for a long series, read off the means of b = ceil(n / max_points) consecutive
// readings when n > max_points: with tau_b and decay_b of the means, tau = tau_b b Var(means) /
// Var(readings) (both sides are the long-run variance) and decay = b decay_b. Exact in the limit
// of large tau / b; for tau below b the means are nearly independent and tau is read to within
// about b. O(n + max_points log max_points) time, 32 max_points bytes.
autocorrelation_time integrated_autocorrelation_time(std::span<const double> x,
                                                     std::size_t max_points);

// What a stream needs for a relative half-width: n* = tau (z* cv / half_width)^2, the readings an
// ideal batch-means or spectral rule needs when tau and cv are known (the large-sample normal
// approximation; the t quantile and the batch count add a little on top).
struct stream_need {
  std::size_t n = 0;
  double mean = 0;
  double sd = 0;  // of the readings (n - 1 divisor)
  double cv = 0;  // sd / |mean|
  autocorrelation_time tau;
  // None when the mean is 0 (a relative width is then unreachable) or n < 2.
  std::optional<double> readings_needed;
};

// half_width_rel: the half-width as a fraction of the mean (0.01 for "+-1%"); confidence in
// (0, 1). O(n log n).
stream_need readings_for_precision(std::span<const double> x, double half_width_rel = 0.01,
                                   double confidence = 0.95);

}  // namespace mcpilot
