#pragma once
// One run of another program, as `mcpilot bench` times it: a fresh process, its wall time from
// just before the spawn to just after the wait, and what the kernel accounts to it (wait4's user
// and system CPU time and peak resident set). The process is the independent unit of a benchmark;
// everything here is about exactly one of them.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mcpilot/measure/counters.hpp"

namespace mcpilot {

struct child_options {
  std::string input_file;             // stdin from this file; empty: /dev/null
  bool capture_stdout = false;        // keep stdout in child_result::output (for --output csv)
  bool show_output = false;           // pass stdout and stderr through (no stderr tail then)
  std::vector<std::string> counters;  // perf counters of the child (inherit, enable_on_exec)
};

struct child_result {
  bool started = false;     // false: the program could not be executed (start_error says why)
  std::string start_error;  // strerror of the spawn: "No such file or directory"
  int exit_code = 0;        // the program's exit status, or 128 + signal when killed by one
  int signal = 0;           // the signal that ended it, 0 when it exited
  double wall_seconds = 0;
  double user_seconds = 0;
  double system_seconds = 0;
  double max_rss_kib = 0;                // peak resident set size, KiB (ru_maxrss)
  std::string output;                    // stdout when captured
  std::string stderr_tail;               // the last few KiB of stderr, for a failure's message
  std::vector<counter_status> counters;  // one per requested counter
  counter_values counts;                 // of the available ones, in status order
};

// Splits a command line into words for --shell none: whitespace separates, single and double
// quotes group, backslash escapes the next character (outside single quotes). Throws input_error
// naming `what` for an unterminated quote or an empty command.
std::vector<std::string> split_command_line(const std::string& line, const std::string& what);

// The argv that runs `line`: its words (shell "none"), or {"/bin/sh", "-c", line} (shell "sh").
std::vector<std::string> command_argv(const std::string& line, const std::string& shell);

// Where execvp would find `name` on PATH (the first regular, executable file); nullopt for a name
// holding a '/' (used as it is) or one found nowhere. O(entries of PATH) stat calls.
std::optional<std::string> find_on_path(const std::string& name);

// Runs argv[0] (searched in PATH once per thread and name, outside the timed window; argv[0]
// itself is passed on as given) with argv and waits for it. Never throws for the child's own
// failure (not found, non-zero exit, killed): the result says so. Throws input_error when
// input_file cannot be opened. Without counters the process is started with posix_spawn (the
// cheapest way, so that the overhead per run stays small); with them, by fork and exec, so that
// the counters can be attached to the child before it executes.
child_result run_child(const std::vector<std::string>& argv, const child_options& options);

}  // namespace mcpilot
