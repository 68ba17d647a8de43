#include "exact_study.hpp"

#include "placement_model.hpp"

namespace mcpilot::placement {

// Four cases, shared with the validation program (tests/validation/placement_coverage.cpp), one
// per route to an exact value: a count over all failure sets of one design, a block design with a
// larger tolerance, and the Markov chain of the lifetime scenario, without and with rack failures.
std::vector<exact_case> exact_cases() {
  using I = std::int64_t;
  const auto S = [](const char* s) { return param_value(std::string(s)); };
  return {
      {"Fano, tolerance 2, 3 devices failed (1/5)",
       {{"design", S("fano")}, {"tolerance", I{2}}, {"failed", I{3}}},
       "loss",
       {}},
      {"PG(2,3), tolerance 3, 6 devices failed (3/11)",
       {{"design", S("pg2")}, {"order", I{3}}, {"tolerance", I{3}}, {"failed", I{6}}},
       "loss",
       {}},
      {"Fano, tolerance 1, lifetime (Markov chain)",
       {{"design", S("fano")},
        {"tolerance", I{1}},
        {"scenario", S("lifetime")},
        {"mission_hours", 500.0},
        {"lifetime.mean_hours", 1000.0},
        {"repair.mean_hours", 50.0}},
       "loss_in_mission",
       {}},
      {"AG(2,3), tolerance 1, lifetime with rack failures (Markov chain)",
       {{"design", S("ag2")},
        {"order", I{3}},
        {"tolerance", I{1}},
        {"scenario", S("lifetime")},
        {"mission_hours", 500.0},
        {"lifetime.mean_hours", 1000.0},
        {"repair.mean_hours", 50.0},
        {"domains.count", I{3}},
        {"domains.failure_rate_per_hour", 1e-4}},
       "loss_in_mission",
       {}},
  };
}

validation_study exact_study() {
  return exact_value_study(
      "placement-exact",
      "placement.design's estimates: sessions of four placements cover the exact loss "
      "probability (a count over all failure sets, and the lifetime scenario's Markov chain, "
      "with and without rack failures)",
      [] { return std::make_unique<placement_model>(); }, exact_cases(), 40, 200);
}

}  // namespace mcpilot::placement
