// The model families' studies share one loop: configure the model for each case, read the exact
// value it knows, and count the sessions whose interval holds it (coverage_sessions.cpp).

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include "coverage_sessions.hpp"
#include "mcpilot/validate.hpp"

namespace mcpilot {

namespace {

std::string six_digits(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

}  // namespace

model_spec configure_with(model& m,
                          const std::vector<std::pair<std::string, param_value>>& values) {
  model_spec base;
  m.declare(base);
  parameters p;
  for (const auto& s : base.parameter_specs())
    if (s.default_value) p.set(s.name, *s.default_value);
  for (const auto& [name, v] : values) {
    const auto* s = base.find_parameter(name);
    if (!s) throw std::invalid_argument("no parameter " + name);
    p.set(name, s->check(v));
  }
  m.configure(p);
  model_spec spec;
  m.declare(spec);
  return spec;
}

validation_study exact_value_study(std::string name, std::string guards,
                                   std::function<std::unique_ptr<model>()> make,
                                   std::vector<exact_case> cases, std::uint64_t quick_sessions,
                                   std::uint64_t full_sessions) {
  auto run = [make = std::move(make), cases = std::move(cases), quick_sessions, full_sessions](
                 study_size size, const study_progress& progress) {
    const std::uint64_t sessions = size == study_size::quick ? quick_sessions : full_sessions;
    study_outcome out;
    const double parts = static_cast<double>(cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const exact_case& c = cases[i];
      const std::unique_ptr<model> m = make();
      configure_with(*m, c.values);
      auto exact = m->analytic();
      if (c.known) exact[c.quantity] = *c.known;
      const auto it = exact.find(c.quantity);
      // A case without its exact value is a defect of the study, not a failed rate.
      if (it == exact.end()) throw std::logic_error(c.label + ": no exact value of " + c.quantity);
      precision p = *preset("normal");
      if (c.ci_perc) p.ci_perc = *c.ci_perc;
      const auto count = validation_detail::count_coverage(*m, c.quantity, it->second, p, sessions,
                                                           progress, static_cast<double>(i) / parts,
                                                           static_cast<double>(i + 1) / parts);
      out.rates.push_back({c.label + ": 95% intervals of " + c.quantity + " holding the exact " +
                               six_digits(it->second),
                           count.covered, count.sessions, 0.93, true,
                           "the project's coverage goal for a nominal 95% interval"});
      out.notes.push_back(
          c.label + ": " +
          std::to_string(static_cast<long long>(std::llround(count.mean_readings))) +
          " replications per session on average");
    }
    return out;
  };
  return {std::move(name), std::move(guards), std::move(run)};
}

}  // namespace mcpilot
