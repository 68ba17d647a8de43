// What the framework costs per replication, and how well two threads share the work.
//
//   perf_session_overhead --benchmark_counters_tabular=true
//
// - Empty model: a whole session of N replications whose model does (almost) nothing, so the time
//   per replication is the framework's: runner dispatch, the replication object and its RNG key,
//   storing the row, handing it to the engine, and the engine's re-analysis after each round.
// - 10 us model: the same session around 10 us of arithmetic, next to the same work in a bare
//   loop; the difference is the overhead a real model sees. Target: under 1% (100 ns).
// - 50 us model on 1 and 2 threads: parallel efficiency T1 / (2 T2). Target: at least 85%.
//
// The sessions cannot converge (the width asked for, 1e-5 of the mean, needs ~10^10 readings) so
// each runs exactly to max_replications, through the same rounds a real session makes.
// The work is a fixed amount of arithmetic, calibrated once, not a clock-driven spin: a spin would
// look perfectly parallel even when two threads share one core.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "mcpilot/engine.hpp"
#include "mcpilot/runner.hpp"
#include "mcpilot/session.hpp"

namespace {

using namespace mcpilot;
using clock_type = std::chrono::steady_clock;

// A cheap, well-mixed reading in [0, 1) from the replication index (splitmix64's finaliser), so
// that the engine sees varying readings without the model paying for the RNG.
double cheap_reading(std::uint64_t i) {
  std::uint64_t z = i + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

// A dependent chain of floating-point operations: it cannot be vectorised or skipped.
double arithmetic(std::uint64_t iterations, double x) {
  for (std::uint64_t k = 0; k < iterations; ++k) {
    x = x * 0.999999999 + 1e-9;
    benchmark::DoNotOptimize(x);
  }
  return x;
}

// Iterations of arithmetic() per microsecond on this machine, measured once (best of 5).
double iterations_per_us() {
  static const double rate = [] {
    const std::uint64_t n = 20'000'000;
    double best = 1e300;
    for (int rep = 0; rep < 5; ++rep) {
      const auto t0 = clock_type::now();
      benchmark::DoNotOptimize(arithmetic(n, 0.5));
      best =
          std::min(best, std::chrono::duration<double, std::micro>(clock_type::now() - t0).count());
    }
    return static_cast<double>(n) / best;
  }();
  return rate;
}

class work_model : public model {
 public:
  explicit work_model(double microseconds)
      : iterations_(
            microseconds > 0 ? static_cast<std::uint64_t>(microseconds * iterations_per_us()) : 0) {
  }
  void declare(model_spec& s) const override { s.quantity("x"); }
  void replicate(replication& r) const override {
    const double x = iterations_ ? arithmetic(iterations_, 0.5) : 0.0;
    r.record(std::size_t{0}, cheap_reading(r.index()) + 1e-300 * x);
  }

 private:
  std::uint64_t iterations_;
};

session_settings fixed_length(std::uint64_t replications, unsigned threads) {
  session_settings s;
  s.seed = 1;
  s.threads = threads;
  s.engine.session_precision = *preset("normal");
  s.engine.session_precision.ci_perc = 1e-5;
  s.max_replications = replications;
  s.max_seconds = 1e9;
  return s;
}

double run_fixed(const work_model& m, std::uint64_t replications, unsigned threads) {
  model_spec spec;
  m.declare(spec);
  const auto t0 = clock_type::now();
  const session_result r = run_session(m, spec, fixed_length(replications, threads));
  const double seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  if (r.replications != replications || r.stopped_because != stop_reason::max_replications)
    throw std::runtime_error("session stopped early: " + std::string(to_string(r.stopped_because)));
  return seconds;
}

struct process_usage {
  double user_s = 0, system_s = 0;
  long minor_faults = 0;
  static process_usage now() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const auto seconds = [](const timeval& t) { return t.tv_sec + 1e-6 * t.tv_usec; };
    return {seconds(u.ru_utime), seconds(u.ru_stime), u.ru_minflt};
  }
};

// args: microseconds of work per replication, replications per session, threads.
// Besides the wall time, the kernel's share: on a virtual machine a page fault (first touch of
// freshly allocated memory) can cost several microseconds, so the same code shows very different
// overheads from one machine, or one hour, to the next.
void session(benchmark::State& state) {
  const work_model m(static_cast<double>(state.range(0)));
  const auto n = static_cast<std::uint64_t>(state.range(1));
  const auto threads = static_cast<unsigned>(state.range(2));
  double total = 0;
  const process_usage u0 = process_usage::now();
  for (auto _ : state) {
    const double seconds = run_fixed(m, n, threads);
    state.SetIterationTime(seconds);
    total += seconds;
  }
  const process_usage u1 = process_usage::now();
  const double reps = static_cast<double>(state.iterations()) * static_cast<double>(n);
  state.counters["ns_per_replication"] = total * 1e9 / reps;
  state.counters["user_ns"] = (u1.user_s - u0.user_s) * 1e9 / reps;
  state.counters["system_ns"] = (u1.system_s - u0.system_s) * 1e9 / reps;
  state.counters["faults_per_1k"] =
      static_cast<double>(u1.minor_faults - u0.minor_faults) * 1e3 / reps;
  state.counters["threads"] = static_cast<double>(threads);
}
BENCHMARK(session)
    ->ArgNames({"us", "n", "threads"})
    ->Args({0, 1 << 20, 1})
    ->Args({0, 1 << 20, 2})
    ->Args({10, 50'000, 1})
    ->Args({50, 10'000, 1})
    ->Args({50, 10'000, 2})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// The same work in a bare loop, with the replication object the model needs but nothing else.
void bare_loop(benchmark::State& state) {
  const work_model m(static_cast<double>(state.range(0)));
  model_spec spec;
  m.declare(spec);
  const auto n = static_cast<std::uint64_t>(state.range(1));
  std::vector<double> row(1);
  double total = 0;
  for (auto _ : state) {
    const auto t0 = clock_type::now();
    for (std::uint64_t i = 0; i < n; ++i) {
      replication r(spec, 1, i, row);
      m.replicate(r);
      benchmark::DoNotOptimize(row[0]);
    }
    const double seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
    state.SetIterationTime(seconds);
    total += seconds;
  }
  state.counters["ns_per_replication"] =
      total * 1e9 / (static_cast<double>(state.iterations()) * static_cast<double>(n));
}
BENCHMARK(bare_loop)
    ->ArgNames({"us", "n"})
    ->Args({10, 50'000})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// Parallel efficiency T1 / (2 T2) for 50 us replications, with 1- and 2-thread sessions
// alternated so that a change in the machine's load hits both alike; the best of each is kept.
void parallel_efficiency(benchmark::State& state) {
  const work_model m(50);
  const std::uint64_t n = 10'000;
  double t1 = 1e300, t2 = 1e300;
  for (auto _ : state) {
    t1 = std::min(t1, run_fixed(m, n, 1));
    t2 = std::min(t2, run_fixed(m, n, 2));
  }
  state.counters["t1_s"] = t1;
  state.counters["t2_s"] = t2;
  state.counters["efficiency"] = t1 / (2 * t2);
}
BENCHMARK(parallel_efficiency)->Iterations(5)->Unit(benchmark::kMillisecond);

// Where the empty model's time goes, in three parts. (a) The runner path alone: dispatch through
// the runner, the replication object with its RNG key, the model call, the row stored by index.
void runner_path(benchmark::State& state) {
  const work_model m(0);
  model_spec spec;
  m.declare(spec);
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const auto r = make_tbb_runner(1);
  std::vector<double> rows(n);
  for (auto _ : state) {
    r->run(0, n, [&](std::uint64_t i) {
      replication rep(spec, 1, i, std::span<double>(rows.data() + i, 1));
      m.replicate(rep);
    });
    benchmark::DoNotOptimize(rows.data());
  }
  state.counters["ns_per_replication"] = benchmark::Counter(
      static_cast<double>(n) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(runner_path)->ArgNames({"n"})->Arg(1 << 20)->Unit(benchmark::kMillisecond);

// (b) Handing n rows to a fresh engine as a session does: rounds growing x5 (100, 400, 2000, ...),
// the storage reserved once per round, each round's rows added in one call.
void engine_add(benchmark::State& state) {
  const work_model m(0);
  model_spec spec;
  m.declare(spec);
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const session_settings s = fixed_length(n, 1);
  std::vector<double> rows(n);
  for (std::uint64_t i = 0; i < n; ++i) rows[i] = cheap_reading(i);
  for (auto _ : state) {
    engine e(spec, s.engine);
    for (std::uint64_t done = 0, count = 100; done < n; done += count, count = 4 * done) {
      count = std::min(count, n - done);
      e.reserve(done + count);
      e.add_replications(std::span<const double>(rows.data() + done, count));
    }
    benchmark::DoNotOptimize(e.replications());
  }
  state.counters["ns_per_replication"] = benchmark::Counter(
      static_cast<double>(n) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(engine_add)->ArgNames({"n"})->Arg(1 << 20)->Unit(benchmark::kMillisecond);

// (c) One evaluation of an engine holding n readings: what each round costs. A fixed-length
// session of 2^20 replications evaluates after 0, 100, 500, 2500, 12500, 62500, 312500 and 2^20
// readings, about 1.4 x 2^20 readings analysed in all.
void engine_evaluate(benchmark::State& state) {
  const work_model m(0);
  model_spec spec;
  m.declare(spec);
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const session_settings s = fixed_length(n, 1);
  engine e(spec, s.engine);
  for (std::uint64_t i = 0; i < n; ++i) {
    const double row = cheap_reading(i);
    e.add_replication(std::span<const double>(&row, 1));
  }
  for (auto _ : state) benchmark::DoNotOptimize(e.evaluate());
  state.counters["ns_per_reading"] = benchmark::Counter(
      static_cast<double>(n) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(engine_evaluate)->ArgNames({"n"})->Arg(1 << 20)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
