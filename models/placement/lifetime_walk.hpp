#pragma once
// Importance sampling of the lifetime scenario's loss (method = importance): the chain of failed
// devices of any layout, walked under balanced failure biasing, with the regenerative and mission
// estimators of storage/walk_estimators.hpp (storage/importance.hpp says why they are unbiased;
// they use only that the walk is a Markov chain that regenerates when every device is up).
//
// The chain is exact_lifetime's (lifetime.hpp): exponential lifetimes at lambda per device, each
// failed device repaired at mu on its own, no rebuild time, and a domain failure (rate per domain)
// failing at once every device of its domain that is still working; device d sits in domain
// d mod count. Outages are left out: they never lose data. Unlike exact_lifetime nothing is
// enumerated, so any layout the model builds is walked (PG(2,31) has 993 devices).
//
// Biasing: in every state but all up, the moves toward loss (a working device failing, a domain
// with a working device failing) share probability `bias` equally, and the repairs share the rest
// equally (their rates are equal): balanced failure biasing. In the all-up state, where there is
// nothing to repair, and when a rack holds more than t devices of some group, the domain failures
// share `bias` and the device failures the rest: a rack failure that loses data at once is
// otherwise drawn at its natural odds (7 racks at 10^-7 per hour beside 133 devices at 10^-6: 1
// cycle in 190), and it is the loss's main path; balanced biasing alone, which leaves all up at
// those odds, estimated such a case no better than naive simulation would (storage/domain_walk.hpp
// biases all up the same way, and on the same condition). Each jump multiplies
// the likelihood ratio by original over biased probability, so every estimator stays unbiased. A
// jump costs O(r) for a device (its groups' counts) and O(r v / count) for a domain; the move is
// drawn in O(1).

#include <vector>

#include "mcpilot/rng.hpp"
#include "placement/layout.hpp"

namespace mcpilot::placement {

struct lifetime_walk_settings {
  const std::vector<std::vector<int>>* of = nullptr;  // groups of each device (groups_of_devices)
  int groups = 0;
  int tolerance = 1;
  double failure_rate = 0;  // lambda per device
  double repair_rate = 0;   // mu per failed device; > 0, so that the cycles end
  int domains = 0;          // 0: none
  double domain_failure_rate = 0;
  // Some domain holds more than `tolerance` devices of a group: then all up is biased too.
  bool domain_loses_at_once = false;
  double bias = 0.5;
};

// A reading of E[cycle length] (from all up to all up or loss), holding times replaced by their
// means given the states visited; its mean over P(a cycle ends in loss) is the MTTDL.
double lifetime_cycle_hours(const lifetime_walk_settings& s, philox_stream& rng);
// 1{the cycle ends in loss} x its likelihood ratio under failure biasing: mean P(cycle loses).
double lifetime_cycle_loss_weight(const lifetime_walk_settings& s, philox_stream& rng);
// An unbiased reading of P(loss by `mission` hours) from all up.
double lifetime_mission_loss_weight(const lifetime_walk_settings& s, double mission,
                                    philox_stream& rng);
// 1 if loss by `mission` under the original dynamics, else 0 (for tests).
double lifetime_mission_loss_plain(const lifetime_walk_settings& s, double mission,
                                   philox_stream& rng);

}  // namespace mcpilot::placement
