#pragma once
// Durability in nines, shared by every model with a loss_in_mission (storage.group,
// placement.design, mojette.layout): -log10 of the annual loss probability.

#include <cmath>
#include <span>

#include "mcpilot/model.hpp"

namespace mcpilot::storage {

constexpr double hours_per_year = 8766;  // 365.25 days

// -log10 q, q the annual probability with (1 - q)^(T / year) = 1 - p for p = P(loss within
// mission_hours): a constant hazard over the mission, exact for a one-year mission. Monotone in
// p; +infinity at p = 0.
inline double durability_nines(double loss_in_mission, double mission_hours) {
  const double q = -std::expm1(hours_per_year / mission_hours * std::log1p(-loss_in_mission));
  return -std::log10(q);
}

// The optional derived quantity durability_nines of loss_in_mission (delta-method interval).
inline void declare_durability_nines(model_spec& s, double mission_hours) {
  s.derived(
       "durability_nines", {"loss_in_mission"},
       [mission_hours](std::span<const double> m) { return durability_nines(m[0], mission_hours); })
      .optional()
      .describe(
          "-log10 of the annual loss probability, from loss_in_mission by a constant hazard over "
          "the mission (exact for a one-year mission); interval by the delta method");
}

}  // namespace mcpilot::storage
