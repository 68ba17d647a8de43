// `mcpilot run CONFIG --replay K`: replication K (stream K for a stream-style model) alone, on this
// thread, with the session's seed, its readings printed. A session's failure message names this
// command, so that the replication that threw among millions can be put under a debugger
// (docs/cli.md, "Replaying one replication").

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "mcpilot/cli.hpp"
#include "mcpilot/cluster.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/number_text.hpp"
#include "mcpilot/replay.hpp"
#include "mcpilot/sweep/plan.hpp"
#include "run_support.hpp"

namespace mcpilot::cli {

namespace {

// The latest readings of a replayed stream shown per quantity.
constexpr std::size_t shown_stream_readings = 10;

void refuse_other_outputs(const run_options& o) {
  const auto refuse = [](const std::string& option) {
    throw input_error("--replay prints one replication's readings; " + option +
                      " describes a session (run without --replay for it)");
  };
  if (!o.json.empty()) refuse("--json");
  if (!o.raw.empty()) refuse("--raw");
  if (!o.table.empty()) refuse("--table");
  if (!o.plot.empty()) refuse("--plot");
  if (!o.report.path.empty()) refuse("--report");
  if (!o.checkpoint.empty()) refuse("--checkpoint");
  if (!o.resume.empty()) refuse("--resume");
}

// A sweep's point K as its session sees it: the point's values as overrides, and its own seed.
experiment_config point_config(const run_options& o, const experiment_config& cfg,
                               const std::string& text, const config_overrides& overrides,
                               const model_registry& models) {
  const sweep_plan& plan = *cfg.sweep;
  if (!o.point)
    throw input_error("--replay: " + o.config + " is a sweep; replay a replication of one point " +
                      "with --point K --replay " + std::to_string(*o.replay) +
                      " (the failing point's number is in the message)");
  if (*o.point >= plan.size())
    throw input_error("--point " + std::to_string(*o.point) + ": the sweep has " +
                      std::to_string(plan.size()) + " points (0 to " +
                      std::to_string(plan.size() - 1) + ")");
  config_overrides with_point = overrides;
  const auto values = plan.point(*o.point);
  for (std::size_t i = 0; i < plan.axes.size(); ++i) {
    const std::string value = toml_text(values[i]);
    with_point.point.push_back({plan.axes[i].key + "=" + value,
                                plan.axes[i].where + ": [sweep] " + plan.axes[i].key + " = " +
                                    value + ", point " + std::to_string(*o.point)});
  }
  experiment_config point = parse_config(text, cfg.path, models, with_point);
  point.settings.seed = point_seed(cfg.settings.seed, *o.point);
  return point;
}

std::string value_text(double v) {
  return std::isnan(v) ? std::string("(not recorded)") : number_text(v);
}

int replay_replication_of(const experiment_config& cfg, std::uint64_t k,
                          const std::string& program) {
  const auto& quantities = cfg.spec.quantities();
  std::vector<double> row;
  std::cout << cfg.name << ": replication " << k << " of " << cfg.model_name << " alone (seed "
            << cfg.settings.seed << ", one thread)\n";
  try {
    replay_replication(*cfg.instance, cfg.spec, cfg.settings.seed, k, row);
  } catch (const std::exception& e) {
    for (std::size_t q = 0; q < quantities.size(); ++q)
      if (!quantities[q].derived() && !std::isnan(row[q]))
        std::cout << "  " << quantities[q].name << " = " << value_text(row[q])
                  << "  (recorded before the failure)\n";
    std::cout.flush();
    std::cerr << program << ": error: replication " << k << " (seed " << cfg.settings.seed
              << ") failed: " << e.what() << '\n';
    return exit_input;
  }
  for (std::size_t q = 0; q < quantities.size(); ++q)
    if (!quantities[q].derived())
      std::cout << "  " << quantities[q].name << " = " << value_text(row[q]) << '\n';
  return exit_ok;
}

int replay_stream_of(const experiment_config& cfg, std::uint64_t k, const std::string& program) {
  const auto& quantities = cfg.spec.quantities();
  if (k >= cfg.settings.engine.streams)
    throw input_error("--replay " + std::to_string(k) + ": " + cfg.path + " runs " +
                      std::to_string(cfg.settings.engine.streams) + " streams (0 to " +
                      std::to_string(cfg.settings.engine.streams - 1) + ")");
  const std::uint64_t limit = cfg.settings.max_replications;
  std::cout << cfg.name << ": stream " << k << " of " << cfg.model_name << " alone (seed "
            << cfg.settings.seed << ", one thread), until it fails or gives " << limit
            << " readings (max_replications)\n";
  stream_replay r;
  std::string failure;
  try {
    replay_stream(*cfg.instance, cfg.spec, cfg.settings.seed, k, limit, shown_stream_readings, r);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  for (std::size_t q = 0; q < quantities.size(); ++q) {
    if (quantities[q].derived()) continue;
    std::cout << "  " << quantities[q].name << ": " << r.counts[q] << " readings";
    if (!r.last[q].empty()) {
      std::cout << "; the last " << r.last[q].size() << ":";
      for (const double v : r.last[q]) std::cout << ' ' << number_text(v);
    }
    std::cout << '\n';
  }
  if (failure.empty()) return exit_ok;
  std::cout.flush();
  std::cerr << program << ": error: stream " << k << " (seed " << cfg.settings.seed
            << ") failed: " << failure << '\n';
  return exit_input;
}

}  // namespace

int run_replay(const run_options& o, const experiment_config& cfg, const std::string& text,
               const config_overrides& overrides, const model_registry& models,
               const std::string& program) {
  refuse_other_outputs(o);
  if (cluster_active())
    throw input_error(
        "--replay runs one replication in one process: run it without mpirun or "
        "srun");
  if (cfg.spec.is_measurement())
    throw input_error("--replay: " + cfg.model_name +
                      " is a measurement model; its readings are timings, which no replay "
                      "repeats (run it as a session)");
  if (!cfg.sweep && o.point) throw input_error("--point: " + o.config + " has no [sweep]");
  const experiment_config point =
      cfg.sweep ? point_config(o, cfg, text, overrides, models) : experiment_config{};
  const experiment_config& c = cfg.sweep ? point : cfg;
  return c.spec.is_stream_style() ? replay_stream_of(c, *o.replay, program)
                                  : replay_replication_of(c, *o.replay, program);
}

}  // namespace mcpilot::cli
