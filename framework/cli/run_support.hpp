#pragma once
// Shared by `mcpilot run` for one session (run.cpp) and for a sweep (run_sweep.cpp): the options,
// output files opened up front, the Ctrl-C flag, and the plot step that fails alone.

#include <signal.h>
#include <atomic>
#include <cstdint>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mcpilot/io/config.hpp"
#include "mcpilot/io/plot.hpp"
#include "mcpilot/registry.hpp"

namespace mcpilot::cli {

struct run_options {
  std::string config;
  std::uint64_t seed = 0;
  unsigned threads = 0;
  std::vector<std::string> sets;
  std::string json;
  std::string raw;
  std::string table;                 // --table FILE.csv: a sweep's results table
  std::optional<std::size_t> point;  // --point K
  std::string plot;                  // --plot FILE
  std::string format = "svg";
  bool quiet = false;
  bool progress = false;
};

// Set by SIGINT; sessions check it between rounds, sweeps also between points.
extern std::atomic<bool> interrupted;

// Installs the handler for its lifetime only; SA_RESETHAND makes a second Ctrl-C take the default
// action (terminate) in case a round takes too long.
class sigint_scope {
 public:
  sigint_scope();
  ~sigint_scope();
  sigint_scope(const sigint_scope&) = delete;
  sigint_scope& operator=(const sigint_scope&) = delete;

 private:
  struct sigaction previous_ {};
  bool installed_ = false;
};

// Opened before the session starts, so that a bad path fails at once rather than after an hour.
void open_output(std::ofstream& out, const std::string& path, const char* option);
void check_written(std::ofstream& out, const std::string& path, const char* option);

// Renders a plot last, after everything else is written: a missing gnuplot (or its failure) is
// reported and turns the exit code into 2, unless it is already 130.
int render_last(const std::function<plot_request()>& build, int code, const std::string& program);

}  // namespace mcpilot::cli
