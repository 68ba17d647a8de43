#include "exact_study.hpp"

#include "placement_model.hpp"

namespace mcpilot::placement {

// Eight cases, shared with the validation program (tests/validation/placement_coverage.cpp), one
// per route to an exact value: a count over all failure sets of one design, a block design with a
// larger tolerance, the Markov chain of the lifetime scenario, without and with rack failures,
// the importance walk against the chain and against a closed form, and the long-run
// unavailability by importance against the exact availability chain and against scipy's.
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
      // method = importance: the walk of failed devices, on a rare loss the chain also solves,
      // and beyond the chain's reach against the closed form of placement_importance_test.cpp
      // (scipy's expm of the 3-state generator agrees to 1e-12).
      {"AG(2,3), tolerance 2, independent servers, MTTDL 4.8e10 h (importance, Markov chain)",
       {{"design", S("ag2")},
        {"order", I{3}},
        {"tolerance", I{2}},
        {"scenario", S("lifetime")},
        {"mission_hours", 8766.0},
        {"lifetime.mean_hours", 1e5},
        {"repair.mean_hours", 24.0},
        {"method", S("importance")}},
       "mttdl_hours",
       {}},
      {"PG(2,11), tolerance 1, 133 devices in 7 racks (importance, closed form)",
       {{"design", S("pg2")},
        {"order", I{11}},
        {"tolerance", I{1}},
        {"scenario", S("lifetime")},
        {"mission_hours", 8766.0},
        {"lifetime.mean_hours", 1e6},
        {"repair.mean_hours", 10.0},
        {"domains.count", I{7}},
        {"domains.failure_rate_per_hour", 1e-7},
        {"method", S("importance")}},
       "loss_in_mission",
       {},
       0.00764001342987058},
      // The long-run unavailability by importance, against the exact chain of
      // storage/down_out_chain.hpp and, with rack outages beyond that chain, against scipy's
      // (tests/unit/placement_availability_test.cpp).
      {"Fano, tolerance 1, server outages, long-run unavailability 3.8e-6 (importance, exact "
       "chain)",
       {{"design", S("fano")},
        {"tolerance", I{1}},
        {"scenario", S("lifetime")},
        {"mission_hours", 8766.0},
        {"lifetime.mean_hours", 1e5},
        {"repair.mean_hours", 24.0},
        {"outage.rate_per_hour", 1e-3},
        {"outage.mean_hours", 0.25},
        {"method", S("importance")}},
       "unavailability",
       0.2},
      {"AG(2,3), tolerance 1, rack outages of whole groups, long-run unavailability (importance, "
       "scipy)",
       {{"design", S("ag2")},
        {"order", I{3}},
        {"tolerance", I{1}},
        {"scenario", S("lifetime")},
        {"mission_hours", 8766.0},
        {"lifetime.mean_hours", 1e4},
        {"repair.mean_hours", 24.0},
        {"domains.count", I{3}},
        {"domains.failure_rate_per_hour", 1e-5},
        {"domains.outage_rate_per_hour", 1e-4},
        {"domains.outage_mean_hours", 1.0},
        {"method", S("importance")}},
       "unavailability",
       {},
       2.999365544058885e-4},
  };
}

validation_study exact_study() {
  return exact_value_study(
      "placement-exact",
      "placement.design's estimates: sessions of eight placements cover the exact loss "
      "probability, MTTDL or unavailability (a count over all failure sets, the lifetime "
      "scenario's Markov chain with and without rack failures, importance sampling of rare "
      "losses against the chain and a closed form, and of the long-run unavailability against "
      "the availability chain and scipy's)",
      [] { return std::make_unique<placement_model>(); }, exact_cases(), 40, 200);
}

}  // namespace mcpilot::placement
