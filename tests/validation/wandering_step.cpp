// How often does the change-point search find one step of a machine's level when the level
// wanders on each side (docs/statistics.md, "A step among wandering runs")? The recorded case
// (docs/data/step-among-wandering-runs.csv): a 60% step between two stretches of about 300 runs,
// each wandering over tens of runs, which the rank test alone could not test.
//
// Readings: 1 + sd e_i, e an AR(1) of unit variance and lag-1 coefficient rho (rho 0.97: the
// integrated autocorrelation time is 66 readings), plus `step` from reading n/2 on; n = 640 and
// 4000. A step is found when a change-point falls within 5% of n of n/2. Searched as `analyze`
// searches (changepoint_options at normal's limit; no min_relative_shift). 200 series per cell,
// seeds 1-200.
//
// Gated: with independent noise (rho 0) a step of 3 sd is found in at least 95% of series; without
// a step a change-point appears anywhere in at most 3% of series at rho 0 (the test's alpha is 1%
// per series: 7 or more of 200 has probability 0.0043, R: 1 - pbinom(6, 200, 0.01)) and at most
// 5% at rho 0.9 and 0.97 (about 2% measured at rho 0.9 with the bias-corrected lag 1,
// docs/validation.md: 11 or more of 200 has probability 0.0025, R: 1 - pbinom(10, 200, 0.02)).
// The fallback on few batches is gated on the step it was made for: 12 sd at rho 0.9 is found in
// at least 90% of series (98-100% measured; before it, 43.5% and 69%). The other wandering cells
// are printed, not gated.
//
//   validate_wandering_step [series [fallback]]     default 200, fallback 1 (0: without it)
// Exit 1 when a gated cell misses.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "../support/ar1_study.hpp"
#include "mcpilot/stats/changepoint.hpp"

int main(int argc, char** argv) {
  using namespace mcpilot;
  const int series = argc > 1 ? std::atoi(argv[1]) : 200;
  changepoint_options options;
  if (argc > 2) options.few_batch_fallback = std::atoi(argv[2]) != 0;
  const double sd = 0.05;
  bool all_ok = true;
  std::printf(
      "| n | rho | step (sd) | series with the step found | with any change-point | gate |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const std::size_t n : {640u, 4000u})
    for (const double rho : {0.0, 0.9, 0.97, 0.99})
      for (const double step_sd : {0.0, 3.0, 12.0}) {
        int found = 0, any = 0;
        for (int s = 1; s <= series; ++s) {
          std::mt19937_64 gen(static_cast<std::uint64_t>(s));
          std::vector<double> x(n);
          test::fill_ar1(x, rho, 0, gen);
          for (std::size_t i = 0; i < n; ++i)
            x[i] = 1 + sd * x[i] + (i >= n / 2 ? step_sd * sd : 0);
          const changepoint_result r = detect_changepoints(x, options);
          if (!r.changepoints.empty()) ++any;
          for (const std::size_t c : r.changepoints)
            if (std::abs(static_cast<double>(c) - static_cast<double>(n / 2)) <=
                0.05 * static_cast<double>(n)) {
              ++found;
              break;
            }
        }
        const double f = double(found) / series, a = double(any) / series;
        std::string gate = "-";
        if (step_sd == 0 && rho < 0.98) {
          const double limit = rho == 0 ? 0.03 : 0.05;
          const bool ok = a <= limit;
          all_ok = all_ok && ok;
          gate =
              std::string(ok ? "PASS" : "FAIL") + (rho == 0 ? " (any <= 0.03)" : " (any <= 0.05)");
        } else if (step_sd == 12 && rho == 0.9 && options.few_batch_fallback) {
          const bool ok = f >= 0.9;
          all_ok = all_ok && ok;
          gate = ok ? "PASS (found >= 0.9)" : "FAIL (found >= 0.9)";
        } else if (step_sd == 3 && rho == 0) {
          const bool ok = f >= 0.95;
          all_ok = all_ok && ok;
          gate = ok ? "PASS (found >= 0.95)" : "FAIL (found >= 0.95)";
        }
        std::printf("| %zu | %.2f | %.0f | %.3f | %.3f | %s |\n", n, rho, step_sd,
                    step_sd > 0 ? f : 0.0, a, gate.c_str());
        std::fflush(stdout);
      }
  std::printf("\n%s\n", all_ok ? "all gated cells pass" : "a gated cell FAILED");
  return all_ok ? 0 : 1;
}
