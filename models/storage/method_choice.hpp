#pragma once
// `method = "auto"`: importance sampling when data loss is rare under the configuration, naive
// simulation otherwise, decided at configuration from an approximate Markov chain and said in the
// output (model_facts) with the reason.
//
// The approximation keeps the chain of group_chain.hpp and replaces each law by an exponential:
// - failures at rate Lambda(T) / T per disk (the lifetime's cumulative hazard over the mission,
//   averaged; exactly 1 / mean for an exponential law), or 1 / mean without a mission;
// - rebuilds at rate 1 / (mean rebuild);
// - latent defects folded into the rebuild-error probability of the critical failure: a working
//   disk carries a defect with probability about 1 - exp(-rate x D), D = half the scrub interval
//   (half the disk's mean life, or of the mission if shorter, without scrubs), so
//   h' = 1 - (1 - h) (1 - that)^(disks - tolerance).
// It is a rough guide to the order of magnitude, never reported as an estimate.
//
// Rule: with a mission, importance when the approximate P(loss in mission) is below 1e-3 (naive
// would need more than ~4e5 missions for +-10%); without one, importance when the approximate
// number of disk failures per data loss exceeds 1e3 and the laws allow its MTTDL estimator.

#include <optional>
#include <string>

#include "storage/group_simulation.hpp"

namespace mcpilot::storage {

struct method_choice {
  bool importance = false;
  std::string reason;
  double approximate_loss = -1;  // the approximate P(loss in mission); < 0 if not computed
};

// `mttdl_by_importance`: whether the laws allow the regenerative MTTDL estimator (exponential
// lifetimes and rebuilds, no latent errors).
method_choice choose_method(const group_config& g, int groups, std::optional<double> mission,
                            bool mttdl_by_importance);

// Disk failures the approximate chain above (without a mission) puts before the system's first
// data loss: what one naive replication, which runs each group to its loss for mttdl_hours,
// simulates. nullopt when the chain cannot be solved. O(groups x states).
std::optional<double> approximate_failures_per_loss(const group_config& g, int groups);

// Missions that naive simulation needs for a relative half-width `half` at 95% when the
// probability is p: (1.96 / half)^2 (1 - p) / p.
double naive_missions_needed(double p, double half = 0.1);

}  // namespace mcpilot::storage
