// What measurement mode costs, inside and outside the timed region.
//
//   perf_measure_overhead
//
// - clock_read: one steady_clock::now(), the cost that falls inside every reading (one of the two
//   reads); calibrate_clock() measures the same thing once per session.
// - calibrate_clock: the session's one-off calibration (5 ms of spinning by default, 1 ms here).
// - empty_reading: one reading of a workload whose prepare, timed and check do nothing, through
//   the measurement stream: everything the framework does per reading (the virtual calls, the
//   guard, two clock reads, recording the quantities). Of that, only one clock read lies inside
//   the timed region; the rest is outside it and costs wall time, not accuracy.
// - empty_reading_with_counters: the same with the task-clock counter group (two ioctls and one
//   read() per reading, all outside the clock reads).
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <vector>

#include "mcpilot/measure/clock.hpp"
#include "mcpilot/measure/measurement.hpp"

namespace {

using namespace mcpilot;

class empty_workload final : public workload {
 public:
  void prepare(measurement_batch&) override {}
  void timed(std::size_t count) override { keep_alive(count); }
  void check(measurement_batch&) override {}
};

class empty_model final : public model {
 public:
  void declare(model_spec& s) const override { s.measurement("op").fixed_batch(1); }
  std::unique_ptr<workload> open_workload() const override {
    return std::make_unique<empty_workload>();
  }
};

void clock_read(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(measurement_clock::now());
}
BENCHMARK(clock_read);

void calibrate(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(calibrate_clock(1e6));
}
BENCHMARK(calibrate)->Unit(benchmark::kMillisecond);

void empty_reading(benchmark::State& state, std::vector<std::string> counters) {
  empty_model m;
  model_spec spec;
  m.declare(spec);
  const auto status = probe_counters(counters);
  declare_measurement_quantities(spec, status);
  measurement_settings settings;
  settings.counters = counters;
  measurement_session session(m, spec, settings);
  auto stream = session.open_stream();
  std::vector<std::vector<double>> out(spec.quantities().size());
  philox_stream rng(1, stream_key(0));
  stream_round round(spec, rng, 0, out);
  for (auto _ : state) {
    stream->advance(round, 1);
    if (out[0].size() > 4096)
      for (auto& v : out) v.clear();
  }
  state.counters["ns_recorded_per_op"] = out[0].empty() ? 0 : out[0].back();
}
BENCHMARK_CAPTURE(empty_reading, no_counters, std::vector<std::string>{});
BENCHMARK_CAPTURE(empty_reading, task_clock, std::vector<std::string>{"task-clock"});

}  // namespace

BENCHMARK_MAIN();
