#pragma once
// One experiment from start to stop: the engine decides round sizes, the runner executes them,
// readings flow back in index order. Results depend on the config and seed alone, never on the
// thread count (except when max_seconds cuts a session short, which depends on the clock).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mcpilot/engine.hpp"
#include "mcpilot/model.hpp"
#include "mcpilot/runner.hpp"

namespace mcpilot {

struct session_settings {
  std::uint64_t seed = 1;
  unsigned threads = 0;  // 0: all cores
  engine_options engine;
  std::uint64_t max_replications = 10'000'000;
  double max_seconds = 600;
};

struct session_progress {
  std::size_t round = 0;
  std::uint64_t replications = 0;  // stream style: readings of the first quantity, all streams
  double elapsed_seconds = 0;
  const std::vector<quantity_result>* quantities = nullptr;
  std::uint64_t next_round = 0;  // 0 when stopping; stream style: readings per stream
  std::size_t streams = 0;       // stream style: how many; 0 for replication style
};

struct session_hooks {
  std::function<void(const session_progress&)> on_round;  // after each evaluation
  // Checked between rounds and, through a watcher thread, inside a round: a round that is cut
  // short (by this flag or by max_seconds) keeps a prefix of its replication indices (stream
  // style: the same number of readings from every stream), so the result is still a function of
  // the seed and the number of readings.
  const std::atomic<bool>* interrupted = nullptr;
};

struct session_result {
  std::vector<quantity_result> quantities;
  std::uint64_t replications = 0;
  std::size_t rounds = 0;
  unsigned threads = 0;  // the concurrency actually used
  // "converged", "unreachable", "max_replications", "max_seconds", "interrupted", "error"
  std::string stopped_because;
  std::optional<std::string> error;  // a replication's failure, with index and seed to replay it
  std::chrono::system_clock::time_point start, end;
  std::shared_ptr<const engine> readings;  // every reading, for --raw
  bool all_required_converged() const;
};

// Runs the configured model until the engine stops it or a limit is reached. A replication that
// throws ends the session cleanly: stopped_because "error", the readings of earlier replications
// kept. Throws only for a bug (or bad settings).
session_result run_session(const model& m, const model_spec& spec, const session_settings& settings,
                           const session_hooks& hooks = {});

}  // namespace mcpilot
