#pragma once
// Running a sweep: one session per point, in index order, each with its own seed
// (point_seed(config seed, k)); a point that fails is recorded and the sweep goes on. Stop-axis
// rules may skip the rest of an axis from the results of points already run. See docs/sweeps.md.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mcpilot/io/config.hpp"
#include "mcpilot/model.hpp"
#include "mcpilot/registry.hpp"
#include "mcpilot/session.hpp"
#include "mcpilot/stop_axis.hpp"
#include "mcpilot/sweep/plan.hpp"

namespace mcpilot {

enum class point_status {
  ran,      // a session ran: `result` says how it ended (converged, a limit, an error, interrupted)
  failed,   // the config was rejected at this point's values: `reason` is the message
  skipped,  // a stop-axis rule skipped it: `reason` is the rule's
  not_run,  // the sweep was interrupted before it
};
std::string_view to_string(point_status s);

struct sweep_point {
  std::size_t index = 0;
  std::vector<std::string> keys;    // the swept keys, as in the plan
  std::vector<param_value> values;  // this point's value of each key
  std::uint64_t seed = 0;           // its session's seed
  point_status status = point_status::not_run;
  std::string reason;
  std::optional<session_result> result;    // when status == ran
  std::map<std::string, double> analytic;  // the model's exact values at this point
  std::vector<model_fact> facts;
  model_spec spec;  // the configured model's declaration at this point (its quantities)

  // This point's value of `key`, or nullptr when the key is not swept.
  const param_value* value(std::string_view key) const;
  // The same as a number (integers convert); nullopt for a string, a boolean or an unswept key.
  std::optional<double> number(std::string_view key) const;
  // The named quantity's result, or nullptr (not run, or no such quantity).
  const quantity_result* quantity(std::string_view name) const;
  // Exit code of this point alone: 0, 2, 3 or 130 (docs/cli.md).
  int exit_code() const;
};

// How a stop-axis rule sees a point (stop_axis.hpp): its swept values and, once it ran, its
// quantities' estimates.
axis_point to_axis_point(const sweep_point& p);

// The resources of a sweep, estimated from every point's model before the first runs
// (model::estimate): the largest memory of one point, and the time of the points at their minimum
// sample: `certain_seconds` for the points no stop-axis rule can skip, `stoppable_seconds` at most
// for the others (they run only until their rule stops them). Zero when the model estimates none.
struct sweep_estimate {
  std::size_t points = 0;
  double peak_bytes = 0;
  std::size_t peak_point = 0;
  double certain_seconds = 0;
  double stoppable_seconds = 0;
  std::uint64_t readings_per_point = 0;  // the minimum sample the time assumes
  std::string basis;                     // the model's, from the point of peak memory
  std::size_t rejected_points = 0;       // whose config is rejected at their values
};

struct sweep_result;

struct sweep_options {
  std::optional<std::size_t> only_point;  // --point K: run point K alone (rules do not apply)
  std::vector<stop_axis_rule> rules;      // besides the model's own (model::stop_axis_rules)
  // Before the first point: what the sweep is estimated to need (sweep_estimate). Every point's
  // config is read first, so a point this machine cannot hold (a resource_error: too much memory)
  // refuses the whole sweep before anything runs.
  std::function<void(const sweep_estimate&)> on_estimate;
  // Before each point's session, and after each of its rounds.
  std::function<void(const sweep_point&, std::size_t points)> on_point;
  std::function<void(const sweep_point&, std::size_t points, const session_progress&)> on_round;
  const stop_flag* interrupted = nullptr;  // checked between rounds and between points
  // After each point whose session ran: the points so far (the rest are not in `so_far` yet), so
  // that outputs can be kept up to date for a sweep that is killed before its end.
  std::function<void(const sweep_result& so_far)> on_point_done;
};

struct sweep_result {
  std::vector<sweep_point> points;  // every point of the plan (only K's with only_point)
  bool interrupted = false;
  // 130 when interrupted, else the worst point: 2 (a failed point or a replication error) over
  // 3 (a limit) over 0. A skipped point counts as 0.
  int exit_code() const;
};

// Runs `base.sweep` (base must have one): every point re-reads `config_text` with the user's
// `overrides` and the point's values applied as labelled sets, so a value the config rejects is
// reported exactly as a --set would be, naming the key, the value and the point.
sweep_result run_sweep(const experiment_config& base, std::string_view config_text,
                       const model_registry& models, const config_overrides& overrides,
                       const sweep_options& options);

}  // namespace mcpilot
