// Cost of reading readings from CSV, the floor under `mcpilot analyze FILE`: issue 2 asks that
// analyze on 10^6 readings stay within a few times the cost of merely parsing the file.
//
//   perf_readings_csv                        Google Benchmark: read_readings at n = 10^3 .. 10^6
//   perf_readings_csv --write N FILE         writes N latency-like readings (AR(1), lognormal)
//   perf_readings_csv --parse FILE           only parses FILE, for /usr/bin/time -v beside
//                                            `mcpilot analyze FILE` (docs/performance.md)
#include <benchmark/benchmark.h>

#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>

#include "mcpilot/io/readings_csv.hpp"

namespace {

// Latencies in ms with two decimals, about 7 bytes a line: AR(1) rho 0.4 on the log scale.
void write_readings(std::size_t n, const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::perror(path.c_str());
    std::exit(2);
  }
  std::mt19937_64 rng(20261130);
  boost::random::normal_distribution<double> normal(0, 0.12 * std::sqrt(1 - 0.16));
  double z = 0;
  std::fputs("latency_ms\n", f);
  for (std::size_t i = 0; i < n; ++i) {
    z = 0.4 * z + normal(rng);
    std::fprintf(f, "%.2f\n", 120 * std::exp(z));
  }
  std::fclose(f);
}

void BM_ReadReadings(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::string path =
      (std::filesystem::temp_directory_path() / ("mcpilot-perf-" + std::to_string(n) + ".csv"))
          .string();
  write_readings(n, path);
  for (auto _ : state) benchmark::DoNotOptimize(mcpilot::read_readings(path));
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() *
                          static_cast<std::int64_t>(std::filesystem::file_size(path)));
  std::filesystem::remove(path);
}
BENCHMARK(BM_ReadReadings)
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--write") == 0) {
    write_readings(std::stoull(argv[2]), argv[3]);
    return 0;
  }
  if (argc == 3 && std::strcmp(argv[1], "--parse") == 0) {
    const auto c = mcpilot::read_readings(argv[2]);
    double sum = 0;
    for (double v : c.values) sum += v;
    std::printf("%zu readings, sum %.17g\n", c.values.size(), sum);
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
