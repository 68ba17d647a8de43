#pragma once
// Private to the run and sweep plots: the look they share and the labels they write the same way.

#include <cstddef>
#include <string>

#include "mcpilot/stats/precision.hpp"

namespace mcpilot::plot_style {

// Grid, key placement and margins, before the first panel.
std::string preamble();
// The colour of series k (a fixed cycle that reads in print and for most colour blindness), and
// of exact values beside a single series.
std::string colour(std::size_t k);
std::string exact_colour();
// A number as gnuplot reads it back exactly.
std::string number(double v);
// "mttdl_hours (h)"; a unitless proportion says "(probability)", another unitless quantity is
// named alone.
std::string axis_label(const std::string& name, const std::string& unit, quantity_kind kind);

}  // namespace mcpilot::plot_style
