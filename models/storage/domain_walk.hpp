#pragma once
// Importance sampling for groups whose devices share failure domains (exponential lifetimes and
// rebuilds): the estimators of importance.hpp (walk_estimators.hpp) on the chain of which devices
// have failed. Device i of group g sits in domain (g x disks + i) mod domains, as in the naive
// simulation (outage_laws.hpp), so one domain failure can hit several groups at once. Rebuilds run
// in parallel (each failed device comes back at rate mu on its own), or the tolerance is at most
// 1 (at most one device of a group is failed before a loss, so one at a time is the same): either
// way the set of failed devices is a Markov chain, and it regenerates when every device is up.
//
// Balanced failure biasing treats a domain failure as one more kind of failure: in every state but
// all up, failures as a whole get probability `bias`, shared equally among the kinds possible (the
// failure of each working device, and of each domain that still has a working device), repairs
// the rest in proportion to their rates. A domain failure, rare beside the devices' (10^-6 against
// 10^-5 per hour for a whole domain), is then proposed as often as any device failure, so the
// paths through it, which dominate the loss, are sampled; its likelihood ratio is original over
// biased probability, as for every jump, and the unbiasedness argument of importance.hpp holds
// word for word: it uses only that the walk is a Markov chain that regenerates at all up.

#include "mcpilot/rng.hpp"

namespace mcpilot::storage {

struct domain_walk_rates {
  int groups = 1;
  int disks = 1;    // per group
  int domains = 1;  // divides groups x disks
  int tolerance = 0;
  double failure_rate = 0;         // lambda per device
  double domain_failure_rate = 0;  // per domain
  double repair_rate = 0;          // mu per failed device; > 0, so that the cycles end
  double rebuild_error = 0;        // h, on a failure that leaves a group exactly `tolerance` failed
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
