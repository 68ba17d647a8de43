#pragma once
// Transient outages and failure domains, as the simulation and the Markov chain see them.
//
// - A transient outage takes a working device down and brings it back with its data: a reboot, a
//   network partition, a power cut. Outages start on each working device that is not already down
//   as a Poisson process (`rate` per device-hour) and last a duration drawn from their law.
// - A failure domain (a rack, a power domain) holds several devices. A domain outage takes down
//   every working device in it until it ends (a device already down stays down until the later of
//   its two ends); a domain failure destroys every working device in it at once, and each is
//   rebuilt as after any failure.
// - Outages never lose data; only permanent failures (and latent errors) do. A device may fail
//   permanently while it is out (its wear does not stop), and the outage then ends with it.

#include "storage/durations.hpp"

namespace mcpilot::storage {

struct outage_law {
  double rate = 0;        // outages per working device-hour (per domain-hour for a domain); 0: none
  duration_law duration;  // exponential, deterministic or lognormal
  bool active() const { return rate > 0; }
};

struct domain_config {
  int count = 0;  // 0: no failure domains
  outage_law outage;
  double failure_rate = 0;  // domain failures per domain-hour
  bool active() const { return count > 0 && (outage.active() || failure_rate > 0); }
  // Device i of group g sits in domain (g * disks + i) mod count: groups are striped across the
  // domains, so a group of n devices in n domains has one device in each.
  int domain_of(int group, int disk, int disks) const { return (group * disks + disk) % count; }
};

}  // namespace mcpilot::storage
