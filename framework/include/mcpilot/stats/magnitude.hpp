#pragma once
// Readings double arithmetic cannot analyse. Variances sum squared deviations: a reading near
// 1e200 (or a spread of +-1e200) overflows them to infinity, and the interval and the
// autocorrelation become NaN. Within +-1e100 the squares stay in double's range for any number
// of readings (n (2e100)^2 < 1.8e308 for n < 4e107). Tiny readings are not refused here (an
// importance-sampling weight may well be 1e-120); a spread whose squares underflow to 0 is told
// apart from "no variation" where the variance is used.

#include <cstddef>
#include <optional>
#include <span>
#include <string>

namespace mcpilot {

inline constexpr double largest_analysable = 1e100;

// The index of the first value beyond +-1e100 (or not finite), or nullopt. O(n).
std::optional<std::size_t> first_unanalysable(std::span<const double> y);

// What to tell the user about such a reading; `reciprocal` when it is a rate, analysed as 1/x.
std::string unanalysable_message(double reading, bool reciprocal);

}  // namespace mcpilot
