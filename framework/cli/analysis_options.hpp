#pragma once
// The options `analyze`, `compare` and `changepoints` share (docs/cli-analysis.md): where the
// readings are in the file, their kind, and the precision requirements as a preset with
// overrides. Also the step every command takes after reading a file: analysing it while naming
// a rejected reading by its file:line:column.

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "mcpilot/io/readings_csv.hpp"
#include "mcpilot/stats/analysis.hpp"

namespace mcpilot::cli {

struct shared_options {
  std::size_t column = 0;
  bool header = false;
  std::string kind = "ordinary";
  std::string preset = "normal";
  double ac = 0, ci_perc = 0, ci = 0, confidence = 0;
  std::size_t min_samples = 0;
  std::string interval = "adjusted";
  std::string statistic = "mean";
  bool no_warmup_removal = false;
  bool cut_excursions = false;
  std::size_t changepoint_max_points = changepoint_options{}.max_points;
  bool wilson = false;
  bool json = false;
  // Set when the user gave the override; the preset's value is used otherwise.
  CLI::Option *ac_opt = nullptr, *ci_perc_opt = nullptr, *ci_opt = nullptr,
              *confidence_opt = nullptr, *min_samples_opt = nullptr;
  CLI::Option *column_opt = nullptr, *kind_opt = nullptr;
};

// --column, --header, --kind, --json. For every command.
void add_input_options(CLI::App* cmd, shared_options& o);
// --preset, --ac, --ci-perc, --ci, --confidence, --min-samples, --interval, --no-warmup-removal,
// --cut-excursions, --wilson.
void add_precision_options(CLI::App* cmd, shared_options& o);
// --changepoint-max-points, for the commands that analyse whole files (analyze, compare): the
// longest series whose warm-up is searched reading by reading (docs/statistics.md).
void add_changepoint_limit_option(CLI::App* cmd, shared_options& o);

// The preset with the user's overrides, validated (input_error names the bad option).
precision requirements(const shared_options& o);
analysis_options to_analysis_options(const shared_options& o);
// !--cut-excursions; an input_error when --no-warmup-removal is given too.
bool keep_excursions(const shared_options& o);
// The JSON's "warmup_removal" (analyze, bench): "on", "cut-excursions" or "off".
const char* warmup_removal_name(bool remove_warmup, bool keep_excursions);

// Says on `err` that the first line was skipped as a header when it was a guess and the field
// starts like a number ("12abc", "0x10"): a reading may have been lost. Silent otherwise.
void note_header(const csv_column& c, std::ostream& err);
// {"line": N, "guessed": bool} for the JSON's "header", or null when no line was skipped as one.
nlohmann::ordered_json header_json(const csv_column& c);

// analyze() on the column's values. A reading the kind cannot accept is reported at its
// file:line:column; fewer than 3 readings (no interval possible) is an input_error saying how
// many are needed.
analysis analyze_column(const csv_column& c, const analysis_options& opt);

}  // namespace mcpilot::cli
