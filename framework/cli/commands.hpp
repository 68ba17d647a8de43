#pragma once
// Each subcommand lives in its own file and adds itself to the app here. A command's callback
// stores its exit code in `result`; errors are thrown as input_error and mapped in app.cpp.

#include <CLI/CLI.hpp>

namespace mcpilot::cli {

struct context {
  int result = 0;
};

void add_analyze_command(CLI::App& app, context& ctx);
void add_compare_command(CLI::App& app, context& ctx);
void add_changepoints_command(CLI::App& app, context& ctx);

}  // namespace mcpilot::cli
