// The sorting model's counts through real sessions: for every sort with an exact expectation
// (insertion, bubble, shaker, binary insertion, selection, merge, radix) at n = 8, 64 and 1,024,
// sessions with counts = true (seeds 1..R, quick preset, readings of 0.1 ms) and the count of 95%
// intervals of `comparisons` and `moves` that hold the exact value the model prints beside them.
// The counts are the sessions' required quantities here (the times optional), so that a session
// stops when they converge, whatever the machine's speed does. A case passes at
// >= 0.93 R - 3 sd (docs/validation.md). The counts of selection, merge and radix sort are the same
// on every input: one session of 200 readings each, which must read the exact value every time.
//
//   validate_sorting_counts [sessions]      (default 200)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "../support/configure_model.hpp"
#include "mcpilot/measure/measurement.hpp"
#include "mcpilot/session.hpp"
#include "sorting/sorting_model.hpp"

int main(int argc, char** argv) {
  using namespace mcpilot;
  const int sessions = argc > 1 ? std::atoi(argv[1]) : 200;
  const std::set<std::string> constant = {"selection", "merge", "radix"};
  bool ok = true;
  for (const char* algorithm :
       {"insertion", "bubble", "shaker", "binary-insertion", "selection", "merge", "radix"})
    for (int n : {8, 64, 1024}) {
      sorting::sorting_model m;
      model_spec spec = test::configure_model(
          m, {{"algorithm", std::string(algorithm)}, {"n", std::int64_t{n}}, {"counts", true}});
      declare_measurement_quantities(spec, {});
      const auto exact = m.analytic();
      const bool same_every_time = constant.contains(algorithm);
      for (auto& q : spec.quantities()) q.required = !same_every_time && exact.contains(q.name);
      std::map<std::string, int> covered, exact_means;
      const int runs = same_every_time ? 1 : sessions;
      for (int seed = 1; seed <= runs; ++seed) {
        session_settings st;
        st.seed = static_cast<std::uint64_t>(seed);
        st.engine.session_precision = *preset("quick");
        st.measurement.min_reading_ms = 0.1;
        st.max_seconds = 60;
        if (same_every_time) st.max_replications = 200;
        const auto r = run_session(m, spec, st);
        for (const auto& [quantity, value] : exact) {
          const auto& a =
              r.quantities[static_cast<std::size_t>(spec.quantity_index(quantity))].stats;
          if (a.ci_low && a.ci_high && *a.ci_low <= value && value <= *a.ci_high)
            ++covered[quantity];
          if (a.mean && *a.mean == value) ++exact_means[quantity];
        }
      }
      for (const auto& [quantity, value] : exact) {
        const double floor = 0.93 * runs - 3 * std::sqrt(0.95 * 0.05 * runs);
        const bool pass =
            same_every_time ? exact_means[quantity] == runs : covered[quantity] >= floor;
        ok = ok && pass;
        if (same_every_time)
          std::printf("%-17s n = %5d  %-11s exact %-12.6g the same on every input: mean %s  %s\n",
                      algorithm, n, quantity.c_str(), value,
                      exact_means[quantity] == runs ? "equal" : "DIFFERS", pass ? "ok" : "FAIL");
        else
          std::printf("%-17s n = %5d  %-11s exact %-12.6g covered %3d/%d (floor %.1f)  %s\n",
                      algorithm, n, quantity.c_str(), value, covered[quantity], runs, floor,
                      pass ? "ok" : "FAIL");
        std::fflush(stdout);
      }
    }
  return ok ? 0 : 1;
}
