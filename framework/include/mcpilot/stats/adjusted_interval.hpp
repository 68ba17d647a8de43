#pragma once
// The correlation-adjusted interval on batch means: Pilot's t interval, widened by the AR(1)
// variance inflation of the batch means' own lag-1 autocorrelation (the adjustment of SBatch and
// Skart), and moved by their skewness (Skart's second adjustment). Pilot accepts batch means whose
// lag-1 autocorrelation is up to the preset's limit, and its interval treats them as independent,
// so it is too narrow by sqrt((1 + r) / (1 - r)) for a correlation r at the limit, and further
// because the estimate of r is biased low. The adjusted interval corrects both: the estimate's
// first-order bias, then the variance of the mean. docs/statistics.md, "The correlation-adjusted
// interval", gives the derivation and the coverage.

#include <cstddef>
#include <span>

#include "mcpilot/stats/interval.hpp"

namespace mcpilot {

// The lag-1 autocorrelation of h batch means with its first-order bias removed:
//   r~ = (h r^ + 1) / (h - 4)   for h >= 8,   r^ itself for h < 8,
// which inverts E[r^] ~ r - (1 + 4 r) / h, the bias of a lag-1 autocorrelation estimated about an
// estimated mean (Marriott and Pope 1954; Kendall 1954). Below 8 batches the correction divides
// by almost nothing and is not used. O(1).
double corrected_lag1(double lag1, std::size_t h);

// The AR(1) inflation of the variance of a mean, (1 + r) / (1 - r), for the corrected lag-1 r of
// the batch means, with r taken as 0 when negative (a negative estimate never narrows the
// interval) and at most max_inflation_lag1 (beyond it the factor grows without bound while the
// estimate says only that the batches are far too short). 1 for r <= 0; 3 for r = 0.5. O(1).
constexpr double max_inflation_lag1 = 0.99;
double correlation_inflation(double lag1, std::size_t h);

// Willink's (2005) skewness-adjusted quantile, the G of Skart (Tafazzoli, Steiger and Wilson
// 2011): for the mean of h values with skewness B and beta = B / (6 sqrt(h)),
//   G(z) = ((1 + 6 beta (z - beta))^(1/3) - 1) / (2 beta),   G(z) = z for beta = 0,
// and [x-bar - G(t*) se, x-bar - G(-t*) se] is the interval. A Cornish-Fisher correction: when the
// values are skewed to the right, a low mean comes with a low s, so the t ratio's lower tail is
// longer than Student's, and the interval moves up by about (1 + 2 t*^2) beta se; its width changes
// only at the order beta^2. Increasing in z for every beta. O(1).
double skewness_adjusted_quantile(double z, double beta);

// The skewness adjustment is a Cornish-Fisher expansion in beta, and it holds only while
// 6 |beta| (t + |beta|) stays well below 1: at 1, the cube root in G(-t) (beta > 0) reaches 0 and
// the far end of the interval runs off (issue 34: lognormal(1.5), 300 values gave
// 3.48 [2.65, 8.17], 159% of the mean wide). |beta| is capped where 6 |beta| (t + |beta|) =
// max_skew_expansion,
//   beta_max(t) = (sqrt(t^2 + 4 max_skew_expansion / 6) - t) / 2,
// which keeps the width within 1.21x the symmetric interval's for t >= 1.645 (confidence >= 0.90;
// 1.30x at 0.50); docs/statistics.md, "The skewness adjustment's range". O(1).
constexpr double max_skew_expansion = 0.8;
double capped_skew_beta(double beta, double t);

// The skewness adjustment is a correction, and a verdict should not rest on it being large: while
// beta is big enough that the interval's two sides (x-bar minus its lower end, its upper end minus
// x-bar) differ by more than a stated ratio, the batch means are still far from the normal shape
// the t ratio needs, and the terms of the expansion left out are no longer small. This is the
// beta at which the sides' ratio -G(-t) / G(t) equals `ratio` (> 1); the cap's beta when the
// sides at the cap are closer than that. 1.3 at 95% gives beta ~ 0.0296, the cap's sides being
// 2.04x apart. The ratio grows with beta, so bisection finds it. O(1): 64 halvings.
double side_ratio_beta(double t, double ratio);

// The correlation- and skewness-adjusted interval of the batch means:
//   [x-bar - G(t*_{h-1}) se, x-bar - G(-t*_{h-1}) se],   se = s sqrt(A) / sqrt(h),
// with A = correlation_inflation(lag1, h) and G as above for the batch means' skewness B
// (`skewness(batches)`; 0 gives the symmetric interval), beta capped by capped_skew_beta. The
// result's centre() is x-bar + shift and its half_width is (G(t*) - G(-t*)) se / 2; sd holds
// s sqrt(A), and width_factor (G(t*) - G(-t*)) / (2 t*), so that the required sample size, from
// sd times width_factor, is that of the interval as it is rather than of a symmetric one. Needs
// h >= 2 (std::invalid_argument otherwise). O(h).
t_interval adjusted_mean_interval(std::span<const double> batches, double lag1, double skewness,
                                  double confidence);

}  // namespace mcpilot
