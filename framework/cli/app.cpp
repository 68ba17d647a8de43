#include <exception>
#include <iostream>

#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"

namespace mcpilot {

int cli_main(int argc, char** argv, const model_registry& models) {
  CLI::App app{
      "mcpilot: Monte Carlo and measurement sessions that stop when the intervals are "
      "narrow enough"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(MCPILOT_VERSION " (" MCPILOT_GIT_COMMIT ")"));
  cli::context ctx;
  ctx.models = &models;
  cli::add_analyze_command(app, ctx);
  cli::add_compare_command(app, ctx);
  cli::add_changepoints_command(app, ctx);
  cli::add_run_command(app, ctx);
  cli::add_models_commands(app, ctx);
  try {
    app.parse(argc, argv);
    return ctx.result;
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return exit_input;
  } catch (const input_error& e) {
    std::cerr << "mcpilot: error: " << e.what() << '\n';
    return exit_input;
  } catch (const std::exception& e) {
    std::cerr << "mcpilot: internal error: " << e.what() << '\n';
    return exit_internal;
  }
}

}  // namespace mcpilot
