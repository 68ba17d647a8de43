#include <exception>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"

namespace mcpilot {

int cli_main(int argc, char** argv, const model_registry& models) {
  CLI::App app{
      "Monte Carlo and measurement sessions that stop when the intervals are "
      "narrow enough"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(MCPILOT_VERSION " (" MCPILOT_GIT_COMMIT ")"));
  cli::context ctx;
  ctx.models = &models;
  if (argc > 0 && argv[0] && *argv[0]) ctx.program = std::filesystem::path(argv[0]).filename();
  cli::add_analyze_command(app, ctx);
  cli::add_compare_command(app, ctx);
  cli::add_changepoints_command(app, ctx);
  cli::add_run_command(app, ctx);
  cli::add_models_commands(app, ctx);
  cli::add_scaling_command(app, ctx);
  cli::add_bench_command(app, ctx);
  try {
    app.parse(argc, argv);
    return ctx.result;
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return exit_input;
  } catch (const input_error& e) {
    std::cerr << ctx.program << ": error: " << e.what() << '\n';
    return exit_input;
  } catch (const std::exception& e) {
    std::cerr << ctx.program << ": internal error: " << e.what() << '\n';
    return exit_internal;
  }
}

}  // namespace mcpilot
