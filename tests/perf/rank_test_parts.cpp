// The parts of a change-point search's rank tests that run thousands of times per series
// (docs/performance.md, "Sixth pass"): sorting a test's samples, the tie check, and the lag-1
// of batch means read off prefix sums. Values in random order, never repeating, as on
// continuous readings. And for readings that take few values ("Twelfth pass"): a whole rank test
// on such means, counted against sorted, and Fisher's exact test against its whole support.
//
//   perf_rank_test_parts [--benchmark_filter=REGEX]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include <boost/sort/pdqsort/pdqsort.hpp>

#include "../support/fisher_whole_support.hpp"
#include "mcpilot/stats/fisher_exact.hpp"
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

// rank_sum_test_in_place on means that take `distinct` values, skewed to the low ones as the
// batch means of rare successes are (value j with weight 1 / (1 + j)^2), k and 4 k of them,
// plus four more values, all different, at the front of each sample. That order makes the
// library sort; `sorted` keeps it, while the counted variant moves those four to the back, so that
// a value repeats among the first four and the same values are counted. 256 sample pairs in turn.
// Items are values.
void rank_test_tied(benchmark::State& state, bool sorted) {
  const auto k = static_cast<std::size_t>(state.range(0));
  const auto distinct = static_cast<std::size_t>(state.range(1));
  std::mt19937_64 rng(5);
  std::vector<double> weight(distinct);
  for (std::size_t j = 0; j < distinct; ++j)
    weight[j] = 1.0 / static_cast<double>((1 + j) * (1 + j));
  std::discrete_distribution<std::size_t> pick(weight.begin(), weight.end());
  auto sample = [&](std::size_t n) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i)
      v[i] = i < 4 ? static_cast<double>(i) + 0.5 : static_cast<double>(pick(rng));
    if (!sorted) std::rotate(v.begin(), v.begin() + 4, v.end());
    return v;
  };
  std::vector<std::pair<std::vector<double>, std::vector<double>>> pairs;
  for (int i = 0; i < 256; ++i) pairs.emplace_back(sample(k), sample(4 * k));
  // The rank test whatever the ties (its least favourable U): Fisher's test, which such means
  // would get, costs several times the grouping and would hide it (BM_fisher has it alone).
  mcpilot::rank_sum_options ranks_only;
  ranks_only.tie_factor_limit = 0;
  std::vector<double> a, b;
  std::size_t at = 0;
  for (auto _ : state) {
    a = pairs[at].first;
    b = pairs[at].second;
    benchmark::DoNotOptimize(mcpilot::rank_sum_test_in_place(a, b, ranks_only).p);
    at = (at + 1) % pairs.size();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(5 * k));
}
void BM_rank_test_tied_counted(benchmark::State& state) {
  rank_test_tied(state, false);
}
void BM_rank_test_tied_sorted(benchmark::State& state) {
  rank_test_tied(state, true);
}

// Fisher's exact test on the classes of a segment's 0/1 readings: n readings on the shorter
// side, 8 n on the longer, 10% successes and a difference of 1.5 points; the library weighs the
// tables out to where their weight is 0, the reference the whole support.
template <bool whole>
void BM_fisher(benchmark::State& state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const std::uint64_t a = n / 10 + n * 15 / 1000, c = 8 * n / 10;
  for (auto _ : state) {
    if constexpr (whole)
      benchmark::DoNotOptimize(mcpilot::test::fisher_whole_support(a, n - a, c, 8 * n - c));
    else
      benchmark::DoNotOptimize(mcpilot::fisher_exact(a, n - a, c, 8 * n - c));
  }
}

}  // namespace

BENCHMARK(BM_sort_pdqsort)->Arg(8)->Arg(16)->Arg(32)->Arg(64)->Arg(128);
BENCHMARK(BM_sort_values)->Arg(8)->Arg(16)->Arg(32)->Arg(64)->Arg(128);
BENCHMARK(BM_mostly_tied_no_ties)->Arg(32)->Arg(100)->Arg(300)->Arg(1000);
BENCHMARK(BM_prefix_lag1)->DenseRange(1, 4)->Arg(8);
BENCHMARK(BM_rank_test_tied_counted)->ArgsProduct({{16, 64, 256}, {2, 6, 40}});
BENCHMARK(BM_rank_test_tied_sorted)->ArgsProduct({{16, 64, 256}, {2, 6, 40}});
BENCHMARK(BM_fisher<false>)->Arg(100)->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK(BM_fisher<true>)->Arg(100)->Arg(1000)->Arg(10000)->Arg(100000);

BENCHMARK_MAIN();
