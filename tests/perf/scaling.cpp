// Cost of `mcpilot scaling`'s analysis (issue: 20 sizes x 10 runs with B = 1000 resamples in
// well under a second). Exploratory (all 7 shapes) is the most expensive case: every resample
// refits every shape once per left-out size. The baseline is the same analysis without the
// bootstrap, so the ratio says what the stability step costs on this machine.
#include <benchmark/benchmark.h>

#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <vector>

#include "mcpilot/rng.hpp"
#include "mcpilot/stats/scaling.hpp"

namespace {

struct rows {
  std::vector<double> n, t;
};

// 20 sizes 2^6 .. 2^(6 + 19/2) (factor sqrt 2), 10 runs each, 3 n log2 n with 5% noise.
rows nlogn_rows(int sizes, int runs) {
  rows r;
  mcpilot::philox_stream g(42, 0);
  boost::random::normal_distribution<double> z;
  for (int i = 0; i < sizes; ++i) {
    const double n = std::round(64 * std::pow(2.0, i / 2.0));
    for (int j = 0; j < runs; ++j) {
      r.n.push_back(n);
      r.t.push_back(3 * n * std::log2(n) * (1 + 0.05 * z(g)));
    }
  }
  return r;
}

void run(benchmark::State& state, std::size_t bootstrap, bool exploratory) {
  const rows d = nlogn_rows(20, 10);
  mcpilot::scaling_options o;
  o.bootstrap = bootstrap;
  o.seed = 7;
  if (!exploratory)
    o.models = {mcpilot::scaling_shape::linear, mcpilot::scaling_shape::n_log_n,
                mcpilot::scaling_shape::quadratic};
  for (auto _ : state) benchmark::DoNotOptimize(mcpilot::analyze_scaling(d.n, d.t, o));
}

void BM_Scaling20x10_NoBootstrap(benchmark::State& state) {
  run(state, 0, true);
}
void BM_Scaling20x10_B1000_Exploratory(benchmark::State& state) {
  run(state, 1000, true);
}
void BM_Scaling20x10_B1000_ThreeModels(benchmark::State& state) {
  run(state, 1000, false);
}

}  // namespace

BENCHMARK(BM_Scaling20x10_NoBootstrap)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Scaling20x10_B1000_Exploratory)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Scaling20x10_B1000_ThreeModels)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
