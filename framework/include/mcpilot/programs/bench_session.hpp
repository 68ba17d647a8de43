#pragma once
// Measuring programs (`mcpilot bench`, docs/bench.md): each command is run again and again, one
// fresh process per run, interleaved with the others in blocks of one run of each in a seeded
// order, until each command's intervals meet the precision (--until precise) or every pair of
// commands is told apart (--until separated). Each command's runs are a time-ordered stream fed
// to its own engine; pairs are compared on the pairing the blocks give
// (stats/paired_comparison.hpp).
//
// This is not mcpilot::session: a run here is a process on a shared machine, not a replication
// keyed by index, so runs cannot be spread over threads, cut at a prefix of indices or replayed;
// the loop that remains (ask the engines, run a round, feed the readings back) is short enough to
// keep apart. The command line (framework/cli/bench*.cpp) parses options into bench_settings and
// prints what the session found.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mcpilot/engine.hpp"
#include "mcpilot/measure/child.hpp"
#include "mcpilot/programs/work_schedule.hpp"
#include "mcpilot/stats/paired_comparison.hpp"
#include "mcpilot/stats/repeated_looks.hpp"
#include "mcpilot/stats/wps.hpp"
#include "mcpilot/stop_flag.hpp"
#include "mcpilot/stop_reason.hpp"

namespace mcpilot::programs {

// Stands for the work amount in a command line (docs/bench.md, "Work amount").
inline const std::string work_token = "%WORK_AMOUNT%";

// The quantity that progress lines show and pairs are compared on: the first column of
// --output csv, or else the wall time (each command's quantities are declared in that order).
constexpr std::size_t primary = 0;

// How one run is made: run_child (measure/child.hpp) unless a study puts a simulated machine in
// its place (validate's bench A/A studies).
using launcher =
    std::function<child_result(const std::vector<std::string>& argv, const child_options& options)>;

struct bench_settings {
  std::vector<std::string> names;     // one per command; empty: the command lines themselves
  std::vector<std::string> commands;  // whole command lines
  std::string shell = "none";         // none or sh
  std::uint64_t warmup = 0;           // discarded runs of each command before measuring
  std::string prepare, setup, cleanup;
  std::string input;
  bool show_output = false;
  bool ignore_failure = false;
  std::vector<std::string> columns;  // --output csv: one reading per column and line; empty: time
  bool until_separated = false;
  std::uint64_t max_runs = 100000;
  double max_seconds = 600;
  // No verdict before each command's measured runs add up to this many seconds of wall time (0:
  // none): the shortest stretch of the machine a verdict should cover, which only the user can
  // say (docs/bench.md, "A floor in seconds").
  double min_seconds = 0;
  std::uint64_t seed = 1;
  std::vector<std::string> counters;  // already checked by check_counter_names
  std::optional<double> work_initial, work_max;
  std::uint64_t work_levels = 5;
  std::optional<double> ramp_seconds;  // the ramp's budget; none: a tenth of max_seconds, <= 60
  precision requirements;
  bool remove_warmup = true;
  bool keep_excursions = true;             // analysis_options::keep_excursions
  const stop_flag* interrupted = nullptr;  // Ctrl-C: stop after the run under way
  launcher launch;                         // empty: run_child
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
  double measured_seconds = 0;          // the wall times of its measured runs, summed
  std::vector<double> per_run;          // the primary quantity of each run (a run's mean line)
  std::vector<double> work, durations;  // %WORK_AMOUNT%: one pair per run

  // The runs that give `readings` more lines of --output csv at the lines per run seen so far,
  // rounded up (one line per run before any was read).
  std::uint64_t runs_for_lines(std::uint64_t readings) const {
    return runs > 0 && lines > 0 ? (readings * runs + lines - 1) / lines : readings;
  }
};

struct raw_reading {
  std::uint64_t run;
  std::size_t command;
  double timestamp;  // seconds since the session started
  std::size_t quantity;
  double value;
};

// One pair (a, b), a < b: the paired comparison at the session's confidence and the verdict.
struct pair_result {
  std::size_t a = 0, b = 0;
  paired_comparison cmp;                     // at the session's confidence
  std::optional<std::uint64_t> runs_needed;  // of each, to separate them at the next look's level
  // --until separated: resolved at a look of this level, where the paired test's p was look_p;
  // or, not resolved, the latest look's level and p. --until precise: one look at 1 - confidence.
  bool resolved = false;
  std::uint64_t looks = 0;
  double level = 0, look_p = 1;
  double next_level = 0;  // where the next look would test it
};

// What --until separated has found about one pair so far. The looks are tested at falling levels
// (stats/repeated_looks.hpp), so that the chance of resolving two equal commands at any of them
// stays within 1 - confidence; the first look that separates them settles the pair.
struct pair_verdict {
  look_schedule schedule;
  bool resolved = false;
  double level = 0, look_p = 1;
};

class bench_session {
 public:
  // Checks what the settings alone can tell (input_error naming the option) and builds each
  // command's engine; starts nothing.
  explicit bench_session(bench_settings s);
  // Runs the session to its stop. Never throws for a command's failure or a bad line of output:
  // the session stops with stop_reason::error and failure() says why, and every reading so far is
  // kept.
  void run(const std::function<void()>& after_round = {});

  const bench_settings& settings() const { return s_; }
  const std::vector<bench_command>& commands() const { return commands_; }
  const std::vector<pair_result>& pairs() const { return pairs_; }
  const std::vector<raw_reading>& raw() const { return raw_; }
  std::uint64_t total_runs() const { return total_runs_; }
  std::optional<stop_reason> stopped_because() const { return stopped_because_; }
  const std::optional<std::string>& failure() const { return failure_; }
  const std::vector<std::string>& counter_notes() const { return counter_notes_; }
  // What went wrong without stopping the session (a failing --cleanup), for the caller to say.
  const std::vector<std::string>& warnings() const { return warnings_; }
  std::chrono::system_clock::time_point start() const { return start_; }
  std::chrono::system_clock::time_point end() const { return end_; }
  double elapsed_seconds() const;
  bool work_mode() const { return work_mode_; }
  // %WORK_AMOUNT%: the amounts so far and to come (the ramp, then refining ladders).
  const std::optional<work_schedule>& schedule() const { return schedule_; }
  // %WORK_AMOUNT%: the rate from the runs' work and durations as `analyze --wps` fits them
  // (consecutive runs grouped until their residuals' lag-1 autocorrelation is within the limit).
  std::optional<wps_fit> wps(const bench_command& c) const;
  // Each pair's share of 1 - confidence. --until separated claims that every pair differs, and
  // stops on that claim, so its pairs share the error rate (Bonferroni): the chance that any of
  // them is resolved falsely, at any look, stays within 1 - confidence. --until precise reports
  // each comparison on its own, at 1 - confidence, as `mcpilot compare` does.
  double pair_alpha() const;
  // Every command's measured runs add up to --min-seconds: a verdict may be given.
  bool floor_met() const;

 private:
  // interruptible: false for --cleanup, which runs after an interrupt too. argv: the line's words
  // already split (a command's own, split once), or null to split `line` here.
  child_result run_once(const std::string& line, bool measured, const std::string& what,
                        bool interruptible = true, const std::vector<std::string>* argv = nullptr);
  void run_measured(std::size_t c, double work);
  // How judge() may look at the pairs under --until separated: at a round's end, when a look is
  // due; when the session closes, whenever runs came in since the last look; or not at all.
  enum class look_at { due, closing, none };
  void compare_pairs(look_at when);
  bool goal_met() const;
  std::uint64_t round_blocks() const;
  std::size_t pair_index(std::size_t a, std::size_t b) const {
    const std::size_t nc = commands_.size();
    return a * nc - a * (a + 1) / 2 + (b - a - 1);
  }

  bench_settings s_;
  bool work_mode_ = false;
  std::optional<work_schedule> schedule_;
  std::vector<bench_command> commands_;
  std::vector<pair_result> pairs_;
  std::vector<pair_verdict> verdicts_;  // one per pair (a, b), a < b, in order
  std::vector<raw_reading> raw_;
  std::uint64_t total_runs_ = 0;
  std::optional<stop_reason> stopped_because_;  // none while running
  std::optional<std::string> failure_;
  std::chrono::system_clock::time_point start_, end_;
  std::chrono::steady_clock::time_point t0_;
  std::vector<std::string> counter_notes_;
  std::vector<std::string> warnings_;
};

}  // namespace mcpilot::programs
