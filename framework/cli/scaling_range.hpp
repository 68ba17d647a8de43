#pragma once
// `mcpilot scaling` on values near the ends of the double range (1e150 ... 1e300): the fits
// square the values and their weights (1 / median^2), which overflow or underflow there. The
// values are fitted divided by a power of two that brings the largest near 1, an exact division,
// and everything in the values' unit is multiplied back; ratios, exponents and log errors do not
// change. Values in an ordinary range are left alone, so their results are bit for bit as before.

#include <span>
#include <vector>

#include "mcpilot/stats/scaling.hpp"

namespace mcpilot::cli {

// 1, or the power of two to divide `t` by before fitting (when the largest |t| is above 2^200 or
// the smallest nonzero one below 2^-200).
double scaling_value_scale(std::span<const double> t);

// t / scale, element by element.
std::vector<double> scaled_values(std::span<const double> t, double scale);

// Multiplies back by `scale` every figure of `r` that is in the values' unit.
void unscale(scaling_result& r, double scale);

}  // namespace mcpilot::cli
