// The TOML config loader, with --set overrides. The input is the file's text, optionally followed
// by a line "%%" and then one --set assignment per line, as `run CONFIG --set A --set B` gives.
// Every built-in model is registered, as in `mcpilot run`, so that each one's parameters (and
// their range checks at load, issue 36) are reached. Models are configured but nothing is run.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "mcpilot/error.hpp"
#include "mcpilot/io/config.hpp"
#include "mcpilot/registry.hpp"
#include "mojette/mojette_model.hpp"
#include "placement/placement_model.hpp"
#include "sorting/sorting_model.hpp"
#include "storage/storage_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const mcpilot::model_registry models = [] {
    mcpilot::model_registry m;
    m.add<mcpilot::storage::storage_model>("storage.group");
    m.add<mcpilot::mojette::mojette_model>("mojette.layout");
    m.add<mcpilot::sorting::sorting_model>("sorting");
    m.add<mcpilot::placement::placement_model>("placement.design");
    return m;
  }();
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string_view text = input;
  mcpilot::config_overrides overrides;
  if (const auto sep = input.find("\n%%\n"); sep != std::string_view::npos) {
    text = input.substr(0, sep);
    std::string_view rest = input.substr(sep + 4);
    while (!rest.empty()) {
      const auto nl = rest.find('\n');
      overrides.sets.emplace_back(rest.substr(0, nl));
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    }
  }
  try {
    (void)mcpilot::parse_config(text, "fuzz.toml", models, overrides);
  } catch (const mcpilot::input_error&) {
  }
  return 0;
}
