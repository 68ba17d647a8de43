#pragma once
// Importance sampling for one group whose devices share failure domains (exponential lifetimes
// and rebuilds): the estimators of importance.hpp (walk_estimators.hpp) on the chain of
// domain_chain.hpp, the failed count of each domain. Balanced failure biasing treats a domain
// failure as one more kind of failure: in every state but all up, failures as a whole get
// probability `bias`, shared equally among the kinds possible (a device failure in domain j, and
// the failure of domain j, for every j that still has a working device), repairs the rest in
// proportion to their rates. A domain failure, rare beside the devices' (10^-6 against 10^-5 per
// hour for a whole domain), is then proposed as often as any device failure, so the paths
// through it, which dominate the loss, are sampled; its likelihood ratio is original over biased
// probability, as for every jump, and the unbiasedness argument of importance.hpp holds word for
// word: it uses only that the walk is a Markov chain that regenerates at all up.

#include "mcpilot/rng.hpp"
#include "storage/domain_chain.hpp"

namespace mcpilot::storage {

struct domain_walk_rates {
  domain_group_rates group;  // repair_rate > 0: the cycles must end
  double bias = 0.5;
};

// A reading of E[cycle length] (discrete-time conversion), as cycle_hours.
double domain_cycle_hours(const domain_walk_rates& s, philox_stream& rng);
// A reading of P(a cycle ends in loss), as cycle_loss_weight.
double domain_cycle_loss_weight(const domain_walk_rates& s, philox_stream& rng);
// A reading of P(loss by t) from all up, as mission_loss_weight.
double domain_mission_loss_weight(const domain_walk_rates& s, double t, philox_stream& rng);
// 1 if loss by t under the original dynamics, else 0 (for tests).
double domain_mission_loss_plain(const domain_walk_rates& s, double t, philox_stream& rng);

}  // namespace mcpilot::storage
