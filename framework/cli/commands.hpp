#pragma once
// Each subcommand lives in its own file and adds itself to the app here. A command's callback
// stores its exit code in `result`; errors are thrown as input_error and mapped in app.cpp.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "mcpilot/registry.hpp"

namespace mcpilot::cli {

struct context {
  int result = 0;
  const model_registry* models = nullptr;
  std::string program = "mcpilot";  // argv[0]'s file name, to prefix messages
  std::vector<std::string> words;   // argv as given, for a report's command to reproduce it
  // Parse and check the options, then stop before reading a file or running a session: the seam
  // the command-line fuzz target (tests/fuzz) uses.
  bool parse_only = false;
};

// cli_main's body: parses argv with `ctx` (models, parse_only) and returns the exit code.
int run_cli(int argc, char** argv, context& ctx);

void add_analyze_command(CLI::App& app, context& ctx);
void add_compare_command(CLI::App& app, context& ctx);
void add_changepoints_command(CLI::App& app, context& ctx);
void add_run_command(CLI::App& app, context& ctx);
void add_bench_command(CLI::App& app, context& ctx);
void add_models_commands(CLI::App& app, context& ctx);  // `models` and `describe`
void add_scaling_command(CLI::App& app, context& ctx);
void add_validate_command(CLI::App& app, context& ctx);

}  // namespace mcpilot::cli
