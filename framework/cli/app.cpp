#include <exception>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/cluster.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/join.hpp"
#include "mcpilot_git_commit.h"  // generated at build time: cmake/git_commit.cmake

namespace mcpilot {

namespace cli {

namespace {

// CLI11 takes an unknown first word for a stray argument and says "A subcommand is required";
// the user typed a command name, so say that it is unknown and list the known ones.
void check_command_name(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1] == nullptr || argv[1][0] == '-') return;
  const std::string word = argv[1];
  std::vector<std::string> known;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->check_name(word)) return;
    known.push_back(sub->get_name());
  }
  throw input_error("unknown command '" + word + "' (commands: " + join(known) + ")");
}

}  // namespace

int run_cli(int argc, char** argv, context& ctx) {
  CLI::App app{
      "Monte Carlo and measurement sessions that stop when the intervals are "
      "narrow enough"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(MCPILOT_VERSION " (" MCPILOT_GIT_COMMIT ")"));
  if (argc > 0 && argv[0] && *argv[0]) ctx.program = std::filesystem::path(argv[0]).filename();
  ctx.words.assign(argv, argv + argc);
  add_analyze_command(app, ctx);
  add_compare_command(app, ctx);
  add_changepoints_command(app, ctx);
  add_run_command(app, ctx);
  add_models_commands(app, ctx);
  add_scaling_command(app, ctx);
  add_bench_command(app, ctx);
  add_validate_command(app, ctx);
  try {
    check_command_name(app, argc, argv);
    app.parse(argc, argv);
    return ctx.result;
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (cluster_rank() == 0) app.exit(e);
    return exit_input;
  } catch (const input_error& e) {
    if (cluster_reports_error()) std::cerr << ctx.program << ": error: " << e.what() << '\n';
    return exit_input;
  } catch (const std::exception& e) {
    std::cerr << ctx.program << ": internal error: " << e.what() << '\n';
    return exit_internal;
  }
}

}  // namespace cli

int cli_main(int argc, char** argv, const model_registry& models) {
  // Under mpirun or srun every rank runs this; only rank 0 speaks (docs/cluster.md).
  cluster_scope cluster(argc, argv);
  cli::context ctx;
  ctx.models = &models;
  return cli::run_cli(argc, argv, ctx);
}

}  // namespace mcpilot
