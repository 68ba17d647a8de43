// The parts of a change-point search's rank tests that run thousands of times per series
// (docs/performance.md, "Sixth pass"): sorting a test's samples, the tie check, and the lag-1
// of batch means read off prefix sums. Values in random order, never repeating, as on
// continuous readings.
//
//   perf_rank_test_parts [--benchmark_filter=REGEX]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include <boost/sort/pdqsort/pdqsort.hpp>

#include "mcpilot/stats/rank_sum.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "stats/sort_values.hpp"

namespace {

std::vector<double> normal_values(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<double> v(n);
  for (double& x : v) x = normal(rng);
  return v;
}

// Sorts copies of 1024 different samples of n values in turn, so that the branch predictor
// cannot learn one order.
template <class Sort>
void sort_samples(benchmark::State& state, Sort sort) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<double> source = normal_values(1024 * n, 1);
  std::vector<double> work(n);
  std::size_t sample = 0;
  for (auto _ : state) {
    const auto from = source.begin() + static_cast<std::ptrdiff_t>(sample * n);
    std::copy(from, from + static_cast<std::ptrdiff_t>(n), work.begin());
    sort(work);
    benchmark::DoNotOptimize(work.data());
    sample = (sample + 1) % 1024;
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_sort_pdqsort(benchmark::State& state) {
  sort_samples(state,
               [](std::vector<double>& v) { boost::sort::pdqsort_branchless(v.begin(), v.end()); });
}

// What the rank tests use: Batcher's network up to 64 values, pdqsort beyond.
void BM_sort_values(benchmark::State& state) {
  sort_samples(state, [](std::vector<double>& v) { mcpilot::detail::sort_values(v); });
}

// The tie check on values that never repeat: N = k + m values, m = 4 k.
void BM_mostly_tied_no_ties(benchmark::State& state) {
  const auto k = static_cast<std::size_t>(state.range(0));
  const std::vector<double> a = normal_values(k, 2), b = normal_values(4 * k, 3);
  for (auto _ : state) benchmark::DoNotOptimize(mcpilot::rank_sum_mostly_tied(a, b, 0.99));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(5 * k));
}

// rho_1(q) of 20,000 readings' batch means off their prefix sums; items are batch means.
void BM_prefix_lag1(benchmark::State& state) {
  const auto q = static_cast<std::size_t>(state.range(0));
  const std::vector<double> x = normal_values(20000, 4);
  std::vector<double> sum{0};
  double v = 0;
  for (double e : x) sum.push_back(sum.back() + (v = 0.5 * v + e));
  for (auto _ : state) benchmark::DoNotOptimize(mcpilot::prefix_lag1(sum, q, 0));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(20000 / q));
}

}  // namespace

BENCHMARK(BM_sort_pdqsort)->Arg(8)->Arg(16)->Arg(32)->Arg(64)->Arg(128);
BENCHMARK(BM_sort_values)->Arg(8)->Arg(16)->Arg(32)->Arg(64)->Arg(128);
BENCHMARK(BM_mostly_tied_no_ties)->Arg(32)->Arg(100)->Arg(300)->Arg(1000);
BENCHMARK(BM_prefix_lag1)->DenseRange(1, 4)->Arg(8);

BENCHMARK_MAIN();
