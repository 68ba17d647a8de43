#pragma once
// Importance sampling on the explicit state of a storage system whose devices may share failure
// domains and go out for a while (exponential lifetimes, rebuilds, outages and domain events):
// the estimators of importance.hpp (walk_estimators.hpp) for loss, and the regenerative ratio of
// availability_importance.hpp for unavailability, where no chain small enough to enumerate
// covers the configuration. Device i of group g sits in domain (g x disks + i) mod domains, as in
// the naive simulation (outage_laws.hpp), so one domain event can hit several groups at once.
// Groups may also overlap (groups_of below: placement.design walks its layouts here for
// unavailability); device d then sits in domain d mod domains, as placement's simulation has it.
//
// The state is what the simulation keeps, with every law memoryless: which devices have failed,
// each group's rebuild queue (first in, first rebuilt, when rebuilds run one at a time), and the
// outages running, each with the devices it holds down. A device's own outage holds it alone; a
// domain outage holds the devices of the domain that were working when it began (a device
// rebuilt later comes back up, and a device that fails leaves every outage). A working device is
// out while some running outage holds it. That state is a Markov chain that regenerates when
// every device is up; no truncation is needed, since nothing is enumerated.
//
// Balanced failure biasing, in every state but all up: the moves toward unavailability or loss
// (a device failure, a domain failure, an outage starting on a device that is up, a domain outage
// taking down at least one device that is up) share probability `bias` equally; the moves back
// (a rebuild, an outage ending, a domain outage that only lengthens outages already running)
// share the rest in proportion to their rates. In all up, where every move leads down, and when a
// domain holds more than `tolerance` devices of a group, the domain events (failures and outages)
// share `bias` and the device events the rest: such a domain loses data (or makes it unavailable)
// in one jump, and at its natural odds (an enclosure at 10^-9 per hour beside two disks at 10^-6)
// that jump was drawn once in 2,000 cycles, so that a mirror in one enclosure took 2.9 million
// replications for +-5%. Where no domain can do that, all up keeps its natural odds: biasing it
// there cost RAID-6 in enclosures of 2 coverage (936/1000 against 951) for fewer replications,
// and two mirrors over two domains 21% more replications. For loss alone the outages are left out
// (they never lose data), and the walk is the chain of failed devices with domain failures as one
// more kind of failure: an enclosure failure, 10^-7 per hour against 10^-6 for its disks, is
// proposed as often as any disk's, so the paths through it, which dominate the loss, are sampled.
// Each jump's likelihood ratio is original over biased probability, and the unbiasedness argument
// of importance.hpp holds word for word: it uses only that the walk is a Markov chain that
// regenerates at all up. Cost: each jump scans every device, domain and running outage.

#include <vector>

#include "mcpilot/rng.hpp"
#include "storage/availability_importance.hpp"

namespace mcpilot::storage {

struct domain_walk_rates {
  int groups = 1;
  int disks = 1;    // per group
  int domains = 1;  // divides groups x disks
  int tolerance = 0;
  double failure_rate = 0;         // lambda per device
  double domain_failure_rate = 0;  // per domain
  double repair_rate = 0;          // mu per rebuild; > 0, so that the cycles end
  bool parallel = true;            // each failed device rebuilt at mu, or one per group at a time
  double rebuild_error = 0;        // h, on a failure that leaves a group exactly `tolerance` failed
  double outage_rate = 0;          // alpha per device that is up
  double outage_end = 0;           // beta = 1 / mean outage
  double domain_outage_rate = 0;   // alpha_d per domain
  double domain_outage_end = 0;    // beta_d = 1 / mean domain outage
  double bias = 0.5;
  // Groups that overlap, a device serving several (placement.design's layouts): the groups of
  // each device, whose size is then the number of devices; `disks` is unused, rebuilds must run
  // in parallel, and a lost group's devices all come back as new, for every group they serve.
  // Null: group g holds devices g x disks ... g x disks + disks - 1.
  const std::vector<std::vector<int>>* groups_of = nullptr;
  // With groups_of: some domain holds more than `tolerance` devices of one group.
  bool domain_loses_at_once = false;
};

// A reading of E[cycle length] (discrete-time conversion), as cycle_hours.
double domain_cycle_hours(const domain_walk_rates& s, philox_stream& rng);
// A reading of P(a cycle ends in loss), as cycle_loss_weight.
double domain_cycle_loss_weight(const domain_walk_rates& s, philox_stream& rng);
// A reading of P(loss by t) from all up, as mission_loss_weight.
double domain_mission_loss_weight(const domain_walk_rates& s, double t, philox_stream& rng);
// 1 if loss by t under the original dynamics, else 0 (for tests).
double domain_mission_loss_plain(const domain_walk_rates& s, double t, philox_stream& rng);

// The long-run unavailability of the system (some group's data unavailable), a lost group
// replaced at once by a new one, all up. Cycles run from all up to all up.
// A reading of E[cycle length], holding times replaced by their means given the states visited.
double domain_availability_cycle_hours(const domain_walk_rates& s, philox_stream& rng);
// Readings of E[time unavailable in a cycle] and E[entries into unavailability in a cycle] from
// one cycle under balanced failure biasing, as availability_cycle_weights.
availability_weights domain_availability_weights(const domain_walk_rates& s, philox_stream& rng);

}  // namespace mcpilot::storage
