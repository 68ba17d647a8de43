#pragma once
// What rebuilding one failed device costs, from the layout alone.
//
// Every group stores one chunk on each of its k devices; chunks are the same size everywhere,
// c = device_bytes · v / (b k), so that a device holds device_bytes on average (exactly, in a
// design). A lost chunk is decoded from k − t surviving chunks of its group (an MDS code; for
// RAID-5 and replication that is every survivor, or one copy), and the reading is spread evenly
// over the group's k − 1 survivors: each reads c (k − t)/(k − 1). Participant e of the rebuild of
// d therefore reads L_e = n_de · c (k − t)/(k − 1), n_de the groups d and e share.
//
// - declustered: all of d's groups are rebuilt at once; each participant reads at
//   bandwidth_bytes_per_hour, so the rebuild takes max_e L_e / bandwidth.
// - not declustered: one group after another, each from its own k − 1 survivors, so it takes
//   r_d · c (k − t)/(k − 1) / bandwidth.
//
// The declustering gain is the ratio of the two; for a BIBD every other device shares λ groups
// with d, so it is r/λ = (v − 1)/(k − 1), and for disjoint clusters it is 1. Writes (to spare
// space or a new device) and concurrent failures are not modelled: see docs/models/placement.md.

#include <vector>

#include "placement/layout.hpp"

namespace mcpilot::placement {

struct rebuild_settings {
  double device_bytes = 0;
  double bandwidth_bytes_per_hour = 1;
  bool declustered = true;
  int tolerance = 1;
};

struct device_rebuild {
  double hours = 0;               // 0 for a device that holds no group
  double serial_hours = 0;        // one group at a time (the not-declustered time)
  double parallel_hours = 0;      // all groups at once (the declustered time)
  double max_over_mean_load = 1;  // busiest participant's reads over the participants' mean
  int participants = 0;           // devices that share a group with d
  int groups = 0;                 // r_d: the groups on d
  int most_shared = 0;            // the most groups d shares with one participant
};

// One entry per device. O(v · r k).
std::vector<device_rebuild> rebuild_of_devices(const layout& l, const rebuild_settings& s);

// The hours one shared group adds to a participant's reads: c (k − t)/(k − 1) / bandwidth. Every
// time above is an integer count times this unit, so a mean over devices, (Σ counts / v) × unit,
// equals the common value exactly when all devices agree (as in a design).
double hours_per_shared_group(const layout& l, const rebuild_settings& s);

// The mean of `hours` over devices, computed that way.
double mean_rebuild_hours(const layout& l, const rebuild_settings& s,
                          const std::vector<device_rebuild>& r);

}  // namespace mcpilot::placement
