// PLACEHOLDER: the real command is being written.
#include "commands.hpp"

namespace mcpilot::cli {

void add_analyze_command(CLI::App& app, context& ctx) {
  app.add_subcommand("analyze", "not yet implemented")->callback([&ctx] { ctx.result = 1; });
}

}  // namespace mcpilot::cli
