#pragma once
// Experiment configs (docs/cli.md, "The config file"): a TOML file naming the model, its
// parameters, the session's precision and limits, and per-quantity overrides. Everything a user can
// get wrong is an input_error whose message starts with where it is: "FILE:LINE:COL: [section]
// field: ...", or "--set key: ..." for a command-line override, or "FILE: [model] field (default):
// ..." when a model rejects one of its own defaults.
//
//   [experiment]  name, seed, preset (quick|normal|strict), confidence, ac, ci_perc, ci,
//                 min_samples, threads (0 = all cores), max_replications, max_seconds, streams
//   [model]       name, then the model's parameters; nested tables flatten to dotted names
//   [[quantity]]  name, ci_perc, ci, confidence, ac, min_samples, required
//   [sweep]       config paths to lists or geometric ranges, and mode (sweep/plan.hpp)

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpilot/model.hpp"
#include "mcpilot/parameters.hpp"
#include "mcpilot/quantity.hpp"
#include "mcpilot/registry.hpp"
#include "mcpilot/session.hpp"
#include "mcpilot/sweep/plan.hpp"

namespace mcpilot {

// What the command line changes on top of the file.
struct config_overrides {
  // "key=value", applied in order. The value is parsed as a TOML value, and taken as a string when
  // that fails: `model.disks=8` is an integer, `model.lifetime.distribution=weibull` a string.
  // Keys: experiment.FIELD, model.PARAM (dotted for nested tables), quantity.NAME.FIELD.
  std::vector<std::string> sets;
  std::optional<std::uint64_t> seed;  // --seed: wins over the file and --set
  std::optional<unsigned> threads;    // --threads: likewise
  // A sweep point's values, applied after `sets` by the same path; `origin` names the value in
  // messages ("FILE:12:1: [sweep] model.disks = 3, point 4").
  struct labelled_set {
    std::string assignment;  // "model.disks=3"
    std::string origin;
  };
  std::vector<labelled_set> point;
};

// One [[quantity]] entry, as given.
struct quantity_override {
  std::string name;
  precision_override precision;
  std::optional<bool> required;
};

struct experiment_config {
  std::string path;  // the file as given
  std::string name;  // [experiment] name; the file's stem when absent
  std::string preset;
  std::string model_name;
  parameters params;  // every declared parameter: given, or its default
  session_settings settings;
  std::vector<quantity_override> quantity_overrides;  // already applied to `spec`
  std::unique_ptr<model> instance;                    // configured with `params`
  model_spec spec;  // the model's declaration with the [[quantity]] overrides applied
  // The full resolved config, defaults filled in: {path, experiment{...}, model{name, params
  // nested as in the file}, quantity[{name, unit, kind, required, derived, confidence, ac,
  // ci_perc, ci, min_samples} for every quantity], overrides[...]}.
  nlohmann::ordered_json resolved;
  // [sweep], when the file has one (its keys checked against the model's parameters).
  std::optional<sweep_plan> sweep;
};

// Reads `path` and resolves it against `models`. Throws input_error (see above).
experiment_config load_config(const std::string& path, const model_registry& models,
                              const config_overrides& overrides = {});

// The text of a config file; throws input_error when it cannot be read.
std::string read_config_file(const std::string& path);

// The same from text already in memory; `source` is the name used in messages.
experiment_config parse_config(std::string_view text, const std::string& source,
                               const model_registry& models,
                               const config_overrides& overrides = {});

}  // namespace mcpilot
