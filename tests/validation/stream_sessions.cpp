// Sequential sessions on a stream shaped like run times on a shared VM (tests/support/
// vm_stream.hpp: AR(1) noise, bursts of load, descheduling outliers), as `bench` drives
// analyze(): does the interval a session stops with cover the stream's long-run mean as often as
// it claims (docs/validation.md, "Stream sessions on a VM-like stream")? And, on AR(1) at a
// fixed n, does the decay rule for the subsession size cover as Pilot's rule does?
//
// Part S: for subsession rules (decay, lag1), warm-up removal (on, off) and floors on the
// stable readings before a stop (analysis_options::min_readings: 0 to 10000), R sessions
// (seeds 1..R) at +-1% under normal. A 95% interval's coverage read on R sessions has sd sqrt(0.95
// 0.05 / R): the gate is 0.95 - 3 sd (0.917 at R = 400, 0.904 at 200). Part A: analyze() of AR(1)
// series (phi 0.5, 0.9; n 10^3, 10^4) under normal and strict, 1000 series per cell, gated at 0.93
// for n = 10^4 (a true 0.95 reads below 0.93 with probability 0.002), as the correlation-adjusted
// interval's study is.
//
//   validate_stream_sessions [sessions] [parts]     defaults 400, "SA"
// Exit 1 when a gated cell misses its gate.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "../support/ar1_study.hpp"
#include "../support/vm_stream.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/precision.hpp"

namespace {

using namespace mcpilot;
using grouping = analysis_options::grouping;

bool all_ok = true;

const char* name(grouping g) {
  return g == grouping::decay ? "decay" : "lag1";
}

void part_s(int sessions) {
  const test::vm_stream_shape shape;
  const double truth = shape.long_run_mean();
  std::printf("S. sessions at +-1%%, normal, on the VM-like stream (long-run mean %.4f)\n", truth);
  std::printf("%-6s %-7s %6s %10s %9s %8s %8s %8s %6s\n", "rule", "warm-up", "floor", "converged",
              "covered", "rate", "below", "n med", "gate");
  struct row {
    grouping g;
    bool removal;
    std::size_t floor;
  };
  const row rows[] = {{grouping::decay, true, 0},     {grouping::lag1, true, 0},
                      {grouping::decay, false, 0},    {grouping::decay, false, 1000},
                      {grouping::decay, false, 3000}, {grouping::decay, false, 10000},
                      {grouping::lag1, false, 10000}, {grouping::decay, true, 3000},
                      {grouping::decay, true, 10000}};
  for (const auto& [g, removal, floor] : rows) {
    int converged = 0, covered = 0, below = 0;
    std::vector<std::size_t> ns;
    for (int s = 1; s <= sessions; ++s) {
      test::vm_stream src(shape, static_cast<std::uint64_t>(s));
      analysis_options o;
      o.requirements = *preset("normal");
      o.requirements.ci_perc = 0.02;
      o.remove_warmup = removal;
      o.subsessions = g;
      o.min_readings = floor;
      const auto r = test::run_stream_session(src, o, 200000);
      ns.push_back(r.n);
      if (!r.converged) continue;
      ++converged;
      if (r.low <= truth && truth <= r.high) ++covered;
      if (r.high < truth) ++below;
    }
    std::sort(ns.begin(), ns.end());
    const double rate = converged ? double(covered) / converged : 0;
    // Only the floor of 10000 without removal is gated: the others show why it is needed
    // (docs/validation.md). The bursts come at 1/400 per reading, so 10000 readings hold 25 of
    // them on average; at 3000 (7.5) their count is too skewed for a t-interval, and sessions
    // that met few bursts stop low and narrow (89.5-90.2% in 200-1000 sessions).
    const bool gated = !removal && floor == 10000 && g == grouping::decay;
    const double gate = 0.95 - 3 * std::sqrt(0.95 * 0.05 / sessions);
    const bool ok = !gated || rate >= gate;
    all_ok = all_ok && ok;
    std::printf("%-6s %-7s %6zu %6d/%-4d %8d %8.3f %8d %8zu %6s\n", name(g), removal ? "on" : "off",
                floor, converged, sessions, covered, rate, below, ns[ns.size() / 2],
                gated ? (ok ? "PASS" : "FAIL") : "-");
    std::fflush(stdout);
  }
}

void part_a() {
  std::printf("\nA. analyze() on AR(1), fixed n, adjusted interval, no warm-up removal\n");
  std::printf("%-6s %5s %7s %-7s %9s %8s %7s %6s\n", "rule", "phi", "n", "preset", "covered",
              "rate", "mean q", "gate");
  for (const double phi : {0.5, 0.9})
    for (const std::size_t n : {1000u, 10000u})
      for (const char* pre : {"normal", "strict"})
        for (const grouping g : {grouping::decay, grouping::lag1}) {
          std::mt19937_64 gen(20261203);
          std::vector<double> x(n);
          int covered = 0, got = 0;
          double qs = 0;
          for (int s = 0; s < 1000; ++s) {
            test::fill_ar1(x, phi, 5, gen);
            analysis_options o;
            o.requirements = *preset(pre);
            o.remove_warmup = false;
            o.subsessions = g;
            const analysis a = analyze(x, o);
            if (!a.ci_low || !a.ci_high) continue;
            ++got;
            qs += static_cast<double>(*a.subsession_size);
            if (*a.ci_low <= 5 && 5 <= *a.ci_high) ++covered;
          }
          const double rate = got ? double(covered) / got : 0;
          const bool gated = n >= 10000;
          const bool ok = !gated || rate >= 0.93;
          all_ok = all_ok && ok;
          std::printf("%-6s %5.2f %7zu %-7s %4d/%-4d %8.3f %7.1f %6s\n", name(g), phi, n, pre,
                      covered, got, rate, got ? qs / got : 0, gated ? (ok ? "PASS" : "FAIL") : "-");
          std::fflush(stdout);
        }
}

}  // namespace

int main(int argc, char** argv) {
  const int sessions = argc > 1 ? std::atoi(argv[1]) : 400;
  const std::string parts = argc > 2 ? argv[2] : "SA";
  if (parts.find('S') != std::string::npos) part_s(sessions);
  if (parts.find('A') != std::string::npos) part_a();
  std::printf("\n%s\n", all_ok ? "all gated cells pass" : "a gated cell FAILED");
  return all_ok ? 0 : 1;
}
