// Cost of change-point detection on long series (issue 3 asks for 10^5 readings in well under a
// second). The exact tables are cached for the process, so these are the steady figures of a
// session that calls the detection repeatedly; the first call of a process also builds them
// (docs/performance.md, "Performance: change-point detection", gives both).
#include <benchmark/benchmark.h>

#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "mcpilot/stats/changepoint.hpp"

namespace {

std::vector<double> normal_series(std::size_t n, std::uint64_t seed, double warmup_shift) {
  std::mt19937_64 rng(seed);
  boost::random::normal_distribution<double> normal;
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = normal(rng) - (i < n / 10 ? warmup_shift : 0.0);
  return x;
}

std::vector<double> ar_series(std::size_t n, std::uint64_t seed, double rho) {
  std::mt19937_64 rng(seed);
  boost::random::normal_distribution<double> normal;
  std::vector<double> x(n);
  double v = normal(rng);
  for (double& y : x) y = v = rho * v + std::sqrt(1 - rho * rho) * normal(rng);
  return x;
}

void BM_IidNormal(benchmark::State& state) {
  const auto x = normal_series(static_cast<std::size_t>(state.range(0)), 1, 0);
  for (auto _ : state) benchmark::DoNotOptimize(mcpilot::detect_changepoints(x));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_NormalWithWarmup(benchmark::State& state) {
  const auto x = normal_series(static_cast<std::size_t>(state.range(0)), 2, 1.0);
  for (auto _ : state) benchmark::DoNotOptimize(mcpilot::detect_changepoints(x));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// The second argument turns the few-batch fallback off (0) or on (1): what testing the
// candidates that no subsession size qualifies for costs, on the series where they are common.
void BM_Ar08(benchmark::State& state) {
  const auto x = ar_series(static_cast<std::size_t>(state.range(0)), 3, 0.8);
  mcpilot::changepoint_options o;
  o.few_batch_fallback = state.range(1) != 0;
  for (auto _ : state) benchmark::DoNotOptimize(mcpilot::detect_changepoints(x, o));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// Wandering readings (rho 0.97) with a step of 12 sd in the middle, as validate_wandering_step.
void BM_Ar097Step(benchmark::State& state) {
  auto x = ar_series(static_cast<std::size_t>(state.range(0)), 4, 0.97);
  for (std::size_t i = x.size() / 2; i < x.size(); ++i) x[i] += 12;
  mcpilot::changepoint_options o;
  o.few_batch_fallback = state.range(1) != 0;
  for (auto _ : state) benchmark::DoNotOptimize(mcpilot::detect_changepoints(x, o));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

}  // namespace

BENCHMARK(BM_IidNormal)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NormalWithWarmup)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Ar08)->Args({100000, 0})->Args({100000, 1})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Ar097Step)
    ->Args({4000, 0})
    ->Args({4000, 1})
    ->Args({100000, 0})
    ->Args({100000, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
