#include "exact_study.hpp"

#include "mojette_model.hpp"

namespace mcpilot::mojette {

// Two of the validation program's cases (tests/validation/mojette_coverage.cpp), the Katz
// criterion over all survivor sets and the lifetime scenario's Markov chain for loss, and the
// chain over servers up and out for unavailability under outages. The last uses the loss case's
// servers, so that loss_in_mission, which every session also waits for, is not rare; its exact
// value is checked against scipy in tests/unit/mojette_unavailability_exact_test.cpp. Timing is
// off: it measures, it has no exact value.
validation_study exact_study() {
  std::vector<exact_case> cases = {
      {"rozofs-4-6, servers failing with probability 0.1 (Katz over all survivor sets)",
       {{"timing", false}, {"failure_probability", 0.1}},
       "unrecoverable",
       0.2},
      {"rozofs-4-6 lifetime, serial rebuilds (Markov chain)",
       {{"timing", false},
        {"scenario", param_value(std::string("lifetime"))},
        {"lifetime.mean_hours", 100.0},
        {"repair.mean_hours", 20.0},
        {"mission_hours", 200.0}},
       "loss_in_mission",
       0.1},
      {"rozofs-4-6 lifetime with server outages, serial rebuilds (unavailability, Markov chain)",
       {{"timing", false},
        {"scenario", param_value(std::string("lifetime"))},
        {"lifetime.mean_hours", 100.0},
        {"repair.mean_hours", 20.0},
        {"mission_hours", 200.0},
        {"outage.rate_per_hour", 0.02},
        {"outage.mean_hours", 10.0}},
       "unavailability",
       0.1},
  };
  return exact_value_study(
      "mojette-exact",
      "mojette.layout's estimates: sessions cover the exact probability that a block cannot be "
      "rebuilt, the exact loss within a mission, and the exact unavailability under outages",
      [] { return std::make_unique<mojette_model>(); }, std::move(cases), 40, 200);
}

}  // namespace mcpilot::mojette
