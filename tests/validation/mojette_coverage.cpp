// Coverage study of mojette.layout's intervals: for each case, many independent sessions (seeds
// 1..R) run to their precision, and we count how often the 95% interval holds the exact value
// (Katz over all survivor sets, or the exact Markov chains of the lifetime scenario). A correct
// interval covers with probability ~0.95; with R sessions the count's standard deviation is
// sqrt(0.95 x 0.05 / R), so a case fails below 0.95 - 3 sd (0.904 at R = 200). The mean of the
// estimates must also lie within 3 standard errors of the exact value (bias). Timing is off: it
// measures, it does not estimate a fixed value. Exit 1 if any case fails. Label `validation`.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mcpilot/session.hpp"
#include "mojette/mojette_model.hpp"

namespace {

using namespace mcpilot;

struct setting {
  const char* name;
  param_value value;
};

struct study {
  std::string label;
  std::vector<setting> values;
  std::string quantity;
  double ci_perc;
};

int sessions = 200;

bool run_study(const study& s) {
  mojette::mojette_model m;
  model_spec base;
  m.declare(base);
  parameters p;
  for (const auto& ps : base.parameter_specs())
    if (ps.default_value) p.set(ps.name, *ps.default_value);
  p.set("timing", false);
  for (const auto& v : s.values) p.set(v.name, base.find_parameter(v.name)->check(v.value));
  m.configure(p);
  model_spec spec;
  m.declare(spec);
  const double exact = m.analytic().at(s.quantity);

  int covered = 0;
  double sum = 0, sum2 = 0, reps = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int seed = 1; seed <= sessions; ++seed) {
    session_settings st;
    st.seed = static_cast<std::uint64_t>(seed);
    st.threads = 2;
    st.engine.session_precision = *preset("normal");
    st.engine.session_precision.ci_perc = s.ci_perc;
    const auto r = run_session(m, spec, st);
    const auto& a = r.quantities.at(0).stats;
    if (a.ci_low && a.ci_high && *a.ci_low <= exact && exact <= *a.ci_high) ++covered;
    const double ratio = *a.mean / exact;
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
      "%-40s %-16s exact %-12.6g coverage %5.3f (floor %.3f)  mean/exact %.4f +- %.4f  "
      "%8.0f reps/session  %6.1f s  %s\n",
      s.label.c_str(), s.quantity.c_str(), exact, coverage, floor, mean_ratio, se, reps / n,
      seconds, ok ? "ok" : "FAIL");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) sessions = std::atoi(argv[1]);
  using I = std::int64_t;
  const std::string non_mds = "[[1, 1], [-1, 1], [1, 2], [-1, 2], [3, 1]]";
  const std::vector<setting> custom = {{"layout", std::string("custom")},
                                       {"projections", non_mds},
                                       {"rows", I{4}},
                                       {"block_bytes", I{128}}};
  auto with = [](std::vector<setting> a, const std::vector<setting>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  const std::vector<setting> mission = {{"scenario", std::string("lifetime")},
                                        {"lifetime.mean_hours", 100.0},
                                        {"repair.mean_hours", 20.0},
                                        {"mission_hours", 200.0}};
  const std::vector<study> studies = {
      {"rozofs-4-6 f = 0.1", {{"failure_probability", 0.1}}, "unrecoverable", 0.2},
      {"rozofs-8-12 f = 0.2",
       {{"layout", std::string("rozofs-8-12")}, {"failure_probability", 0.2}},
       "unrecoverable",
       0.1},
      {"custom non-MDS f = 0.1", with(custom, {{"failure_probability", 0.1}}), "unrecoverable",
       0.2},
      {"rozofs-4-6 lifetime, serial rebuilds", mission, "loss_in_mission", 0.1},
      {"custom non-MDS lifetime, parallel rebuilds",
       with(with(custom, mission), {{"repair.parallel", true}}), "loss_in_mission", 0.1},
  };
  std::printf("mojette.layout coverage of 95%% intervals over %d sessions per case\n", sessions);
  bool all = true;
  for (const auto& s : studies) all = run_study(s) && all;
  return all ? 0 : 1;
}
