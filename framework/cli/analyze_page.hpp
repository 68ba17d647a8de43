#pragma once
// `mcpilot analyze --report FILE.html`: the page of one column's analysis, with the options that
// shaped it (column, kind, preset and overrides) as its provenance.

#include "analysis_options.hpp"
#include "report_option.hpp"

namespace mcpilot::cli {

// `warning`: the trend warning analyze printed, or empty.
void write_analysis_report(const report_request& r, const shared_options& o,
                           const analysis_options& opt, const csv_column& c, const analysis& a,
                           const std::string& warning);

}  // namespace mcpilot::cli
