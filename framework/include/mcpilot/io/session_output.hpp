#pragma once
// What `mcpilot run` writes: the human table (stdout), the JSON result (--json), and every raw
// reading (--raw), so that `mcpilot analyze` can recompute any interval from the file.

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpilot/model.hpp"
#include "mcpilot/session.hpp"

namespace mcpilot {

struct session_metadata {
  std::uint64_t seed = 0;
  nlohmann::ordered_json config = nullptr;  // the resolved config (experiment_config::resolved)
  nlohmann::ordered_json environment = nullptr;  // environment_json(...)
  // Known exact values by quantity name (a closed form, a CTMC solution), reported beside the
  // estimate as `analytic`; quantities without one get null.
  std::map<std::string, double> analytic;
  std::vector<model_fact> facts;  // model::model_facts(): written as `model_facts`
};

// {name: value, ...} in declaration order; lists become arrays.
nlohmann::ordered_json to_json(const std::vector<model_fact>& facts);

// {quantities: [to_json(analysis) + name, unit, required, derived, analytic, analytic_covered,
//  requirements{...}],
//  model_facts{...}, converged, replications, rounds, style, streams, seed, threads, config,
//  environment, stopped_because, error}
nlohmann::ordered_json to_json(const session_result& r, const session_metadata& m);

// What the table's title line names.
struct session_labels {
  std::string experiment;
  std::string model;
  std::string preset;
  std::uint64_t seed = 0;
  std::map<std::string, double> analytic;  // exact values: shown beside the estimates
  std::vector<model_fact> facts;           // shown under the title line
};

// "name = value" text of a fact's value, as the table shows it.
std::string to_string(const model_fact::value_type& value);

// Whether [ci_low, ci_high] holds `exact` (an unbounded upper end holds everything above
// ci_low); nullopt when there is no interval.
std::optional<bool> covers(const analysis& a, double exact);

// One row per quantity: quantity, mean, interval, ±%, readings, subsession, converged (and, when
// the model knows exact values, the exact value and whether the interval covers it); then why
// the session stopped, what was discarded, and what an unconverged quantity still needs.
void write_session_table(std::ostream& out, const session_result& r, const session_labels& labels);

// Replication style: `replication,quantity,value`, one line per reading, in index order.
// Stream style: `stream,index,quantity,value`, index counting from 0 within each stream.
// Values are written as the shortest text that reads back bit-identical. Derived quantities have no
// readings of their own and are left out.
void write_raw_readings(std::ostream& out, const session_result& r, const model_spec& spec);

}  // namespace mcpilot
