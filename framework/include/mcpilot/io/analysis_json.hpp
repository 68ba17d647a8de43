#pragma once
// The JSON form of analysis results, exactly the fields of docs/cli-analysis.md plus a few honest
// extras (n_used, remainder, status, one_sided, target_width). `mcpilot analyze --json` prints
// to_json(analysis); the engine reuses it for each quantity. Absent values (an unbounded rate
// interval, an unreachable required size) are null, never 0; `unreachable` says why a
// required_samples is null.

#include <nlohmann/json.hpp>

#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/changepoint.hpp"
#include "mcpilot/stats/wps.hpp"

namespace mcpilot {

// kind, confidence, mean, ci_low, ci_high, ci_width, ci_width_rel, one_sided, target_width,
// converged, unreachable, status, n, n_used, remainder, required_samples, subsession_size,
// subsession_count, autocorrelation, subsession_autocorrelation,
// warmup {applied, removed_begin, removed_end, changepoints, p_values, accepted}.
nlohmann::ordered_json to_json(const analysis& a);

// The requirements under the config's own keys: confidence, ac, ci_perc, ci (null when relative),
// min_samples.
nlohmann::ordered_json to_json(const precision& p);

// rate, rate_ci_low, rate_ci_high (null when the slope's interval contains 0), alpha, beta,
// rounds_used, naive_rate; extras beta_ci_low, beta_ci_high, residual_sd.
nlohmann::ordered_json to_json(const wps_fit& f);

// n, changepoints, p_values, stable_begin, stable_end (half-open), accepted.
nlohmann::ordered_json to_json(const changepoint_result& r);

}  // namespace mcpilot
