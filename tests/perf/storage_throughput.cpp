// storage.group throughput: replications per second for a RAID-6 group (10 disks, tolerance 2,
// MTTF 1e6 h, MTTR 24 h) by the naive and the importance method, and the wall time of a whole
// session to +-10% on the rare-event target. Results in docs/performance-storage.md.
//
//   build/tests/perf_storage_throughput --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <limits>
#include <memory>
#include <vector>

#include "mcpilot/session.hpp"
#include "storage/group_simulation.hpp"
#include "storage/importance.hpp"
#include "storage/storage_model.hpp"

namespace {

using namespace mcpilot;

struct configured {
  storage::storage_model model;
  model_spec spec;
};

std::unique_ptr<configured> raid6(const std::string& method, double mttf = 1e6,
                                  bool mission = true) {
  auto c = std::make_unique<configured>();
  model_spec base;
  c->model.declare(base);
  parameters p;
  for (const auto& s : base.parameter_specs())
    if (s.default_value) p.set(s.name, *s.default_value);
  p.set("method", method);
  p.set("lifetime.mean_hours", mttf);
  if (mission) p.set("mission_hours", 87600.0);
  c->model.configure(p);
  c->model.declare(c->spec);
  return c;
}

// One replication of the model as the runner calls it, index by index.
void replicate(benchmark::State& state, const configured& c) {
  std::vector<double> row(c.spec.quantities().size());
  std::uint64_t i = 0;
  for (auto _ : state) {
    replication r(c.spec, 1, i++, row);
    c.model.replicate(r);
    benchmark::DoNotOptimize(row.data());
  }
  state.counters["replications/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// Naive at the target: each replication simulates the group to its data loss, ~2.4e12 h and
// ~2.4e7 failures later. A few iterations only.
void BM_NaiveRaid6Target(benchmark::State& state) {
  replicate(state, *raid6("naive"));
}
BENCHMARK(BM_NaiveRaid6Target)->Iterations(4)->Unit(benchmark::kSecond);

// Naive, the 10-year mission alone (what a mission-only naive estimate would cost per reading).
void BM_NaiveRaid6MissionOnly(benchmark::State& state) {
  const auto c = raid6("naive");
  std::uint64_t i = 0;
  for (auto _ : state) {
    philox_stream rng(1, i++);
    benchmark::DoNotOptimize(storage::simulate_group(c->model.group(), rng, 87600.0));
  }
  state.counters["replications/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_NaiveRaid6MissionOnly);

// Naive on a RAID-6 where loss is not rare (MTTF 1e4 h): about 50 failures per replication.
void BM_NaiveRaid6Mttf1e4(benchmark::State& state) {
  replicate(state, *raid6("naive", 1e4, false));
}
BENCHMARK(BM_NaiveRaid6Mttf1e4);

// Importance: an ordinary cycle, a biased cycle and a biased 10-year mission per replication.
void BM_ImportanceRaid6Target(benchmark::State& state) {
  replicate(state, *raid6("importance"));
}
BENCHMARK(BM_ImportanceRaid6Target);

// A whole session on the target, +-10% (whole width 20%) at 95% for both quantities, 2 threads.
void BM_SessionTargetTenPercent(benchmark::State& state) {
  const auto c = raid6("importance");
  std::uint64_t seed = 1, replications = 0;
  for (auto _ : state) {
    session_settings s;
    s.seed = seed++;
    s.threads = 2;
    s.engine.session_precision = *preset("normal");
    s.engine.session_precision.ci_perc = 0.2;
    const auto r = run_session(c->model, c->spec, s);
    replications += r.replications;
    if (r.stopped_because != "converged") state.SkipWithError("did not converge");
  }
  state.counters["replications"] =
      static_cast<double>(replications) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_SessionTargetTenPercent)->Iterations(20)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
