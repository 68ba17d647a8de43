#pragma once
// The two views of a scaling analysis (stats/scaling.hpp): one JSON object for `mcpilot scaling
// --json` and one text report. Both carry the same fields under the same names; absent values
// are null in JSON and "-" in text, never 0.

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "mcpilot/stats/scaling.hpp"

namespace mcpilot {

// What the analysis was given, for the report's title and the JSON's header fields.
struct scaling_source {
  std::string file;          // as the user named it, or "<stdin>"
  std::string n_column;      // header name (or index) of the sizes
  std::string value_column;  // header name (or index) of the values
  std::string quantity;      // the sweep quantity, empty for raw rows
  std::string unit;          // the values' unit, empty when not given
  std::size_t skipped_rows = 0;
  std::vector<std::string> notes;  // honest remarks on the input (skipped points, run_id, ...)
};

// status, label, statement, best, exploratory, models, design_problems, warnings, notes,
// relative_tolerance, gate, weighting, bootstrap, seed, rows, sizes[], steps[], normalized[],
// candidates[], selection_note; plus source, n_column, value_column, quantity, unit.
nlohmann::ordered_json to_json(const scaling_result& r, const scaling_source& s,
                               const scaling_options& o);

// Title, the statement, a summary, then per size, adjacent sizes, normalized ratios, candidates,
// warnings and the note on what the selection fractions mean.
void write_scaling_report(std::ostream& out, const scaling_result& r, const scaling_source& s,
                          const scaling_options& o);

// The sentence every view prints beside the selection fractions.
extern const char* const selection_note;

}  // namespace mcpilot
