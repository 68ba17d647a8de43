// The `mcpilot` executable: the shared command line with every built-in model registered.
#include "mcpilot/cli.hpp"
#include "mcpilot/registry.hpp"
#include "mojette/exact_study.hpp"
#include "mojette/mojette_model.hpp"
#include "placement/exact_study.hpp"
#include "placement/placement_model.hpp"
#include "sorting/sorting_model.hpp"
#include "sorting/stop_rule_study.hpp"
#include "storage/storage_model.hpp"

int main(int argc, char** argv) {
  mcpilot::model_registry models;
  models.add<mcpilot::storage::storage_model>("storage.group");
  models.add<mcpilot::mojette::mojette_model>("mojette.layout");
  models.add<mcpilot::sorting::sorting_model>("sorting");
  models.add<mcpilot::placement::placement_model>("placement.design");
  models.add_study(mcpilot::placement::exact_study());
  models.add_study(mcpilot::mojette::exact_study());
  models.add_study(mcpilot::sorting::stop_rule_study());
  return mcpilot::cli_main(argc, argv, models);
}
