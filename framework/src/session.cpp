#include "mcpilot/session.hpp"

#include "mcpilot/error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "limit_watch.hpp"
#include "mcpilot/measure/measurement.hpp"
#include "mcpilot/round_executor.hpp"
#include "round_tasks.hpp"

namespace mcpilot {

bool session_result::all_required_converged() const {
  for (const auto& q : quantities)
    if (q.required && !q.stats.converged) return false;
  return true;
}

namespace {

using clock_type = std::chrono::steady_clock;

std::string failure_message(const task_failure& f, std::uint64_t seed, bool stream_style) {
  std::ostringstream os;
  os << (stream_style ? "stream " : "replication ") << f.index() << " (seed " << seed
     << ") failed: " << f.what() << "; replay it alone on one thread (under a debugger): the same "
     << "command with --replay " << f.index() << " (docs/cli.md, \"Replaying one replication\")";
  return os.str();
}

// Everything a checkpoint needs to continue this session; copies the readings.
session_snapshot snapshot(const model_spec& spec, const engine& eng,
                          const std::vector<stream_slot>& streams, std::size_t rounds,
                          round_executor& exec) {
  session_snapshot s;
  s.rounds = rounds;
  const std::size_t width = spec.quantities().size();
  if (!eng.stream_style()) {
    s.readings.resize(width);
    for (std::size_t q = 0; q < width; ++q)
      if (!spec.quantities()[q].derived()) s.readings[q] = eng.readings(q);
    return s;
  }
  for (std::size_t j = 0; j < streams.size(); ++j) {
    s.stream_readings.emplace_back(width);
    for (std::size_t q = 0; q < width; ++q)
      if (!spec.quantities()[q].derived()) s.stream_readings[j][q] = eng.stream_readings(j, q);
    s.stream_drawn.push_back(streams[j].rng.drawn());
    s.stream_states.push_back(streams[j].state->save().value_or(std::string()));
  }
  exec.stream_states(s.stream_drawn, s.stream_states);  // streams kept by other processes
  return s;
}

// The inverse: readings back into the engine, streams to where they were.
void restore(const session_snapshot& s, const model_spec& spec, engine& eng,
             std::vector<stream_slot>& streams, std::size_t& rounds) {
  const std::size_t width = spec.quantities().size();
  auto mismatch = [] {
    throw input_error("--resume: the checkpoint does not match this model's quantities or streams");
  };
  // The snapshot was taken right after round `rounds` was evaluated; the resumed session evaluates
  // the same readings once more as that round, reaching the same decision.
  rounds = s.rounds > 0 ? s.rounds - 1 : 0;
  if (!eng.stream_style()) {
    if (s.readings.size() != width) mismatch();
    std::size_t n = 0;
    for (std::size_t q = 0; q < width; ++q)
      if (!spec.quantities()[q].derived()) n = s.readings[q].size();
    std::vector<double> rows(n * width, 0.0);
    for (std::size_t q = 0; q < width; ++q) {
      if (spec.quantities()[q].derived()) continue;
      if (s.readings[q].size() != n) mismatch();
      for (std::size_t i = 0; i < n; ++i) rows[i * width + q] = s.readings[q][i];
    }
    eng.add_replications(rows);
    return;
  }
  if (s.stream_readings.size() != streams.size() || s.stream_drawn.size() != streams.size() ||
      s.stream_states.size() != streams.size())
    mismatch();
  for (std::size_t j = 0; j < streams.size(); ++j) {
    if (s.stream_readings[j].size() != width) mismatch();
    for (std::size_t q = 0; q < width; ++q) eng.add_stream_readings(j, q, s.stream_readings[j][q]);
    streams[j].rng.seek(s.stream_drawn[j]);
    streams[j].state->restore(s.stream_states[j]);
  }
}

constexpr std::uint64_t chunk_bytes = 1 << 20;

// How many replications (per stream, in stream style) the next round runs: what the engine asked
// for, within max_replications, and within the time that is left at the cost measured so far
// (this alone makes a session clock-dependent, and only when max_seconds binds).
std::uint64_t round_size(const decision& d, const engine& eng, std::size_t streams,
                         const session_settings& settings, double elapsed,
                         double seconds_per_unit) {
  const std::uint64_t done = eng.replications();
  std::uint64_t count = d.count;
  if (eng.stream_style())
    count =
        std::min<std::uint64_t>(count, (settings.max_replications - done + streams - 1) / streams);
  else
    count = std::min(count, settings.max_replications - done);
  if (seconds_per_unit > 0) {
    const double fit = (settings.max_seconds - elapsed) / seconds_per_unit;
    if (fit < static_cast<double>(count))
      count = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(fit));
  }
  return count;
}

// One round of `count` replications from the engine's next index, in chunks, so the row buffer
// is reused while still in cache rather than grown to a whole round (up to 4x the readings so
// far) and paged in afresh every round. Returns whether a limit cut it short. A cut keeps a prefix
// of the index range, so the result is still a function of the seed and the number of readings.
// When a replication fails, the readings before it (the same on every run) are kept and the
// failure is passed on.
bool replication_round(const model& m, const model_spec& spec, const session_settings& settings,
                       engine& eng, round_executor& exec, limit_watch& watch, std::uint64_t count,
                       std::vector<double>& rows) {
  const std::size_t width = spec.quantities().size();
  const std::uint64_t done = eng.replications();
  const std::uint64_t chunk = exec.chunk(std::max<std::uint64_t>(1, chunk_bytes / (8 * width)));
  eng.reserve(done + count);
  for (std::uint64_t b = 0; b < count; b += chunk) {
    const std::uint64_t begin = done + b, asked = std::min(chunk, count - b);
    rows.assign(asked * width, std::numeric_limits<double>::quiet_NaN());
    std::uint64_t ran = 0;
    try {
      ran = exec.replications(begin, asked, width,
                              replication_task(m, spec, settings.seed, begin, rows, &watch.cut()),
                              rows, watch.cut());
    } catch (const task_failure& f) {
      eng.add_replications(std::span<const double>(rows.data(), (f.index() - begin) * width));
      throw;
    }
    eng.add_replications(std::span<const double>(rows.data(), ran * width));
    if (ran < asked || watch.cut().load()) return true;
  }
  return false;
}

// One round of `count` readings from every stream. Streams cut at different pieces keep only
// what every stream has. Returns whether a limit cut it short.
bool streams_round(const model_spec& spec, engine& eng, round_executor& exec,
                   std::vector<stream_slot>& streams, limit_watch& watch, std::uint64_t count) {
  const std::size_t width = spec.quantities().size();
  for (auto& s : streams) s.fresh.assign(width, {});
  exec.advance_streams(
      streams.size(), count, stream_task(spec, streams, count, watch.cut()),
      [&](std::size_t j) -> std::vector<std::vector<double>>& { return streams[j].fresh; });
  std::size_t common = std::numeric_limits<std::size_t>::max();
  for (const auto& s : streams)
    for (std::size_t q = 0; q < width; ++q)
      if (!spec.quantities()[q].derived()) common = std::min(common, s.fresh[q].size());
  for (std::size_t j = 0; j < streams.size(); ++j)
    for (std::size_t q = 0; q < width; ++q) {
      auto& v = streams[j].fresh[q];
      if (v.size() > common) v.resize(common);
      eng.add_stream_readings(j, q, v);
    }
  return watch.cut().load();
}

}  // namespace

session_result run_session(const model& m, const model_spec& spec, const session_settings& settings,
                           const session_hooks& hooks) {
  session_result result;
  result.start = std::chrono::system_clock::now();
  const auto t0 = clock_type::now();
  engine_options engine_settings = settings.engine;
  engine_settings.budget = settings.max_replications;
  // Measurement mode: one pinned thread, one stream of readings in time order (measure/).
  std::unique_ptr<measurement_session> measuring;
  if (spec.is_measurement()) {
    measuring = std::make_unique<measurement_session>(m, spec, settings.measurement);
    engine_settings.streams = 1;
  }
  auto eng = std::make_shared<engine>(spec, engine_settings);
  // Where the rounds run: given by the caller (an MPI job), or this process's threads.
  std::shared_ptr<round_executor> exec = settings.executor;
  if (!exec)
    exec = make_local_executor(measuring ? make_sequential_runner()
                                         : make_tbb_runner(settings.threads));
  result.threads = exec->concurrency();

  std::vector<stream_slot> streams;
  if (eng->stream_style()) {
    for (std::size_t j = 0; j < eng->streams(); ++j) {
      streams.push_back({nullptr, philox_stream(settings.seed, stream_key(j)), {}});
      streams.back().state = measuring ? measuring->open_stream() : m.open_stream(j);
    }
    if (hooks.on_snapshot && !streams.empty() && !streams.front().state->save())
      throw input_error(
          "--checkpoint: this model's streams cannot save their state (stream::save), so its "
          "sessions cannot be checkpointed or resumed");
  }
  if (settings.resume) restore(*settings.resume, spec, *eng, streams, result.rounds);

  std::vector<double> rows;
  limit_watch watch(limit_watch::deadline(t0, settings.max_seconds), hooks.interrupted);
  double seconds_per_unit = 0;  // measured cost of one replication (or one reading per stream)
  bool cut_before = false;      // the last round was cut short by a limit or an interrupt
  while (true) {
    const decision d = eng->evaluate();
    ++result.rounds;
    const double elapsed = std::chrono::duration<double>(clock_type::now() - t0).count();
    if (hooks.on_round)
      hooks.on_round({result.rounds, eng->replications(), elapsed, &eng->results(),
                      d.stop ? 0 : d.count, eng->stream_style() ? eng->streams() : 0});
    if (d.stop) {
      result.stopped_because = d.reason;
      break;
    }
    // Only a whole round's end is resumable bit-identically: after a cut round the session is
    // stopping anyway, and the checkpoint keeps the last whole boundary.
    if (hooks.on_snapshot && !cut_before)
      hooks.on_snapshot(snapshot(spec, *eng, streams, result.rounds, *exec));
    if (hooks.interrupted && hooks.interrupted->raised()) {
      result.stopped_because = stop_reason::interrupted;
      break;
    }
    if (elapsed >= settings.max_seconds) {
      result.stopped_because = stop_reason::max_seconds;
      break;
    }
    if (eng->replications() >= settings.max_replications) {
      result.stopped_because = stop_reason::max_replications;
      break;
    }
    const std::uint64_t count =
        round_size(d, *eng, streams.size(), settings, elapsed, seconds_per_unit);
    const auto r0 = clock_type::now();
    bool cut_short = false;
    try {
      cut_short = eng->stream_style()
                      ? streams_round(spec, *eng, *exec, streams, watch, count)
                      : replication_round(m, spec, settings, *eng, *exec, watch, count, rows);
    } catch (const task_failure& f) {
      result.error = failure_message(f, settings.seed, eng->stream_style());
      result.stopped_because = stop_reason::error;
      eng->evaluate();
      break;
    }
    // A cut round goes back to the top: evaluated with what it kept, then stopped by the same
    // checks of the interrupt flag and the clock as between rounds.
    if (cut_short) {
      cut_before = true;
      continue;
    }
    const double round_seconds = std::chrono::duration<double>(clock_type::now() - r0).count();
    seconds_per_unit = round_seconds / static_cast<double>(count);
  }
  result.quantities = eng->results();
  result.replications = eng->replications();
  result.end = std::chrono::system_clock::now();
  result.readings = eng;
  if (measuring) result.measurement = measuring->record();
  return result;
}

}  // namespace mcpilot
