#pragma once
// Shared by `mcpilot run` for one session (run.cpp) and for a sweep (run_sweep.cpp): the options,
// output files opened up front, the Ctrl-C flag, and the plot step that fails alone.

#include <signal.h>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "mcpilot/io/config.hpp"
#include "mcpilot/io/plot.hpp"
#include "mcpilot/registry.hpp"
#include "mcpilot/stop_flag.hpp"
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
// watcher, between the replications of a round; a sweep also between points. A signal handler may
// raise it (stop_flag::raise is async-signal-safe), and the watcher wakes on it at once.
extern stop_flag interrupted;

// Under MPI (docs/cluster.md) only rank 0 speaks, and mpirun's SIGTERM may mean a lost rank: rank 0
// then names the checkpoint to resume from. Set before the handler is installed.
extern std::atomic<bool> signal_speaks;
extern std::array<char, 1024> signal_hint;
extern std::size_t signal_hint_size;

// Installs the handler from the session's (or sweep's) start until its outputs are written. Every
// signal, the first or the tenth, only sets `interrupted`: `timeout` signals the process and then
// its group, and a second signal that killed the process (as SA_RESETHAND once did) lost every
// output the first was about to write. The session stops within a replication's time; a process
// that must die at once takes SIGKILL, and --checkpoint covers that.
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

// Checks every output path of `o` before any work: distinct, none an input (the config, the
// checkpoint resumed: --resume ck --checkpoint ck excepted), each writable (io/atomic_file); "-"
// (stdout) only for --json, --raw and --table, and for one of them.
void check_outputs(const run_options& o);

// True when --json, --raw or --table is "-": the table of results then goes to stderr.
bool stdout_is_an_output(const run_options& o);

// Writes an output: "-" to stdout, any other path through write_file_atomically.
void write_output(const std::string& path, std::string_view option,
                  const std::function<void(std::ostream&)>& write);

// Renders a plot last, after everything else is written: a missing gnuplot (or its failure) is
// reported and turns the exit code into 2, unless it is already 130.
int render_last(const std::function<plot_request()>& build, int code, const std::string& program);

}  // namespace mcpilot::cli
