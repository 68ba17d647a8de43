// Your own executable: register your models and hand over to mcpilot's command line, which gives
// you `run`, `models`, `describe` and the analysis commands.
#include <mcpilot/cli.hpp>
#include <mcpilot/registry.hpp>

#include "birthday_model.hpp"

int main(int argc, char** argv) {
  mcpilot::model_registry models;
  models.add<birthday_model>("birthday");
  return mcpilot::cli_main(argc, argv, models);
}
