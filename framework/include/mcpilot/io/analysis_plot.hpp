#pragma once
// The picture of one column's analysis (`mcpilot analyze FILE --plot`), as a request for
// io/plot.hpp's driver: the readings in file order, the removed warm-up and cool-down shaded,
// the change-points marked, and the stable phase's mean with its interval.

#include <span>
#include <string>

#include "mcpilot/io/plot.hpp"
#include "mcpilot/stats/analysis.hpp"

namespace mcpilot {

// Above this many readings every k-th is drawn (k = ceil(n / max_plotted_readings)), and the
// legend says so; the analysis itself always uses all of them.
inline constexpr std::size_t max_plotted_readings = 5000;

// Legend titles: "readings" (or "readings (every k-th of n)"), "warm-up removed (k readings)",
// "cool-down removed (k readings)", "change-points", "<mean label> of the stable phase: ...",
// "<confidence> interval". Series that are empty (nothing removed, no interval) are left out.
// O(n).
plot_request analysis_plot(const analysis& a, std::span<const double> readings,
                           const std::string& source, const std::string& output,
                           plot_format format);

// The same picture under other words, for readings that are not a file's (a report of
// `mcpilot bench` draws each command's readings in run order).
struct readings_axes {
  std::string title;  // the status is appended in parentheses
  std::string x_label = "reading index (file order)";
  std::string y_label = "reading (unit as recorded in the file)";
};
plot_request analysis_plot(const analysis& a, std::span<const double> readings,
                           const readings_axes& axes, const std::string& output,
                           plot_format format);

}  // namespace mcpilot
