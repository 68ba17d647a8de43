// `mcpilot analyze` against parsing alone, in one run (issue: analyze of 10^6 readings within 4x
// of parsing the file), change-point detection of 10^6 readings, and one round's analysis of a
// stream-style session (4 M/M/1 streams). CPU time of this process, best of 3 (the first call of
// detect_changepoints also builds exact tables; it is reported apart, and with it the analysis of
// a process whose tables are cold, as `mcpilot analyze` runs). Not a Google Benchmark
// program: the figures are ratios measured side by side (docs/performance.md).
//
//   perf_analyze_speed [N [MAX_POINTS]]  (defaults 1000000 and changepoint_options' 2^15;
//                                        MAX_POINTS 0 searches for change-points reading by
//                                        reading, as every length was before 2026-12-02)
//   perf_analyze_speed --write N FILE    only writes the N readings to FILE, for measuring
//                                        `mcpilot analyze FILE`'s peak memory
//                                        (scripts/analyze-memory.sh)
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mcpilot/io/readings_csv.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/changepoint.hpp"

namespace {

using namespace mcpilot;

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double best_of_3(const std::function<void()>& f) {
  double best = 1e300;
  for (int i = 0; i < 3; ++i) {
    const double t0 = cpu_seconds();
    f();
    best = std::min(best, cpu_seconds() - t0);
  }
  return best;
}

// AR(1), rho 0.5, around 10, full precision: 18 to 19 bytes a line.
void write_ar1(std::size_t n, const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) std::exit(2);
  std::mt19937_64 rng(16);
  boost::random::normal_distribution<double> normal;
  double v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    v = 0.5 * v + normal(rng);
    std::fprintf(f, "%.17g\n", 10 + v);
  }
  std::fclose(f);
}

// Waits of an M/M/1 queue at rho = 0.8 started empty (Lindley's recursion), as the example.
std::vector<double> mm1_stream(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  boost::random::exponential_distribution<double> arrival(0.8), service(1.0);
  std::vector<double> w(n);
  double wait = 0;
  for (double& x : w) {
    x = wait;
    wait = std::max(0.0, wait + service(rng) - arrival(rng));
  }
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--write") {
    write_ar1(std::strtoull(argv[2], nullptr, 10), argv[3]);
    return 0;
  }
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  changepoint_options co;
  if (argc > 2) co.max_points = std::strtoull(argv[2], nullptr, 10);
  const std::string path =
      (std::filesystem::temp_directory_path() / "mcpilot-perf-analyze-speed.csv").string();
  write_ar1(n, path);

  analysis_options opt;
  opt.requirements = *preset("normal");
  opt.changepoint_max_points = co.max_points;
  const double parse = best_of_3([&] { (void)read_readings(path); });
  const csv_column c = read_readings(path);
  const double first_detection = [&] {
    const double t0 = cpu_seconds();
    (void)detect_changepoints(c.values, co);
    return cpu_seconds() - t0;
  }();
  const double detection = best_of_3([&] { (void)detect_changepoints(c.values, co); });
  const double analyze_default = best_of_3([&] { (void)analyze(read_readings(path).values, opt); });
  analysis_options no_warmup = opt;
  no_warmup.remove_warmup = false;
  const double analyze_plain =
      best_of_3([&] { (void)analyze(read_readings(path).values, no_warmup); });
  std::filesystem::remove(path);

  // One round of a stream-style session at the M/M/1 example's final size: 4 streams of 210,000.
  std::vector<std::vector<double>> streams;
  for (std::uint64_t s = 1; s <= 4; ++s) streams.push_back(mm1_stream(210000, s));
  std::vector<std::span<const double>> spans(streams.begin(), streams.end());
  analysis_options strict;
  strict.requirements = *preset("strict");
  strict.changepoint_max_points = co.max_points;
  const double round = best_of_3([&] { (void)analyze_streams(spans, strict); });

  std::printf("readings: %zu (AR(1) rho 0.5, one per line), change-points searched %s\n", n,
              co.max_points == 0
                  ? "reading by reading"
                  : ("on means past " + std::to_string(co.max_points) + " readings").c_str());
  std::printf("parse only (read_readings)             %8.3f s CPU\n", parse);
  std::printf("parse + analyze, no warm-up removal    %8.3f s CPU  %5.2fx parse\n", analyze_plain,
              analyze_plain / parse);
  std::printf("parse + analyze, default               %8.3f s CPU  %5.2fx parse\n", analyze_default,
              analyze_default / parse);
  // What a fresh process (`mcpilot analyze FILE`) pays: its search is the first, which builds
  // the tables. From this run's parts: the warm analysis with the first detection's time in place
  // of a later one's.
  const double cold = analyze_default - detection + first_detection;
  std::printf("parse + analyze, default, cold tables  %8.3f s CPU  %5.2fx parse\n", cold,
              cold / parse);
  std::printf("detect_changepoints, first call        %8.3f s CPU\n", first_detection);
  std::printf("detect_changepoints, later calls       %8.3f s CPU\n", detection);
  std::printf("analyze_streams, 4 M/M/1 streams x 210000, strict: %.3f s CPU per round\n", round);
  return 0;
}
