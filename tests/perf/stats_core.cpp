// The statistics core at n = 10^3 .. 10^6: the autocovariances' transforms, the subsession search
// (including its worst case, a series where no q qualifies and every q up to n/3 is tried), the
// whole analyze() pipeline (the mean's and the median's), and the WPS fit with its exclusion of
// short rounds.
#include <benchmark/benchmark.h>

#include <boost/random/normal_distribution.hpp>
#include <random>
#include <vector>

#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/autocorrelation_time.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "mcpilot/stats/wps.hpp"

namespace {

std::vector<double> ar1(std::size_t n, double rho) {
  std::mt19937_64 gen(20261130);
  boost::random::normal_distribution<double> e(0.0, 1.0);
  std::vector<double> x(n);
  double v = 0;
  for (auto& xi : x) xi = v = rho * v + e(gen);
  return x;
}

// A linear trend: the batch means stay perfectly correlated at every q, so no q qualifies.
std::vector<double> trend(std::size_t n) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<double>(i);
  return x;
}

void BM_choose_subsession_iid(benchmark::State& s) {
  const auto x = ar1(static_cast<std::size_t>(s.range(0)), 0.0);
  for (auto _ : s) benchmark::DoNotOptimize(mcpilot::choose_subsession(x, 0.2));
  s.SetComplexityN(s.range(0));
}

void BM_choose_subsession_ar08_strict(benchmark::State& s) {
  const auto x = ar1(static_cast<std::size_t>(s.range(0)), 0.8);
  for (auto _ : s) benchmark::DoNotOptimize(mcpilot::choose_subsession(x, 0.1));
  s.SetComplexityN(s.range(0));
}

void BM_choose_subsession_worst_case(benchmark::State& s) {
  const auto x = trend(static_cast<std::size_t>(s.range(0)));
  for (auto _ : s) benchmark::DoNotOptimize(mcpilot::choose_subsession(x, 0.1));
  s.SetComplexityN(s.range(0));
}

// Every lag of an AR(1) series: the transforms behind the integrated autocorrelation time, which
// analyze() computes on each stream's stable readings.
void BM_autocovariances(benchmark::State& s) {
  const auto x = ar1(static_cast<std::size_t>(s.range(0)), 0.5);
  for (auto _ : s) benchmark::DoNotOptimize(mcpilot::autocovariances(x, x.size() - 1));
  s.SetComplexityN(s.range(0));
}

void BM_analyze_no_warmup(benchmark::State& s) {
  const auto x = ar1(static_cast<std::size_t>(s.range(0)), 0.5);
  mcpilot::analysis_options o;
  o.requirements = *mcpilot::preset("normal");
  o.remove_warmup = false;
  for (auto _ : s) benchmark::DoNotOptimize(mcpilot::analyze(x, o));
  s.SetComplexityN(s.range(0));
}

void BM_analyze_with_warmup_removal(benchmark::State& s) {
  const auto x = ar1(static_cast<std::size_t>(s.range(0)), 0.5);
  mcpilot::analysis_options o;
  o.requirements = *mcpilot::preset("normal");
  for (auto _ : s) benchmark::DoNotOptimize(mcpilot::analyze(x, o));
  s.SetComplexityN(s.range(0));
}

// The median's interval (a sort and the indicators' FFT) inside analyze(), against the mean's.
void BM_analyze_median_no_warmup(benchmark::State& s) {
  const auto x = ar1(static_cast<std::size_t>(s.range(0)), 0.5);
  mcpilot::analysis_options o;
  o.requirements = *mcpilot::preset("normal");
  o.requirements.statistic = mcpilot::summary_statistic::median;
  o.remove_warmup = false;
  for (auto _ : s) benchmark::DoNotOptimize(mcpilot::analyze(x, o));
  s.SetComplexityN(s.range(0));
}

// The WPS fit with the short rounds' exclusion: T = 1 + w + AR(1) noise over amounts 1..100.
void BM_fit_wps_stable(benchmark::State& s) {
  const auto e = ar1(static_cast<std::size_t>(s.range(0)), 0.5);
  std::vector<double> w(e.size()), t(e.size());
  for (std::size_t i = 0; i < e.size(); ++i) {
    w[i] = static_cast<double>(1 + (37 * i) % 100);
    t[i] = 1 + w[i] + e[i];
  }
  for (auto _ : s) benchmark::DoNotOptimize(mcpilot::fit_wps_stable(w, t, 0.95, 0.2));
  s.SetComplexityN(s.range(0));
}

}  // namespace

BENCHMARK(BM_analyze_median_no_warmup)
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oNLogN);
BENCHMARK(BM_fit_wps_stable)
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oNLogN);
BENCHMARK(BM_choose_subsession_iid)->RangeMultiplier(10)->Range(1000, 1000000)->Complexity();
BENCHMARK(BM_choose_subsession_ar08_strict)
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Complexity();
BENCHMARK(BM_choose_subsession_worst_case)
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oNLogN);
BENCHMARK(BM_autocovariances)
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oNLogN);
BENCHMARK(BM_analyze_no_warmup)
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_analyze_with_warmup_removal)
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
