#pragma once
// Shared by `mcpilot run` for one session (run.cpp) and for a sweep (run_sweep.cpp): the options,
// output files opened up front, the Ctrl-C flag, and the plot step that fails alone.

#include <signal.h>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mcpilot/io/config.hpp"
#include "mcpilot/io/plot.hpp"
#include "mcpilot/registry.hpp"
#include "report_option.hpp"

namespace mcpilot::cli {

struct run_options {
  std::string config;
  std::uint64_t seed = 0;
  unsigned threads = 0;
  std::vector<std::string> sets;
  std::string json;
  std::string raw;
  std::string table;                    // --table FILE.csv: a sweep's results table
  std::optional<std::size_t> point;     // --point K
  std::optional<std::uint64_t> replay;  // --replay K: replication (or stream) K alone
  std::string plot;                     // --plot FILE
  std::string format = "svg";
  bool quiet = false;
  bool progress = false;
  std::string checkpoint;        // --checkpoint FILE
  double checkpoint_every = 60;  // seconds between checkpoints; 0: after every round
  std::string resume;            // --resume FILE
  report_request report;         // --report FILE.html
};

// Set by SIGINT, SIGTERM or SIGHUP; the session checks it between rounds and, through its limit
// watcher, between the replications of a round; a sweep also between points. Lock-free, so a
// signal handler may store it.
extern std::atomic<bool> interrupted;

// Under MPI (docs/cluster.md) only rank 0 speaks, and mpirun's SIGTERM may mean a lost rank: rank 0
// then names the checkpoint to resume from. Set before the handler is installed.
extern std::atomic<bool> signal_speaks;
extern std::array<char, 1024> signal_hint;
extern std::size_t signal_hint_size;

// Installs the handler for the session's (or sweep's) lifetime only. SA_RESETHAND makes a second
// signal take the default action (terminate) in case the replications under way take too long;
// outputs are written to temporary files and renamed, so that leaves the old files, never
// truncated ones.
class stop_signal_scope {
 public:
  stop_signal_scope();
  ~stop_signal_scope();
  stop_signal_scope(const stop_signal_scope&) = delete;
  stop_signal_scope& operator=(const stop_signal_scope&) = delete;

 private:
  static constexpr std::array<int, 3> signals{SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> previous_{};
  std::array<bool, 3> installed_{};
};

// Checks every output path of `o` before any work: distinct, and each writable (io/atomic_file).
void check_outputs(const run_options& o);

// Renders a plot last, after everything else is written: a missing gnuplot (or its failure) is
// reported and turns the exit code into 2, unless it is already 130.
int render_last(const std::function<plot_request()>& build, int code, const std::string& program);

}  // namespace mcpilot::cli
