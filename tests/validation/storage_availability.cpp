// Coverage study of storage.group's availability quantities (issue 38): for each case, sessions
// with seeds 1..R run to their precision on the studied quantity, and we count how often the 95%
// interval holds the exact value (the availability chain's, checked against exact fractions in
// tests/unit/storage_availability_test.cpp). Floor 0.95 - 3 sqrt(0.95 x 0.05 / R) (0.904 at
// R = 200), target 0.93; the mean estimate within 3 standard errors of the exact value. Exit 1 if
// any case fails. Label `validation`. Figures in docs/validation.md.
#include <cstdio>
#include <string>
#include <vector>

#include "coverage_study.hpp"
#include "mcpilot/session.hpp"
#include "storage/storage_model.hpp"

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
  storage::storage_model m;
  model_spec spec = configure(m, s.values);
  // The studied quantity decides when a session stops; the others are left optional.
  for (auto& q : spec.quantities()) q.required = q.name == s.quantity;
  return check_coverage(m, spec, {s.label, s.quantity, m.analytic().at(s.quantity), 0.2}, sessions);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) sessions = std::atoi(argv[1]);
  using I = std::int64_t;
  const std::vector<study> studies = {
      {"importance 3-way, outages 15 min at 1e-4",
       {{"disks", I{3}},
        {"tolerance", I{2}},
        {"lifetime.mean_hours", 1e5},
        {"repair.mean_hours", 1.0},
        {"repair.parallel", true},
        {"outage.rate_per_hour", 1e-4},
        {"outage.mean_hours", 0.25},
        {"method", std::string("importance")}},
       "unavailability"},
      {"importance 3 mirrors, l=1 mu=10 a=2 b=5",
       {{"disks", I{2}},
        {"tolerance", I{1}},
        {"groups", I{3}},
        {"lifetime.mean_hours", 1.0},
        {"repair.mean_hours", 0.1},
        {"outage.rate_per_hour", 2.0},
        {"outage.mean_hours", 0.2},
        {"method", std::string("importance")}},
       "unavailability"},
      {"naive mirror with outages, mission 3",
       {{"disks", I{2}},
        {"tolerance", I{1}},
        {"lifetime.mean_hours", 1.0},
        {"repair.mean_hours", 0.1},
        {"outage.rate_per_hour", 2.0},
        {"outage.mean_hours", 0.2},
        {"mission_hours", 3.0}},
       "unavailability"},
  };
  bool ok = true;
  for (const auto& s : studies) ok = run_study(s) && ok;
  std::printf("%s\n", ok ? "all cases pass" : "SOME CASES FAIL");
  return ok ? 0 : 1;
}
