// What bench's stop rule says, session after session, on a machine recorded run by run: the
// recording (a long `mcpilot bench --no-warmup-removal --export-csv` of one command) is cut into
// consecutive sessions, each starting where the last one stopped, and each session is bench's own
// (programs::bench_session) with the recorded wall times in place of the runs. Per floor
// (--min-seconds) it prints how many sessions converged, their time (the replayed runs' own),
// how often a converged interval holds the whole recording's mean, and how often the intervals of
// consecutive converged sessions overlap (docs/bench.md, "A floor in seconds"). A last row does
// the same for hyperfine's default stop, as its users read it: at least 10 runs and 3 s, then
// the mean +- 1.96 sd / sqrt(n), the runs taken as independent.
//
//   perf_bench_replay [--median] RECORDING.csv [CI_PERC [MAX_SECONDS [FLOOR...]]]
//
// --median: bench's sessions with --statistic median, held against the recording's median (the
// hyperfine row stays the mean's).
//
// CI_PERC 0.02 (+-1%) and MAX_SECONDS 60 by default, as scripts/bench_vs_hyperfine.sh asks;
// floors 0 1 3 10 by default. A session that the recording's end cut short is not counted.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <span>
#include <string>
#include <vector>

#include "mcpilot/error.hpp"
#include "mcpilot/io/csv_table.hpp"
#include "mcpilot/programs/bench_session.hpp"
#include "mcpilot/stats/precision.hpp"
#include "mcpilot/stats/summary.hpp"

namespace {

using namespace mcpilot;

// The wall_time readings of bench's --export-csv (run,command,timestamp_s,quantity,value), in
// run order. input_error for a file without those columns, a reading that is not a number, or
// none at all.
std::vector<double> wall_times(const std::string& path) {
  const csv_table t = read_csv_table(path);
  const auto quantity = t.find("quantity"), value = t.find("value");
  if (!quantity || !value)
    throw input_error(path + ": expected bench's --export-csv columns (quantity, value), got " +
                      t.columns());
  std::vector<double> x;
  for (const csv_row& r : t.rows) {
    if (r.cells.size() <= std::max(*quantity, *value) || r.cells[*quantity] != "wall_time")
      continue;
    const auto v = parse_csv_number(r.cells[*value]);
    if (!v || *v < 0)
      throw input_error(t.where(r, *value) + ": value: a wall time must be a number >= 0");
    x.push_back(*v);
  }
  if (x.empty()) throw input_error(path + ": no wall_time readings");
  return x;
}

struct replayed {
  std::uint64_t runs = 0;
  double seconds = 0;
  bool converged = false;
  bool cut = false;  // the recording's end cut it short: not counted
  double low = 0, high = 0;
};

replayed one_session(const std::vector<double>& x, std::size_t from, double ci_perc,
                     double min_seconds, std::uint64_t max_runs, summary_statistic statistic) {
  programs::bench_settings s;
  s.commands = {"replay"};
  s.requirements = *preset("normal");
  s.requirements.ci_perc = ci_perc;
  s.requirements.statistic = statistic;
  s.min_seconds = min_seconds;
  s.max_runs = max_runs;
  s.max_seconds = 1e9;  // the replayed runs take no time: max_runs stands for the limit
  std::size_t at = from;
  s.launch = [&](const std::vector<std::string>&, const child_options&) {
    child_result r;
    r.started = true;
    r.wall_seconds = x[at++];
    return r;
  };
  programs::bench_session session(std::move(s));
  session.run();
  replayed out;
  out.runs = session.total_runs();
  out.seconds = session.commands()[0].measured_seconds;
  out.converged = session.stopped_because() == stop_reason::converged;
  const analysis& a = session.commands()[0].eng->results()[0].stats;
  if (a.ci_low && a.ci_high) {
    out.low = *a.ci_low;
    out.high = *a.ci_high;
  }
  return out;
}

// hyperfine 1.15's default stop on the runs from `from`: at least 10 runs and 3 s of them.
replayed hyperfine_session(const std::vector<double>& x, std::size_t from) {
  replayed out;
  std::size_t i = from;
  for (; i < x.size() && (i - from < 10 || out.seconds < 3); ++i) out.seconds += x[i];
  out.runs = i - from;
  out.converged = out.runs >= 10 && out.seconds >= 3;
  out.cut = !out.converged;
  if (out.runs < 2) return out;
  // The one-pass sum of squares would cancel most of its digits on runs this alike.
  const std::span<const double> runs(x.data() + from, out.runs);
  const double m = mean(runs), se = std::sqrt(variance(runs) / static_cast<double>(out.runs));
  out.low = m - 1.96 * se;
  out.high = m + 1.96 * se;
  return out;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

std::string format(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

// Consecutive sessions from the recording's start, each where the last one stopped, until the
// recording's end cuts one short; one table row of what their intervals say.
void print_row(const std::string& stop, const std::vector<double>& x, double target,
               const std::function<replayed(std::size_t)>& session) {
  std::size_t from = 0, sessions = 0, converged = 0, holding = 0, pairs = 0, overlapping = 0;
  std::vector<double> times;
  bool last_converged = false;
  double last_low = 0, last_high = 0;
  while (from < x.size()) {
    const replayed r = session(from);
    from += r.runs;
    if (r.cut || r.runs == 0) break;
    ++sessions;
    if (r.converged) {
      ++converged;
      times.push_back(r.seconds);
      holding += r.low <= target && target <= r.high;
      if (last_converged) {
        ++pairs;
        overlapping += r.low <= last_high && last_low <= r.high;
      }
      last_low = r.low;
      last_high = r.high;
    }
    last_converged = r.converged;
  }
  const auto pct = [](std::size_t k, std::size_t n) {
    return n ? 100.0 * static_cast<double>(k) / static_cast<double>(n) : 0.0;
  };
  std::printf("| %s | %zu | %zu | %.1f | %zu (%.0f%%) | %zu of %zu (%.0f%%) |\n", stop.c_str(),
              sessions, converged, median(times), holding, pct(holding, converged), overlapping,
              pairs, pct(overlapping, pairs));
}

}  // namespace

int main(int argc, char** argv) {
  const bool by_median = argc > 1 && std::string(argv[1]) == "--median";
  if (by_median) {
    --argc;
    ++argv;
  }
  if (argc < 2) {
    std::cerr << "usage: perf_bench_replay [--median] RECORDING.csv [CI_PERC [MAX_SECONDS "
                 "[FLOOR...]]]\n";
    return 2;
  }
  std::vector<double> x;
  try {
    x = wall_times(argv[1]);
  } catch (const input_error& e) {
    std::cerr << "perf_bench_replay: " << e.what() << '\n';
    return 2;
  }
  const double ci_perc = argc > 2 ? std::atof(argv[2]) : 0.02;
  const double max_seconds = argc > 3 ? std::atof(argv[3]) : 60;
  std::vector<double> floors;
  for (int i = 4; i < argc; ++i) floors.push_back(std::atof(argv[i]));
  if (floors.empty()) floors = {0, 1, 3, 10};
  double total = 0;
  for (const double v : x) total += v;
  const double mean = total / static_cast<double>(x.size());
  const double target = by_median ? median(x) : mean;
  const summary_statistic statistic =
      by_median ? summary_statistic::median : summary_statistic::mean;
  // The limit in runs at the recording's pace: the replay has no clock of its own.
  const auto max_runs = static_cast<std::uint64_t>(std::ceil(max_seconds / mean));
  std::printf(
      "%zu runs, %.1f s, mean %.6g ms, median %.6g ms; +-%.2g%%, limit %.0f s (%llu runs)\n",
      x.size(), total, mean * 1e3, median(x) * 1e3, ci_perc * 50, max_seconds,
      static_cast<unsigned long long>(max_runs));
  std::printf(
      "| stop | sessions | converged | median s (converged) | holding the %s | "
      "consecutive overlapping |\n|---|---|---|---|---|---|\n",
      by_median ? "median (bench), mean (hyperfine)" : "mean");
  const std::string name = by_median ? "bench --statistic median" : "bench";
  for (const double floor : floors)
    print_row(name + ", --min-seconds " + format(floor), x, target, [&](std::size_t from) {
      const std::uint64_t room = x.size() - from;
      replayed r =
          one_session(x, from, ci_perc, floor, std::min<std::uint64_t>(max_runs, room), statistic);
      r.cut = !r.converged && r.runs == room && room < max_runs;
      return r;
    });
  print_row("hyperfine's default (10 runs and 3 s; mean +- 1.96 sd / sqrt(n))", x, mean,
            [&](std::size_t from) { return hyperfine_session(x, from); });
  return 0;
}
