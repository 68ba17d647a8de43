#pragma once
// `mcpilot bench` inside: its options, what is measured of each command and pair, and the
// session that runs the commands (bench_session.cpp) and reports them (bench_report.cpp).
// bench_scan.cpp runs one session per value of --parameter-scan; bench.cpp registers the
// command; bench_words.hpp turns words into command lines and a program's output into readings.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis_options.hpp"
#include "mcpilot/engine.hpp"
#include "mcpilot/measure/child.hpp"
#include "mcpilot/stats/repeated_looks.hpp"
#include "mcpilot/stats/welch.hpp"
#include "report_option.hpp"

namespace mcpilot::cli::bench {

// Stands for the work amount in a command line (docs/bench.md, "Work amount").
inline const std::string work_token = "%WORK_AMOUNT%";

// The quantity that progress lines show and pairs are compared on: the first column of
// --output csv, or else the wall time (each command's quantities are declared in that order).
constexpr std::size_t primary = 0;

struct bench_options {
  std::vector<std::string> names;     // -n NAME, one per command in order
  std::vector<std::string> commands;  // positional
  std::string shell = "none";
  std::size_t warmup = 0;
  std::string prepare, setup, cleanup;
  std::string input;
  bool show_output = false;
  bool ignore_failure = false;
  std::string output = "time";  // "time" or "csv[:COLUMNS]"
  std::string until = "precise";
  std::uint64_t max_runs = 100000;
  double max_seconds = 600;
  std::uint64_t seed = 1;
  std::string counters;
  std::optional<double> work_initial, work_max;
  std::size_t work_levels = 5;
  std::string export_json, export_csv, export_markdown;
  std::vector<std::string> scan;  // --parameter-scan NAME LOW HIGH
  std::optional<double> scan_step, scan_factor;
  std::string export_sweep;
  report_request report;  // --report FILE.html (bench_page.cpp)
  bool quiet = false, progress = false;
  shared_options precision_options;
};

// One command under test and everything measured of it.
struct bench_command {
  std::string name;
  std::string line;
  std::vector<std::string> argv;
  model_spec spec;
  std::unique_ptr<engine> eng;
  decision last;
  std::uint64_t runs = 0;
  std::uint64_t failures = 0;
  std::uint64_t lines = 0;              // --output csv: lines read so far
  std::vector<double> work, durations;  // %WORK_AMOUNT%: one pair per run
};

struct raw_reading {
  std::uint64_t run;
  std::size_t command;
  double timestamp;  // seconds since the session started
  std::size_t quantity;
  double value;
};

struct pair_result {
  std::size_t a = 0, b = 0;
  sample_moments ma, mb;                     // of the subsession means
  welch_result w;                            // at the session's confidence, for the report
  ratio_interval ratio;                      // mean_b / mean_a
  std::optional<std::uint64_t> runs_needed;  // of B to separate them at the next look's level
  // The verdict (bench_session::judge): resolved at a look of this level, where Welch's p was
  // look_p; or, not resolved, the latest look's level and p.
  bool resolved = false;
  std::uint64_t looks = 0;
  double level = 0, look_p = 1;
  double next_level = 0;  // where the next look would test it
};

// What --until separated has found about one pair so far. The looks are tested at falling
// levels (stats/repeated_looks.hpp), so that the chance of resolving two equal commands at any
// of them stays within 1 - confidence; the first look that separates them settles the pair.
struct pair_verdict {
  look_schedule schedule;
  bool resolved = false;
  double level = 0, look_p = 1;
};

class bench_session {
 public:
  bench_session(bench_options o, std::string program) : o_(std::move(o)), program_(program) {}
  int run();
  // After run(): one row per command and quantity for a sweep table.
  void sweep_rows(std::ostream& out, std::size_t point, const std::string& value) const;

 private:
  void set_up();
  child_result run_once(const std::string& line, bool measured, const std::string& what);
  void run_measured(std::size_t c, double work);
  std::vector<pair_result> comparisons() const;
  // How judge() may look at the pairs under --until separated: at a round's end, when a look is
  // due; when the session closes, whenever runs came in since the last look; or not at all.
  enum class look_at { due, closing, none };
  void judge(std::vector<pair_result>& pairs, look_at when);
  bool goal_met(const std::vector<pair_result>& pairs) const;
  std::vector<std::size_t> round_order(const std::vector<pair_result>& pairs) const;
  void write_outputs(const std::vector<pair_result>& pairs) const;
  void write_table(std::ostream& out, const std::vector<pair_result>& pairs) const;
  nlohmann::ordered_json to_json_result(const std::vector<pair_result>& pairs) const;
  void write_markdown(std::ostream& out) const;
  void write_csv(std::ostream& out) const;
  void write_report_page(const std::vector<pair_result>& pairs) const;
  std::string progress_text(const std::vector<pair_result>& pairs) const;
  // Each pair's share of 1 - confidence. --until separated claims that every pair differs, and
  // stops on that claim, so its pairs share the error rate (Bonferroni): the chance that any of
  // them is resolved falsely, at any look, stays within 1 - confidence. --until precise reports
  // each comparison on its own, at 1 - confidence, as `mcpilot compare` does.
  double pair_alpha() const {
    const double alpha = 1 - requirements_.confidence;
    const std::size_t nc = commands_.size();
    return o_.until == "separated" && nc > 2 ? alpha / static_cast<double>(nc * (nc - 1) / 2)
                                             : alpha;
  }
  // Pair (a, b)'s place among all pairs in order.
  std::size_t pair_index(const pair_result& p) const {
    const std::size_t nc = commands_.size();
    return p.a * nc - p.a * (p.a + 1) / 2 + (p.b - p.a - 1);
  }

  bench_options o_;
  std::string program_;
  precision requirements_;
  std::vector<std::string> columns_;  // --output csv
  std::vector<std::string> counters_;
  bool work_mode_ = false;
  std::vector<bench_command> commands_;
  std::vector<raw_reading> raw_;
  std::uint64_t total_runs_ = 0;
  std::optional<stop_reason> stopped_because_;  // none while running
  std::optional<std::string> failure_;
  std::chrono::system_clock::time_point start_, end_;
  std::chrono::steady_clock::time_point t0_;
  std::vector<std::string> counter_notes_;
  std::vector<pair_verdict> verdicts_;  // one per pair (a, b), a < b, in order
};

// One session per value of --parameter-scan (bench_scan.cpp).
int run_scan(const bench_options& o, const std::string& program);

}  // namespace mcpilot::cli::bench
