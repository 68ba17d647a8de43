// Limits honoured inside a round: max_seconds and the interrupt flag stop a round between
// replications (stream style: between pieces of a round), keep a prefix of the index range, and so
// leave a result that is a function of the seed and the number of readings. Also the runner's
// cancellation contract that this rests on.
#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "mcpilot/rng.hpp"
#include "mcpilot/runner.hpp"
#include "mcpilot/session.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;
using namespace std::chrono_literals;

// Normal(10, 2) readings, each taking `sleep` of wall time.
class slow_model : public model {
 public:
  explicit slow_model(std::chrono::milliseconds sleep) : sleep_(sleep) {}
  void declare(model_spec& s) const override { s.quantity("x"); }
  void replicate(replication& r) const override {
    std::this_thread::sleep_for(sleep_);
    boost::random::normal_distribution<double> d(10.0, 2.0);
    r.record(0, d(r.rng()));
  }

 private:
  std::chrono::milliseconds sleep_;
};

// Streams of Normal(5, 1) readings, each taking 1 ms.
class slow_stream_model : public model {
 public:
  void declare(model_spec& s) const override {
    s.stream_style();
    s.quantity("y");
  }
  std::unique_ptr<stream> open_stream(std::uint64_t) const override {
    struct st : stream {
      void advance(stream_round& round, std::size_t count) override {
        boost::random::normal_distribution<double> d(5.0, 1.0);
        for (std::size_t i = 0; i < count; ++i) {
          std::this_thread::sleep_for(1ms);
          round.record(0, d(round.rng()));
        }
      }
    };
    return std::make_unique<st>();
  }
};

// Replications 0..4 draw one normal reading; from index 5 on, a replication never ends by itself
// (a loss that never comes), drawing random numbers for ever.
class endless_model : public model {
 public:
  void declare(model_spec& s) const override { s.quantity("x"); }
  void replicate(replication& r) const override {
    boost::random::normal_distribution<double> d(10.0, 2.0);
    double x = d(r.rng());
    if (r.index() >= 5)
      while (x == x) x = d(r.rng());  // NaN never comes: only the limit ends it
    r.record(0, x);
  }
};

// A precision no session here reaches, so only the limits stop it.
session_settings unreachable(unsigned threads) {
  session_settings s;
  s.seed = 11;
  s.threads = threads;
  s.engine.session_precision = *preset("normal");
  s.engine.session_precision.ci_perc = 1e-6;
  return s;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A session of `m` on 2 threads that only max_seconds stops, and the wall time it took.
struct limited_run {
  session_result result;
  double took = 0;
};
limited_run run_limited(const model& m, const model_spec& spec, double max_seconds) {
  auto s = unreachable(2);
  s.max_seconds = max_seconds;
  const auto t0 = std::chrono::steady_clock::now();
  session_result r = run_session(m, spec, s);
  return {std::move(r), seconds_since(t0)};
}

TEST(Runner, CancelSkipsWhatIsNotStartedAndReportsTheRanPrefix) {
  const auto r = make_tbb_runner(2);
  std::atomic<bool> cancel{false};
  std::vector<std::atomic<int>> ran(10'000);
  const std::uint64_t k = r->run(
      0, ran.size(),
      [&](std::uint64_t i) {
        ran[i].store(1);
        if (i == 100) cancel.store(true);
      },
      &cancel);
  EXPECT_LT(k, ran.size());
  for (std::uint64_t i = 0; i < k; ++i) ASSERT_EQ(ran[i].load(), 1) << i;
  // Without a cancellation flag, everything runs.
  std::atomic<int> count{0};
  EXPECT_EQ(r->run(5, 105, [&](std::uint64_t) { ++count; }), 100u);
  EXPECT_EQ(count.load(), 100);
}

TEST(Runner, FailureInsideTheRanPrefixIsThrownOneBeyondItIsNot) {
  const auto r = make_tbb_runner(1);
  std::atomic<bool> cancel{false};
  // Cancelled at once: nothing runs, so a failure later in the range is not reached.
  cancel.store(true);
  EXPECT_EQ(r->run(
                0, 100,
                [](std::uint64_t i) {
                  if (i == 50) throw std::runtime_error("x");
                },
                &cancel),
            0u);
  cancel.store(false);
  try {
    r->run(
        0, 100,
        [](std::uint64_t i) {
          if (i == 50) throw std::runtime_error("x");
        },
        &cancel);
    FAIL() << "the failure at 50 lies inside the prefix and must be thrown";
  } catch (const task_failure& f) {
    EXPECT_EQ(f.index(), 50u);
  }
}

TEST(Runner, ATaskThatEndsItselfOnCancellationCountsAsNotRun) {
  for (const bool parallel : {false, true}) {
    SCOPED_TRACE(parallel ? "tbb, 1 thread" : "sequential");
    const auto r = parallel ? make_tbb_runner(1) : make_sequential_runner();
    std::atomic<bool> cancel{false};
    std::atomic<int> finished{0};
    const std::uint64_t k = r->run(
        0, 100,
        [&](std::uint64_t i) {
          if (i == 40) {
            cancel.store(true);
            throw task_cancelled{};
          }
          ++finished;
        },
        &cancel);
    // Index 40 neither ran nor failed: the prefix ends before it and nothing is thrown.
    EXPECT_EQ(k, 40u);
    EXPECT_EQ(finished.load(), 40);
  }
}

TEST(SessionLimits, ARandomStreamEndsItsReplicationOnceStopIsRequested) {
  std::atomic<bool> stop{false};
  philox_stream plain(3, 4), watched(3, 4);
  watched.stop_on(&stop);
  for (int i = 0; i < 9; ++i) ASSERT_EQ(watched(), plain());  // the same numbers until then
  stop.store(true);
  EXPECT_THROW(for (int i = 0; i < 4; ++i) watched(), task_cancelled);  // at the next block of four
  philox_stream unwatched(3, 4);
  unwatched.stop_on(nullptr);
  EXPECT_NO_THROW(for (int i = 0; i < 100; ++i) unwatched());
}

TEST(SessionLimits, MaxSecondsEndsAReplicationThatNeverFinishes) {
  // Issue 36: a replication that simulates for minutes (placement's lifetime scenario with a
  // million-hour MTTF ran 9 s per replication) held max_seconds = 0.2 up for its whole length.
  const endless_model m;
  model_spec spec;
  m.declare(spec);
  const auto [r, took] = run_limited(m, spec, 0.3);
  EXPECT_EQ(r.stopped_because, stop_reason::max_seconds);
  EXPECT_LT(took, 0.3 + 1.0);
  // The five that finish are kept; none of the cut ones is a reading.
  EXPECT_EQ(r.replications, 5u);
  EXPECT_FALSE(r.error.has_value());
}

TEST(SessionLimits, MaxSecondsStopsInsideTheFirstRoundAndKeepsAPrefix) {
  // The first round (100 replications of 20 ms on 2 threads) would take about 1 s.
  const slow_model m(20ms);
  model_spec spec;
  m.declare(spec);
  const auto [r, took] = run_limited(m, spec, 0.2);
  EXPECT_EQ(r.stopped_because, stop_reason::max_seconds);
  // Within max(1 s, 2 x the longest replication) of the limit; generous for a loaded machine.
  EXPECT_LT(took, 0.2 + 1.0);
  EXPECT_LT(r.replications, 100u);
  ASSERT_GT(r.replications, 0u);
  // The same number of readings without a time limit gives the same estimate: a prefix was kept.
  auto again = unreachable(1);
  again.max_replications = r.replications;
  const slow_model fast(0ms);
  const auto full = run_session(fast, spec, again);
  EXPECT_EQ(full.replications, r.replications);
  EXPECT_EQ(full.readings->readings(0).size(), r.readings->readings(0).size());
  for (std::size_t i = 0; i < r.replications; ++i)
    ASSERT_EQ(full.readings->readings(0)[i], r.readings->readings(0)[i]) << i;
}

TEST(SessionLimits, InterruptInsideTheFirstRoundStopsPromptly) {
  const slow_model m(20ms);
  model_spec spec;
  m.declare(spec);
  stop_flag interrupted;
  session_hooks hooks;
  hooks.interrupted = &interrupted;
  std::thread signaller([&] {
    std::this_thread::sleep_for(150ms);
    interrupted.raise();
  });
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = run_session(m, spec, unreachable(2), hooks);
  const double took = seconds_since(t0);
  signaller.join();
  EXPECT_EQ(r.stopped_because, stop_reason::interrupted);
  EXPECT_LT(took, 0.15 + 1.0);
  EXPECT_LT(r.replications, 100u);
  EXPECT_EQ(r.quantities[0].stats.n, r.replications);
}

TEST(SessionLimits, StreamRoundsAreCutBetweenPiecesEqually) {
  const slow_stream_model m;
  model_spec spec;
  m.declare(spec);
  auto s = unreachable(2);
  s.engine.streams = 3;
  // Long enough for the first round to end even under ThreadSanitizer on a loaded machine (100
  // readings of at least 1 ms a stream, 3 streams on 2 threads: at least 0.2 s, two streams'
  // worth in turn), so that the cut falls in a later round and keeps readings. At 0.3 s the third
  // stream had sometimes not finished its first piece under TSan, and every stream was cut to
  // nothing (2 of 5 runs, 2026-12-02).
  s.max_seconds = 1.0;
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = run_session(m, spec, s);
  EXPECT_EQ(r.stopped_because, stop_reason::max_seconds);
  EXPECT_LT(seconds_since(t0), 1.0 + 1.0) << "stopped " << r.stopped_because;
  const engine& e = *r.readings;
  const std::size_t n = e.stream_readings(0, 0).size();
  // More than the first round: the kept readings cross a round boundary and a cut piece.
  ASSERT_GT(n, 100u);
  for (std::size_t j = 0; j < e.streams(); ++j) {
    const auto& kept = e.stream_readings(j, 0);
    ASSERT_EQ(kept.size(), n) << "stream " << j;
    // The kept readings are the stream's first n, as one uninterrupted advance gives them.
    const auto fresh = m.open_stream(j);
    philox_stream rng(s.seed, stream_key(j));
    std::vector<std::vector<double>> out(1);
    stream_round round(spec, rng, j, out);
    fresh->advance(round, n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(kept[i], out[0][i]) << j << ":" << i;
  }
}

}  // namespace MCPILOT_TEST_FILE
