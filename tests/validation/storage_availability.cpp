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
#include "storage/exact_study.hpp"
#include "storage/storage_model.hpp"

namespace {

using namespace mcpilot;
using namespace mcpilot::validation;

int sessions = 200;

bool run_study(const exact_case& s) {
  storage::storage_model m;
  std::vector<setting> values;
  for (const auto& [name, value] : s.values) values.push_back({name.c_str(), value});
  model_spec spec = configure(m, values);
  // The studied quantity decides when a session stops; the others are left optional.
  for (auto& q : spec.quantities()) q.required = q.name == s.quantity;
  return check_coverage(m, spec, {s.label, s.quantity, m.analytic().at(s.quantity), 0.2}, sessions);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) sessions = std::atoi(argv[1]);
  bool ok = true;
  for (const auto& s : storage::availability_cases()) ok = run_study(s) && ok;
  std::printf("%s\n", ok ? "all cases pass" : "SOME CASES FAIL");
  return ok ? 0 : 1;
}
