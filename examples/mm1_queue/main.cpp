// example-mm1: a stream-style model registered in its own executable, run through the same
// command line as `mcpilot` (try `example-mm1 run configs/examples/mm1.toml`).
#include "mcpilot/cli.hpp"
#include "mcpilot/registry.hpp"
#include "mm1_model.hpp"

int main(int argc, char** argv) {
  mcpilot::model_registry models;
  models.add<examples::mm1_model>("mm1");
  return mcpilot::cli_main(argc, argv, models);
}
