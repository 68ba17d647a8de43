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

#include "coverage_study.hpp"
#include "mcpilot/session.hpp"
#include "mojette/mojette_model.hpp"

namespace {

using namespace mcpilot;
using namespace mcpilot::validation;

struct study {
  std::string label;
  std::vector<setting> values;
  std::string quantity;
  double ci_perc;
};

int sessions = 200;

bool run_study(const study& s) {
  mojette::mojette_model m;
  const model_spec spec = configure(m, s.values, {{"timing", false}});
  const double exact = m.analytic().at(s.quantity);
  return check_coverage(m, spec, {s.label, s.quantity, exact, s.ci_perc}, sessions);
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
