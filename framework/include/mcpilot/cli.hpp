#pragma once
// The command-line entry point shared by `mcpilot` and every user's own executable.

namespace mcpilot {

class model_registry;

// Exit codes of the design's contract.
enum exit_code : int {
  exit_ok = 0,            // done; every required quantity converged
  exit_internal = 1,      // a bug: please report it
  exit_input = 2,         // usage or input error; the message names file, line and field
  exit_limit = 3,         // a limit was reached before convergence; intervals still reported
  exit_study_failed = 4,  // `validate`: a study's rate missed its gate
  exit_interrupted = 130  // interrupted; results so far written
};

// Parses argv, runs the subcommand, and returns the exit code. Never throws. `models` are the
// models `run`, `models` and `describe` know; `mcpilot` passes the built-in ones, a user's own
// executable its own.
int cli_main(int argc, char** argv, const model_registry& models);

}  // namespace mcpilot
