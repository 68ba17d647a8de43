#pragma once
// `mcpilot bench` on the command line: its options, turned into the settings of the framework's
// session (programs/bench_session.hpp), and what is printed of it: the table on stdout and the
// progress lines (bench_run.cpp), --export-json, --export-csv, --export-markdown and a
// --parameter-scan's sweep rows (bench_report.cpp), --report (bench_page.cpp). bench_scan.cpp
// runs one session per value of --parameter-scan; bench.cpp registers the command.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis_options.hpp"
#include "mcpilot/programs/bench_session.hpp"
#include "report_option.hpp"

namespace mcpilot::cli::bench {

using programs::primary;
using programs::work_token;

struct bench_options {
  std::vector<std::string> names;     // -n NAME, one per command in order
  std::vector<std::string> commands;  // positional
  std::string shell = "none";
  std::uint64_t warmup = 0;
  std::string prepare, setup, cleanup;
  std::string input;
  bool show_output = false;
  bool ignore_failure = false;
  std::string output = "time";  // "time" or "csv[:COLUMNS]"
  std::string until = "precise";
  std::uint64_t max_runs = 100000;
  double max_seconds = 600;
  double min_seconds = 0;
  std::uint64_t seed = 1;
  std::string counters;
  std::optional<double> work_initial, work_max;
  std::uint64_t work_levels = 5;
  std::optional<double> ramp_seconds;
  std::string export_json, export_csv, export_markdown;
  std::vector<std::string> scan;  // --parameter-scan NAME LOW HIGH
  std::optional<double> scan_step, scan_factor;
  std::string export_sweep;
  report_request report;  // --report FILE.html (bench_page.cpp)
  bool quiet = false, progress = false;
  shared_options precision_options;
};

// The framework's settings from the options; input_error naming the option and its range.
programs::bench_settings settings_from(const bench_options& o);

// One session: checks the options and outputs, runs, prints and writes what was asked. Returns
// the exit code (docs/cli.md). With `sweep`, the session's rows of a --parameter-scan table.
struct sweep_row_target {
  std::ostream* out = nullptr;
  std::size_t point = 0;
  std::string value;
};
int run_session(const bench_options& o, const std::string& program, sweep_row_target sweep = {});

// What is printed and written of a finished session (bench_report.cpp, bench_page.cpp).
void write_table(std::ostream& out, const bench_options& o, const programs::bench_session& s);
nlohmann::ordered_json to_json_result(const bench_options& o, const programs::bench_session& s);
void write_csv(std::ostream& out, const programs::bench_session& s);
void write_markdown(std::ostream& out, const programs::bench_session& s);
void write_report_page(const bench_options& o, const programs::bench_session& s);
void sweep_rows(std::ostream& out, const programs::bench_session& s, std::size_t point,
                const std::string& value);
// A pair's verdict in words: resolved at which look, or the runs still needed.
std::string pair_words(const programs::bench_session& s, const programs::pair_result& p,
                       bool with_next_level);

// One session per value of --parameter-scan (bench_scan.cpp).
int run_scan(const bench_options& o, const std::string& program);

}  // namespace mcpilot::cli::bench
