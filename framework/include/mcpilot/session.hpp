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
#include "mcpilot/measure/settings.hpp"
#include "mcpilot/model.hpp"
#include "mcpilot/round_executor.hpp"
#include "mcpilot/runner.hpp"
#include "mcpilot/stop_flag.hpp"

namespace mcpilot {

// A session's progress as a checkpoint holds it (the config is kept beside it by the caller):
// enough to continue with results bit-identical to a session that was never stopped, because the
// engine's decisions depend on the readings alone.
struct session_snapshot {
  std::size_t rounds = 0;
  std::vector<std::vector<double>> readings;  // replication style: [quantity][replication]
  std::vector<std::vector<std::vector<double>>> stream_readings;  // stream: [stream][quantity][i]
  std::vector<std::uint64_t> stream_drawn;  // stream style: random words each stream has drawn
  std::vector<std::string> stream_states;   // stream style: each stream's stream::save()
};
struct measurement_record;  // measure/measurement.hpp

struct session_settings {
  std::uint64_t seed = 1;
  unsigned threads = 0;  // 0: all cores
  engine_options engine;
  std::uint64_t max_replications = 10'000'000;
  double max_seconds = 600;
  // Continue from a checkpoint instead of starting afresh (derived quantities hold no readings).
  std::shared_ptr<const session_snapshot> resume;
  measurement_settings measurement;  // measurement models only: the core, the counters
  // Where the rounds run; null: this process's threads (`threads` of them). An MPI job passes
  // its executor here (docs/cluster.md), so the session loop is the same for both.
  std::shared_ptr<round_executor> executor;
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
  const stop_flag* interrupted = nullptr;
  // Called at each round boundary the session continues past (after the evaluation, before the
  // next round runs) with everything needed to resume from there (a checkpoint). Only such
  // boundaries are resumable bit-identically: a round cut short by a limit is not one. With it set,
  // a stream-style model whose streams cannot save() is refused at the start with input_error.
  std::function<void(session_snapshot)> on_snapshot;
};

struct session_result {
  std::vector<quantity_result> quantities;
  std::uint64_t replications = 0;
  std::size_t rounds = 0;
  unsigned threads = 0;                                  // the concurrency actually used
  stop_reason stopped_because = stop_reason::converged;  // never max_runs
  std::optional<std::string> error;  // a replication's failure, with index and seed to replay it
  std::chrono::system_clock::time_point start, end;
  std::shared_ptr<const engine> readings;  // every reading, for --raw
  // Measurement models: the core, clock calibration, batch and counters (null otherwise).
  std::shared_ptr<const measurement_record> measurement;
  bool all_required_converged() const;
};

// Runs the configured model until the engine stops it or a limit is reached. A replication that
// throws ends the session cleanly: stopped_because error, the readings of earlier replications
// kept. Throws only for a bug (or bad settings).
session_result run_session(const model& m, const model_spec& spec, const session_settings& settings,
                           const session_hooks& hooks = {});

}  // namespace mcpilot
