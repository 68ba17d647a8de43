#pragma once
// `mcpilot scaling --report FILE.html`: the page of a scaling analysis, with the options that
// shaped it (columns, candidates, resamples and their seed, the tolerance) as its provenance.

#include "mcpilot/io/scaling_report.hpp"
#include "mcpilot/stats/scaling.hpp"
#include "report_option.hpp"

namespace mcpilot::cli {

void write_scaling_page(const report_request& r, const scaling_result& result,
                        const scaling_source& s, const scaling_options& o);

}  // namespace mcpilot::cli
