#include "mcpilot/session.hpp"

#include "mcpilot/error.hpp"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <sstream>
#include <thread>

#include "mcpilot/measure/measurement.hpp"

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
     << ") failed: " << f.what() << "; replay it alone with the same seed and "
     << (stream_style ? "stream" : "replication") << " index";
  return os.str();
}

// A reading the quantity's kind cannot take is the model's error; caught here, inside the task,
// it names the replication (or stream) that produced it instead of surfacing later in the
// analysis without one.
void check_reading(const quantity_spec& q, double v) {
  const bool ok = std::isfinite(v) && (q.kind != quantity_kind::rate || v > 0) &&
                  (q.kind != quantity_kind::proportion || v == 0 || v == 1);
  if (!ok) {
    std::ostringstream os;
    os << "quantity " << q.name << " (" << to_string(q.kind) << ") got the reading " << v;
    throw std::runtime_error(os.str());
  }
}

// Runs replications [begin, begin + count) into `rows`, stored by index, so the order in which
// threads finish does not matter. Returns how many replications from `begin` on ran (fewer than
// `count` only when `cut` was raised). Throws task_failure naming the lowest failing replication.
std::uint64_t run_replications(runner& r, const model& m, const model_spec& spec,
                               std::uint64_t seed, std::uint64_t begin, std::uint64_t count,
                               std::vector<double>& rows, const std::atomic<bool>& cut) {
  const std::size_t width = spec.quantities().size();
  rows.assign(count * width, std::numeric_limits<double>::quiet_NaN());
  return r.run(
      begin, begin + count,
      [&](std::uint64_t i) {
        std::span<double> row(rows.data() + (i - begin) * width, width);
        replication rep(spec, seed, i, row);
        m.replicate(rep);
        for (std::size_t q = 0; q < width; ++q) {
          const quantity_spec& qs = spec.quantities()[q];
          if (qs.derived()) continue;
          if (std::isnan(row[q]))
            throw std::runtime_error("no reading recorded for quantity " + qs.name);
          check_reading(qs, row[q]);
        }
      },
      &cut);
}

// Raises `cut` when max_seconds has passed or the interrupt flag is set, so that a round stops
// starting replications (or stream pieces) within moments of either, not only between rounds.
// A thread of its own, because reading the clock in every replication would cost more than the
// framework's whole per-replication overhead.
class limit_watch {
 public:
  limit_watch(clock_type::time_point deadline, const std::atomic<bool>* interrupted)
      : thread_([this, deadline, interrupted] {
          std::unique_lock lock(mutex_);
          while (!done_) {
            if (clock_type::now() >= deadline) {
              cut_.store(true);
              cut_by_time_.store(true);
              return;
            }
            if (interrupted && interrupted->load()) {
              cut_.store(true);
              return;
            }
            // A signal handler cannot notify a condition variable: poll the flag often.
            wake_.wait_until(lock, std::min(deadline, clock_type::now() + poll));
          }
        }) {}
  ~limit_watch() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  limit_watch(const limit_watch&) = delete;
  limit_watch& operator=(const limit_watch&) = delete;

  const std::atomic<bool>& cut() const { return cut_; }
  bool cut_by_time() const { return cut_by_time_.load(); }

 private:
  static constexpr std::chrono::milliseconds poll{20};
  std::atomic<bool> cut_{false}, cut_by_time_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;  // last: started once the members it uses exist
};

struct stream_slot {
  std::unique_ptr<stream> state;
  philox_stream rng;
  std::vector<std::vector<double>> fresh;  // this round's readings, per quantity
};

// Everything a checkpoint needs to continue this session; copies the readings.
session_snapshot snapshot(const model_spec& spec, const engine& eng,
                          const std::vector<stream_slot>& streams, std::size_t rounds) {
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

// A stream round is advanced in this many pieces, so a limit can stop it between pieces.
constexpr std::uint64_t stream_pieces = 8;

constexpr std::uint64_t chunk_bytes = 1 << 20;

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
  const auto runner = measuring ? make_sequential_runner() : make_tbb_runner(settings.threads);
  result.threads = runner->concurrency();
  const std::size_t width = spec.quantities().size();

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
  const auto deadline = settings.max_seconds >= 1e9
                            ? clock_type::time_point::max()
                            : t0 + std::chrono::ceil<clock_type::duration>(
                                       std::chrono::duration<double>(settings.max_seconds));
  limit_watch watch(deadline, hooks.interrupted);
  double seconds_per_unit = 0;  // measured cost of one replication (or one reading per stream)
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
    if (hooks.on_snapshot) hooks.on_snapshot(snapshot(spec, *eng, streams, result.rounds));
    if (hooks.interrupted && hooks.interrupted->load()) {
      result.stopped_because = "interrupted";
      break;
    }
    if (elapsed >= settings.max_seconds) {
      result.stopped_because = "max_seconds";
      break;
    }
    const std::uint64_t done = eng->replications();
    if (done >= settings.max_replications) {
      result.stopped_because = "max_replications";
      break;
    }
    std::uint64_t count = d.count;
    if (eng->stream_style())
      count = std::min<std::uint64_t>(
          count, (settings.max_replications - done + streams.size() - 1) / streams.size());
    else
      count = std::min(count, settings.max_replications - done);
    // Keep a round inside the time that is left; this alone makes a session clock-dependent, and
    // only when max_seconds binds.
    if (seconds_per_unit > 0) {
      const double left = settings.max_seconds - elapsed;
      const double fit = left / seconds_per_unit;
      if (fit < static_cast<double>(count))
        count = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(fit));
    }

    const auto r0 = clock_type::now();
    std::uint64_t chunk_begin = done;
    bool cut_short = false;
    try {
      if (!eng->stream_style()) {
        // In chunks, so the row buffer is reused while still in cache rather than grown to a
        // whole round (up to 4x the readings so far) and paged in afresh every round.
        const std::uint64_t chunk = std::max<std::uint64_t>(1, chunk_bytes / (8 * width));
        eng->reserve(done + count);
        for (std::uint64_t b = 0; b < count && !cut_short; b += chunk) {
          chunk_begin = done + b;
          const std::uint64_t asked = std::min(chunk, count - b);
          const std::uint64_t ran = run_replications(*runner, m, spec, settings.seed, chunk_begin,
                                                     asked, rows, watch.cut());
          // A cut keeps a prefix of the index range: the result is still a function of the
          // seed and the number of readings.
          eng->add_replications(std::span<const double>(rows.data(), ran * width));
          cut_short = ran < asked || watch.cut().load();
        }
      } else {
        // In pieces, every stream advanced by the same amount per piece; a stream advanced in
        // pieces gives the same readings as in one call (the SDK asks that of advance()).
        const std::uint64_t piece =
            std::max<std::uint64_t>(1, (count + stream_pieces - 1) / stream_pieces);
        for (auto& s : streams) s.fresh.assign(width, {});
        runner->run(0, streams.size(), [&](std::uint64_t j) {
          stream_slot& s = streams[j];
          for (std::uint64_t a = 0; a < count; a += piece) {
            if (watch.cut().load(std::memory_order_relaxed)) break;
            stream_round round(spec, s.rng, j, s.fresh);
            s.state->advance(round, std::min(piece, count - a));
          }
          for (std::size_t q = 0; q < width; ++q)
            for (double v : s.fresh[q]) check_reading(spec.quantities()[q], v);
        });
        // Streams cut at different pieces keep only what every stream has.
        std::size_t common = std::numeric_limits<std::size_t>::max();
        for (const auto& s : streams)
          for (std::size_t q = 0; q < width; ++q)
            if (!spec.quantities()[q].derived()) common = std::min(common, s.fresh[q].size());
        for (std::size_t j = 0; j < streams.size(); ++j)
          for (std::size_t q = 0; q < width; ++q) {
            auto& v = streams[j].fresh[q];
            if (v.size() > common) v.resize(common);
            eng->add_stream_readings(j, q, v);
          }
        cut_short = watch.cut().load();
      }
    } catch (const task_failure& f) {
      // Keep what came before the failing replication: it is the same on every run.
      if (!eng->stream_style())
        eng->add_replications(
            std::span<const double>(rows.data(), (f.index() - chunk_begin) * width));
      result.error = failure_message(f, settings.seed, eng->stream_style());
      result.stopped_because = "error";
      eng->evaluate();
      break;
    }
    // A cut round goes back to the top: evaluated with what it kept, then stopped by the same
    // checks of the interrupt flag and the clock as between rounds.
    if (cut_short) continue;
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
