#pragma once
// How fast the typical variance of a stretch of readings grows with the stretch's length: the
// part of a heavy tail that the readings so far have not yet shown, used to size the sample.

#include <cstddef>
#include <span>

namespace mcpilot {

// The exponent b in "the typical variance of m consecutive values grows like m^b", from the
// values themselves: the mean log variance of the 1, 2, 4 and 8 consecutive blocks the values
// split into (blocks of at least 8 values), each corrected for the log variance's normal-theory
// bias (psi((m-1)/2) - ln((m-1)/2)), regressed on log m by least squares. Independent normal (or
// light-tailed) values give b near 0; heavy-tailed ones a positive b, because a short block
// seldom holds the rare large values that dominate the variance (statistics.md, "Required
// sample size", "On heavy-tailed readings"). 0 when fewer than 16 values, or when a block does not
// vary. Unbounded and may be negative: the caller clamps. O(n).
double variance_growth_exponent(std::span<const double> values);

// The subsession means needed once the variance is allowed to grow with the sample: the fixed
// point of n = needed * (n / h)^b, i.e. needed^(1/(1-b)) h^(-b/(1-b)), for b clamped to
// [0, max_variance_growth]; `needed` itself when needed <= h or b <= 0. The clamp bounds the
// inflation by (needed / h)^(3/17): the exponent is read off a few hundred values at most and is
// noisy, and a power law fitted to a short range overstates growth that must level off at the
// true variance. On lognormal(0, 1.5) readings, 300 at a time, a clamp of 0.15 takes the fresh
// runs that reach the width from 38% to 70% for a median size 1.5x the true one; 0.25 gave 75%
// for 2.2x (statistics.md). O(1).
inline constexpr double max_variance_growth = 0.15;
std::size_t grown_batches_needed(std::size_t needed, std::size_t h, double b);

}  // namespace mcpilot
