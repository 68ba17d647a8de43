#pragma once
// What `mcpilot run` writes for a sweep: one aligned table with a row per point (stdout), the
// results table as CSV (--table), and the JSON result with points[] (--json). docs/sweeps.md
// describes each format.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpilot/io/config.hpp"
#include "mcpilot/sweep/run.hpp"

namespace mcpilot {

// `point,<one column per swept key, as written>,quantity,mean,ci_low,ci_high,ci_width_rel,
// readings,converged,stopped_because,analytic`: one row per point and quantity; an empty field for
// a value that does not exist. A point that did not run has a row per quantity of `base`, with
// stopped_because "failed: ...", "skipped: ..." or "not run: ...".
void write_sweep_csv(std::ostream& out, const sweep_result& r, const experiment_config& base);

// {sweep{mode, keys, values{key: [...]}, geometric{key: bool}, points}, exit_code,
//  stopped_because ("completed" | "interrupted"), seed, points[{point, values{key: value}, seed,
//  status, reason, then the single-run JSON's fields: converged, stopped_because, error,
//  replications, rounds, style, streams, threads, model_facts, quantities[...]}], config,
//  environment}
nlohmann::ordered_json to_json(const sweep_result& r, const experiment_config& base,
                               const nlohmann::ordered_json& environment);

// The title, one row per point (its values, each required quantity's interval, and the exact value
// where the model knows one, readings, how it stopped), then a line for each point that failed or
// was skipped, with the message.
void write_sweep_table(std::ostream& out, const sweep_result& r, const experiment_config& base);

// "model.disks = 8, model.tolerance = 2"
std::string point_label(const sweep_point& p);

}  // namespace mcpilot
