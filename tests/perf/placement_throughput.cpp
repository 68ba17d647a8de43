// placement.design throughput: replications per second for the failed and lifetime scenarios on
// PG(2,3) and STS(99), and what the exact counts cost at configure() (first call, then cached).
// Results in docs/performance.md ("Performance of placement.design").
//
//   build/tests/perf_placement_throughput --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <boost/random/uniform_int_distribution.hpp>

#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "mcpilot/model.hpp"
#include "placement/constructions.hpp"
#include "placement/failure_counts.hpp"
#include "placement/placement_model.hpp"
#include "replication_rate.hpp"

namespace {

using namespace mcpilot;

using configured = test::configured<placement::placement_model>;

using setting = std::pair<const char*, param_value>;

std::int64_t i64(int x) {
  return x;
}

// A configured model: `design`, its size (order for pg2, devices otherwise), and more values.
std::unique_ptr<configured> with(const char* design, std::int64_t size_value,
                                 const std::vector<setting>& more) {
  std::vector<setting> all = {{"design", std::string(design)},
                              {std::string(design) == "pg2" ? "order" : "devices", size_value}};
  all.insert(all.end(), more.begin(), more.end());
  return test::make_configured<placement::placement_model>({all.begin(), all.end()});
}

void replicate(benchmark::State& state, const configured& c) {
  test::replication_rate(state, c.model, c.spec);
}

// Baseline for ratios on a loaded machine: a new replication's Philox stream and 5 uniform
// integer draws, the least any failed-scenario replication with 5 failed must do.
void BM_BaselineStreamAndFiveDraws(benchmark::State& state) {
  std::uint64_t i = 0;
  for (auto _ : state) {
    philox_stream rng(1, i++);
    int sum = 0;
    for (int d = 0; d < 5; ++d) sum += boost::random::uniform_int_distribution<int>(d, 98)(rng);
    benchmark::DoNotOptimize(sum);
  }
  state.counters["replications/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BaselineStreamAndFiveDraws);

// failed: 4 of 13 (t = 2) and 5 of 99 (t = 2).
void BM_FailedPg23(benchmark::State& state) {
  replicate(state, *with("pg2", 3, {{"tolerance", i64(2)}, {"failed", i64(4)}}));
}
BENCHMARK(BM_FailedPg23);

void BM_FailedSts99(benchmark::State& state) {
  replicate(state, *with("sts", 99, {{"tolerance", i64(2)}, {"failed", i64(5)}}));
}
BENCHMARK(BM_FailedSts99);

// lifetime: MTTF 10^5 h, repair 24 h plus a declustered rebuild of 10 TB at 100 MB/s per device;
// t = 1, each replication simulated to the first loss (in both designs any two devices down
// together lose data, as every pair shares a group).
std::vector<setting> lifetime_settings() {
  return {{"tolerance", i64(1)},       {"scenario", std::string("lifetime")},
          {"mission_hours", 87600.0},  {"lifetime.mean_hours", 1e5},
          {"repair.mean_hours", 24.0}, {"rebuild.device_bytes", 1e13}};
}

void BM_LifetimePg23(benchmark::State& state) {
  replicate(state, *with("pg2", 3, lifetime_settings()));
}
BENCHMARK(BM_LifetimePg23);

void BM_LifetimeSts99(benchmark::State& state) {
  replicate(state, *with("sts", 99, lifetime_settings()));
}
BENCHMARK(BM_LifetimeSts99);

// The same lifetime on PG(2,3) estimated by importance sampling (failure biasing on the walk of
// failed devices, lifetime_walk.cpp), with repairs of 24 h and no rebuild time: a reading is one
// mission, a few short walks from all up.
void BM_ImportanceLifetimePg23(benchmark::State& state) {
  auto settings = lifetime_settings();
  for (auto& [name, value] : settings)  // memoryless repairs, as importance needs
    if (std::string(name) == "rebuild.device_bytes") value = 0.0;
  settings.emplace_back("method", std::string("importance"));
  replicate(state, *with("pg2", 3, settings));
}
BENCHMARK(BM_ImportanceLifetimePg23);

// The exact count behind `analytic` for STS(99), 4 failed, t = 2: its first computation (the
// counting work is about 1e8 group updates), then configure() again with the answer cached.
void BM_CountSts99Failed4First(benchmark::State& state) {
  const auto l = placement::steiner_triple_system(99);
  for (auto _ : state) benchmark::DoNotOptimize(placement::loss_given_failed(l, 2, 4));
}
BENCHMARK(BM_CountSts99Failed4First)->Iterations(1)->Unit(benchmark::kMillisecond);

void BM_ConfigureSts99Failed4Cached(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(with("sts", 99, {{"tolerance", i64(2)}, {"failed", i64(4)}}));
}
BENCHMARK(BM_ConfigureSts99Failed4Cached)->Unit(benchmark::kMillisecond);

// Where the count gives up: STS(99), 10 failed, stops at the default work bound.
void BM_CountSts99Failed10GivesUp(benchmark::State& state) {
  const auto l = placement::steiner_triple_system(99);
  for (auto _ : state) benchmark::DoNotOptimize(placement::loss_given_failed(l, 2, 10));
}
BENCHMARK(BM_CountSts99Failed10GivesUp)->Iterations(1)->Unit(benchmark::kMillisecond);

// PG(2,3), independent failures: every surviving set of every size (the polynomial in p).
void BM_CountPg23AllSizesFirst(benchmark::State& state) {
  const auto l = placement::projective_plane(3);
  for (auto _ : state) benchmark::DoNotOptimize(placement::loss_given_probability(l, 3, 0.1));
}
BENCHMARK(BM_CountPg23AllSizesFirst)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
