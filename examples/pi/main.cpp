// example-pi: one model registered in its own executable, run through the same command line as
// `mcpilot` (try `example-pi run configs/examples/pi.toml`).
#include "mcpilot/cli.hpp"
#include "mcpilot/registry.hpp"
#include "pi_model.hpp"

int main(int argc, char** argv) {
  mcpilot::model_registry models;
  models.add<examples::pi_model>("pi");
  return mcpilot::cli_main(argc, argv, models);
}
