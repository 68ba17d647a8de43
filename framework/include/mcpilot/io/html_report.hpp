#pragma once
// `--report FILE.html`: one self-contained page per result (`run`, a sweep, `bench`, `analyze`,
// `scaling`), for a person to look at rather than read. The page holds, in this order: the verdict
// (converged or why not, the intervals, exact values beside the estimates), the figures the
// command's --plot draws (inline SVG from gnuplot, each with a text alternative, a caption and its
// data as a table where that is small), further tables, and what is needed to reproduce it (the
// command, seed, config and environment). It loads nothing: no script, no font, no image from
// anywhere, and a Content-Security-Policy of default-src 'none' (inline styles allowed) says so to
// the browser. Without gnuplot every table is still there, and each figure's place says why the
// figure is missing. docs/cli.md describes the page.
//
// The writers read the same result structs as the JSON and table writers and compute no
// statistics; rendering a figure runs gnuplot through io/plot.hpp.

#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpilot/engine.hpp"
#include "mcpilot/io/config.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/io/run_plot.hpp"
#include "mcpilot/io/scaling_report.hpp"
#include "mcpilot/io/session_output.hpp"
#include "mcpilot/session.hpp"
#include "mcpilot/stats/scaling.hpp"
#include "mcpilot/stats/welch.hpp"
#include "mcpilot/stats/wps.hpp"
#include "mcpilot/stop_reason.hpp"
#include "mcpilot/sweep/run.hpp"

namespace mcpilot {

// What the last section of every page shows: how to get the same result again.
struct report_provenance {
  std::vector<std::string> command;    // the words as typed, program first; shown shell-quoted
  std::optional<std::uint64_t> seed;   // none: the result uses no random numbers
  std::string seed_note;               // what the seed drives, e.g. "the interleaving order"
  std::string config_source;           // the config's path, or empty
  std::string config_text;             // the config file as it was read, or empty
  std::vector<std::string> overrides;  // --set, in order
  std::vector<std::pair<std::string, std::string>> settings;  // options that shape the result
  nlohmann::ordered_json environment = nullptr;               // environment_json(...)
};

// How the page came out: a figure that gnuplot did not draw (missing, or failing) is named in the
// page, and here for the command to warn about.
struct report_outcome {
  std::size_t figures = 0;
  std::size_t drawn = 0;
  std::vector<std::string> problems;  // one per figure not drawn: "figure 2: why"
};

// `mcpilot run` of one session (or one point of a sweep, --point K): the required quantities'
// intervals against the exact values, the interval of each after every round (`history`), what was
// discarded and why. `labels.experiment` titles the page.
report_outcome write_html_report(std::ostream& out, const session_result& r,
                                 const round_history& history, const session_labels& labels,
                                 const report_provenance& p);

// A sweep: one row per point, each quantity against the swept value, the points that did not run
// and why.
report_outcome write_html_report(std::ostream& out, const sweep_result& r,
                                 const experiment_config& base, const report_provenance& p);

// `mcpilot analyze`: one column's interval, the readings in file order with the removed warm-up
// and cool-down, the change-points and the stable phase's mean and interval. `warnings` (the
// trend analyze warns of) are shown under the verdict.
report_outcome write_html_report(std::ostream& out, const analysis& a,
                                 std::span<const double> readings, const report_context& ctx,
                                 const report_provenance& p,
                                 const std::vector<std::string>& warnings = {});

// `mcpilot scaling`: the label and its sentence, the per-size medians with the fitted shapes, the
// local exponents, and the candidates' validation.
report_outcome write_html_report(std::ostream& out, const scaling_result& r,
                                 const scaling_source& s, const scaling_options& o,
                                 const report_provenance& p);

// What `mcpilot bench` found, as its report reads it: each command's quantities and runs, each
// pair's ratio and verdict, why it stopped.
struct bench_report {
  struct command {
    std::string name;
    std::string line;  // the command line as given
    std::vector<quantity_result> quantities;
    std::vector<double> primary_readings;  // the first quantity's readings, in run order
    std::uint64_t runs = 0;
    std::uint64_t failures = 0;  // kept under --ignore-failure
    std::optional<wps_fit> wps;  // %WORK_AMOUNT%: the rate from the work-vs-duration regression
  };
  struct pair {
    std::size_t a = 0, b = 0;  // indices into commands, a < b; the ratio is b / a
    ratio_interval ratio;
    double p = 1;
    bool resolved = false;
    std::string verdict;  // the table's words: resolved or not, at which look, runs still needed
  };
  precision requirements;
  std::string preset;
  std::string until;  // "precise" or "separated"
  std::uint64_t runs = 0;
  std::uint64_t warmup_runs = 0;  // per command, discarded before measuring
  stop_reason stopped_because = stop_reason::converged;
  std::optional<std::string> error;
  std::vector<std::string> counter_notes;
  std::vector<command> commands;
  std::vector<pair> pairs;
};

report_outcome write_html_report(std::ostream& out, const bench_report& r,
                                 const report_provenance& p);

}  // namespace mcpilot
