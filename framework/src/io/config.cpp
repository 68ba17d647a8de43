#include "mcpilot/io/config.hpp"

#include <sys/stat.h>
#include <cerrno>
#include <cstring>

#include <toml++/toml.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../sweep/reader.hpp"
#include "config_support.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/input_file.hpp"
#include "mcpilot/measure/measurement.hpp"

// The reader's parts: config_support (places, helpers), config_set (--set), config_fields (typed
// fields), config_sections ([experiment], [[quantity]]), config_model ([model]), config_resolved
// (the resolved JSON), ../sweep/reader ([sweep]).

namespace mcpilot {

using namespace config_detail;

experiment_config parse_config(std::string_view text, const std::string& source,
                               const model_registry& models, const config_overrides& overrides) {
  locator loc(source);
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw input_error(source + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) +
                      ": " + std::string(e.description()));
  }
  for (const auto& s : overrides.sets) apply_set(root, s, "", loc);
  for (const auto& p : overrides.point) apply_set(root, p.assignment, p.origin, loc);

  for (auto&& [k, v] : root) {
    const std::string key(k.str());
    const std::string where = loc.where(k.source(), key);
    if (key == "experiment" || key == "model") {
      if (!v.is_table())
        fail(where, "[" + key + "]", "", std::string("expected a table, got ") + describe_type(v));
    } else if (key == "sweep") {
      continue;  // read below, once the model's parameters are known
    } else if (key == "quantity") {
      const auto* a = v.as_array();
      bool ok = a != nullptr;
      if (a)
        for (const auto& e : *a) ok = ok && e.is_table();
      if (!ok)
        fail(where, "[[quantity]]", "",
             "expected an array of tables ([[quantity]] entries), got " +
                 std::string(describe_type(v)));
    } else {
      fail(where, "top level", key,
           "unknown section (known: [experiment], [model], [[quantity]], [sweep])");
    }
  }

  experiment_config cfg;
  cfg.path = source;
  read_experiment(root.get_as<toml::table>("experiment"), loc, cfg);
  if (cfg.name.empty()) cfg.name = std::filesystem::path(source).stem().string();
  if (overrides.seed) cfg.settings.seed = *overrides.seed;
  if (overrides.threads) cfg.settings.threads = *overrides.threads;
  read_model(root.get("model"), loc, models, cfg);
  if (cfg.spec.is_measurement())
    declare_measurement_quantities(cfg.spec, probe_counters(cfg.settings.measurement.counters));
  else if (cfg.settings.measurement.cpu || !cfg.settings.measurement.counters.empty() ||
           cfg.settings.measurement.min_reading_ms)
    throw input_error(source +
                      ": [experiment] cpu, counters and min_reading_ms apply to measurement "
                      "models only; " +
                      cfg.model_name + " is not one");
  read_quantities(root.get("quantity"), loc, cfg);
  if (const toml::node* sweep = root.get("sweep")) {
    cfg.sweep = read_sweep(*sweep, source);
    check_sweep_keys(*cfg.sweep, cfg.spec, cfg.model_name, overrides.sets);
  }
  cfg.resolved = resolve(cfg, overrides);
  return cfg;
}

std::string read_config_file(const std::string& path) {
  // The OS's reason, or that it is a directory or a device: "cannot read" alone leaves the user
  // guessing. 16 MiB is far more than any config; /dev/zero would otherwise be read forever.
  return read_input_file(path, path + ": cannot read the config file", 16u << 20);
}

experiment_config load_config(const std::string& path, const model_registry& models,
                              const config_overrides& overrides) {
  return parse_config(read_config_file(path), path, models, overrides);
}

}  // namespace mcpilot
