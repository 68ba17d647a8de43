// Coverage study of placement.design's intervals: for each case, independent sessions (seeds
// 1..R) run to their precision, and we count how often the 95% interval holds the model's exact
// value. A correct interval covers with probability ~0.95; with R sessions the count's standard
// deviation is sqrt(0.95 x 0.05 / R), so a case fails below 0.95 - 3 sd (0.904 at R = 200). The
// mean of the estimates over sessions must also lie within 3 standard errors of the exact value.
// Exit 1 if any case fails. Label `validation`.
//   build/tests/validate_placement_coverage [sessions]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "coverage_study.hpp"
#include "mcpilot/session.hpp"
#include "placement/exact_study.hpp"
#include "placement/placement_model.hpp"

namespace {

using namespace mcpilot;
using namespace mcpilot::validation;

struct study {
  std::string label;
  std::vector<setting> values;
  std::string quantity;
};

int sessions = 200;

bool run_study(const study& s) {
  placement::placement_model m;
  const model_spec spec = configure(m, s.values);
  const double exact = m.analytic().at(s.quantity);
  return check_coverage(m, spec, {s.label, s.quantity, exact, std::nullopt}, sessions);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) sessions = std::atoi(argv[1]);
  using I = std::int64_t;
  const auto S = [](const char* s) { return param_value(std::string(s)); };
  const std::vector<study> studies = {
      {"PG(2,3) t=2, 4 failed, groups lost",
       {{"design", S("pg2")}, {"order", I{3}}, {"tolerance", I{2}}, {"failed", I{4}}},
       "groups_lost"},
      {"STS(99) t=2, 4 failed",
       {{"design", S("sts")}, {"devices", I{99}}, {"tolerance", I{2}}, {"failed", I{4}}},
       "loss"},
      {"random(15,3) t=2, 5 failed",
       {{"design", S("random")},
        {"devices", I{15}},
        {"group_size", I{3}},
        {"tolerance", I{2}},
        {"failed", I{5}}},
       "loss"},
      {"Fano t=1 independent p=0.1",
       {{"design", S("fano")},
        {"tolerance", I{1}},
        {"scenario", S("independent")},
        {"failure_probability", 0.1}},
       "loss"},
      {"Fano t=1 lifetime (Markov) MTTDL",
       {{"design", S("fano")},
        {"tolerance", I{1}},
        {"scenario", S("lifetime")},
        {"mission_hours", 500.0},
        {"lifetime.mean_hours", 1000.0},
        {"repair.mean_hours", 50.0}},
       "mttdl_hours"},
  };
  bool ok = true;
  for (const auto& c : placement::exact_cases()) {
    std::vector<setting> values;
    for (const auto& [name, value] : c.values) values.push_back({name.c_str(), value});
    ok = run_study({c.label, values, c.quantity}) && ok;
  }
  for (const auto& s : studies) ok = run_study(s) && ok;
  return ok ? 0 : 1;
}
