#pragma once
// The loop every model's coverage study shares: independent sessions (seeds 1..R) run to their
// precision, and the count of 95% intervals that hold the exact value. A correct interval covers
// with probability ~0.95; with R sessions the count's standard deviation is
// sqrt(0.95 x 0.05 / R), so a case fails below 0.95 - 3 sd (0.904 at R = 200). The mean of the
// estimates over sessions must also lie within 3 standard errors of the exact value (bias).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/configure_model.hpp"
#include "mcpilot/session.hpp"

namespace mcpilot::validation {

struct setting {
  const char* name;
  param_value value;
};

// Configures m with its defaults, then `fixed`, then the case's own values.
inline model_spec configure(model& m, const std::vector<setting>& values,
                            const std::vector<setting>& fixed = {}) {
  std::vector<test::named_value> named;
  for (const auto* list : {&fixed, &values})
    for (const auto& v : *list) named.emplace_back(v.name, v.value);
  return test::configure_model(m, named);
}

struct coverage_case {
  std::string label;
  std::string quantity;
  double exact;
  std::optional<double> ci_perc;  // none: the normal preset's
};

// Runs the sessions, prints one line, and says whether the case passed. O(sessions) sessions.
inline bool check_coverage(const model& m, const model_spec& spec, const coverage_case& c,
                           int sessions) {
  int covered = 0;
  double sum = 0, sum2 = 0, reps = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int seed = 1; seed <= sessions; ++seed) {
    session_settings st;
    st.seed = static_cast<std::uint64_t>(seed);
    st.threads = 2;
    st.engine.session_precision = *preset("normal");
    if (c.ci_perc) st.engine.session_precision.ci_perc = *c.ci_perc;
    const auto r = run_session(m, spec, st);
    const quantity_result* q = nullptr;
    for (const auto& each : r.quantities)
      if (each.name == c.quantity) q = &each;
    if (!q) throw std::logic_error(c.label + ": no quantity " + c.quantity);
    const auto& a = q->stats;
    if (a.ci_low && a.ci_high && *a.ci_low <= c.exact && c.exact <= *a.ci_high) ++covered;
    const double ratio = *a.mean / c.exact;
    sum += ratio;
    sum2 += ratio * ratio;
    reps += static_cast<double>(r.replications);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double n = sessions, coverage = covered / n;
  const double mean_ratio = sum / n, se = std::sqrt((sum2 / n - mean_ratio * mean_ratio) / (n - 1));
  const double floor = 0.95 - 3 * std::sqrt(0.95 * 0.05 / n);
  const bool ok = coverage >= floor && std::abs(mean_ratio - 1) <= 3 * se;
  std::printf(
      "%-46s %-16s exact %-12.6g coverage %5.3f (floor %.3f)  mean/exact %.4f +- %.4f  "
      "%8.0f reps/session  %6.1f s  %s\n",
      c.label.c_str(), c.quantity.c_str(), c.exact, coverage, floor, mean_ratio, se, reps / n,
      seconds, ok ? "ok" : "FAIL");
  return ok;
}

}  // namespace mcpilot::validation
