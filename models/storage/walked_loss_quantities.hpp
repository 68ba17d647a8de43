#pragma once
// The loss quantities of importance sampling on a walked chain (walk_estimators.hpp), declared
// alike by the models that walk one: storage.group and placement.design.

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

}  // namespace mcpilot::storage
