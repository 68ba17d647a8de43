#pragma once
// The picture of a scaling analysis, as a request for io/plot.hpp's driver: a log-log panel of
// the per-size medians with min-max bars and each candidate's fitted curve, and below it the
// local exponents between adjacent sizes. Building the request needs no gnuplot; rendering it
// does.

#include <string>

#include "mcpilot/io/plot.hpp"
#include "mcpilot/io/scaling_report.hpp"
#include "mcpilot/stats/scaling.hpp"

namespace mcpilot {

// Data blocks: sizes (n, median, min, max), one fit_<shape> block per fitted candidate (64
// log-spaced n over the observed range; a prediction <= 0 is NaN, which gnuplot skips), steps
// (geometric middle of each pair, local exponent). Legend titles: "median (bars: min to max)",
// "<shape> fit (passes|fails)" with "best" on the shape the label names, "local exponent".
plot_request scaling_plot(const scaling_result& r, const scaling_source& s,
                          const std::string& output, plot_format format);

}  // namespace mcpilot
