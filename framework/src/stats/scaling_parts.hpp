// The pieces of stats/scaling.hpp's analysis that its three files share: the inner weighted fit
// that the leave-one-size-out loop and the bootstrap repeat many times over, the median, and the
// label rules (scaling_label.cpp).
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "mcpilot/stats/scaling.hpp"

namespace mcpilot::detail {

inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// c, d of y ~ c x + d with weights w, leaving out index `skip` (or none when skip >= k). With
// nonnegative_d, a negative d is replaced by the fit through the origin (c = sum w x y /
// sum w x^2, d = 0): the least-squares solution under d >= 0. Returns false when the x left are
// all equal (or all 0 through the origin). O(k), in long double.
bool fit_cd(std::span<const double> x, std::span<const double> y, std::span<const double> w,
            std::size_t skip, bool nonnegative_d, double& c, double& d);

// The weights of the medians' fits: 1 / median^2 (relative) or 1.
void weights_for(std::span<const double> medians, scaling_weighting weighting,
                 std::vector<double>& w);

// The weighted mean of y, leaving out `skip`.
double weighted_mean(std::span<const double> y, std::span<const double> w, std::size_t skip);

// x with `decimals` digits after the point.
std::string fixed(double x, int decimals);

// Sets r.label, r.best, r.rivals and r.power_law_agrees from the candidates, the design problems
// and the resamples' picks, by docs/scaling.md's rules. O(S).
void assign_label(scaling_result& r, const scaling_options& options);

}  // namespace mcpilot::detail
