#pragma once
// The quantities of importance sampling on a walked chain (walk_estimators.hpp for loss,
// availability_importance.hpp and domain_walk.hpp for unavailability), declared alike by the
// models that walk one: storage.group and placement.design.

#include <cmath>
#include <optional>
#include <span>
#include <string>

#include "mcpilot/model.hpp"
#include "storage/nines.hpp"

namespace mcpilot::storage {

// cycle_hours and cycle_loss_probability (optional), mttdl_hours as their ratio (the regenerative
// estimator), and with a mission loss_in_mission and durability_nines. `what` names what is up in
// the all-up state ("disks", "devices").
inline void declare_walked_loss(model_spec& s, const std::string& what,
                                std::optional<double> mission) {
  s.quantity("cycle_hours")
      .with_unit("h")
      .optional()
      .describe("expected length of a regenerative cycle (from all " + what +
                " up until all up again or loss) given the states it visits; its mean is E[cycle "
                "length]");
  s.quantity("cycle_loss_probability")
      .optional()
      .describe(
          "1{loss} x likelihood ratio of a failure-biased cycle; its mean is P(a cycle ends in "
          "data loss)");
  s.derived("mttdl_hours", {"cycle_hours", "cycle_loss_probability"},
            [](std::span<const double> m) { return m[0] / m[1]; })
      .with_unit("h")
      .describe("mean time to data loss = E[cycle length] / P(cycle ends in loss)");
  if (!mission) return;
  s.quantity("loss_in_mission")
      .describe("per mission, the sum over its excursions from all " + what +
                " up of a failure-biased estimate of their chance of loss before the mission ends "
                "(importance sampling); its mean is P(loss within mission_hours)");
  declare_durability_nines(s, *mission);
}

// availability_cycle_hours, unavailable_hours_per_cycle and unavailable_entries_per_cycle
// (optional), and the long-run unavailability and unavailable_events_per_year derived from them
// by the regenerative ratio. `groups` > 1: the cycles are one group's of that many independent
// ones, which combine as 1 - (1 - u)^groups; 1: the cycles are the whole system's.
inline void declare_walked_availability(model_spec& s, double groups) {
  const bool system = groups == 1;
  s.quantity("availability_cycle_hours")
      .with_unit("h")
      .optional()
      .describe(system ? "expected length of a cycle of the system (from all devices up until all "
                         "up again) given the states it visits; its mean is E[cycle length]"
                       : "expected length of a cycle of one group's availability chain (from all "
                         "up until all up again or loss) given the states it visits; its mean is "
                         "E[cycle length]");
  s.quantity("unavailable_hours_per_cycle")
      .with_unit("h")
      .optional()
      .describe(
          "a failure-biased cycle's time in the unavailable states x likelihood ratio; its mean "
          "is E[time unavailable in a cycle]");
  s.quantity("unavailable_entries_per_cycle")
      .optional()
      .describe(
          "a failure-biased cycle's entries into unavailability x likelihood ratio; its mean is "
          "E[entries in a cycle]");
  const double G = groups;
  s.derived("unavailability", {"unavailable_hours_per_cycle", "availability_cycle_hours"},
            [G](std::span<const double> m) { return -std::expm1(G * std::log1p(-m[0] / m[1])); })
      .optional()
      .describe(system ? "long-run fraction of time some data is unavailable though not lost: "
                         "E[time unavailable in a cycle] / E[cycle] of the system, a lost group "
                         "replaced at once (steady state, importance sampling)"
                       : "long-run fraction of time some data is unavailable though not lost: 1 - "
                         "(1 - u)^groups with u = E[time unavailable in a cycle] / E[cycle] of one "
                         "group (steady state, importance sampling)");
  s.derived(
       "unavailable_events_per_year",
       {"unavailable_entries_per_cycle", "availability_cycle_hours", "unavailable_hours_per_cycle"},
       [G](std::span<const double> m) {
         const double u = m[2] / m[1];
         return G * std::pow(1 - u, G - 1) * m[0] / m[1] * hours_per_year;
       })
      .optional()
      .describe(
          "long-run periods of unavailability per year: a group entering it while the others "
          "are available (steady state, importance sampling)");
}

}  // namespace mcpilot::storage
