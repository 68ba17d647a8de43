#pragma once
// Private to the HTML reports: the cells every page writes the same way (html_cells.cpp).

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "html_page.hpp"
#include "mcpilot/io/analysis_plot.hpp"
#include "mcpilot/io/readings_csv.hpp"
#include "mcpilot/stats/analysis.hpp"

namespace mcpilot::html {

// The interval's half-width below the mean (above it when there is no lower end), the resolution
// numbers beside it are written to; 0 without an interval.
double resolution_of(const analysis& a);
// A number to that resolution, "-" when absent.
std::string number_cell(const std::optional<double>& v, const analysis& a);
// "[191.2, 198.6]", "[10.1, unbounded)", "[0, 0.0037] one-sided", or "-".
std::string interval_cell(const analysis& a);
// "±1.9%" of the mean (or in the unit when there is no relative width), "unbounded", "-".
std::string half_width_cell(const analysis& a);
// The half-width the requirements ask for: "±5.0%" or "±0.5" in the unit.
std::string target_cell(const precision& p);
// "9,600 of 10,000" readings inside the interval, or all of them.
std::string readings_cell(const analysis& a);
// "yes", "no: needs about N readings, has M", "no: unreachable", with " (optional)".
std::string converged_cell(const analysis& a, bool required);

// The table of what the analysis did with each quantity's readings (warm-up search, subsession
// size, autocorrelations, the interval's method, its variance factor and centre shift).
std::vector<std::string> method_header();
std::vector<std::string> method_row(const std::string& name, const analysis& a);
std::vector<bool> method_numeric();

// The readings of one series in the order they were taken (analyze --plot's picture, also bench's
// for each command): the removed phases, the change-points, the stable phase's mean and
// interval. Its data: the phases and change-points as tables, and the readings themselves when
// there are at most 50. `order` says what the x axis counts ("file order", "run order");
// `positions` (may be null) names each phase's file lines; `axes` are the picture's words. O(n).
html::figure readings_figure(const analysis& a, std::span<const double> readings,
                             const std::string& source, const std::string& order,
                             const reading_positions* positions, const readings_axes& axes);

}  // namespace mcpilot::html
