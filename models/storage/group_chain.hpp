#pragma once
// The Markov model of redundancy groups with exponential lifetimes and repairs: the exact answer
// the simulations are checked against, and the chain the importance sampler walks.
//
// One group of n disks tolerating m failures: states 0..m count failed disks, and a failure in
// state m loses data. Failure rate (n - i) lambda; repair mu with one rebuild at a time, i mu
// with all failed disks rebuilt in parallel. With rebuild-error probability h, a failure that
// takes the group into state m (no redundancy left) starts a rebuild that must read every
// surviving sector and fails with probability h: that failure goes to loss with probability h.
// For RAID-5 (m = 1) this gives MTTDL = [(n-1)l + mu + n l (1-h)] / (n l [(n-1) l + mu h]).
// A system of G independent identical groups loses data at the first group's loss.

#include <cstddef>

#include "storage/birth_death.hpp"

namespace mcpilot::storage {

struct group_rates {
  int disks = 0;
  int tolerance = 0;
  double failure_rate = 0;  // lambda per disk, 1/h
  double repair_rate = 0;   // mu per rebuild, 1/h; 0 = no repair
  bool parallel = false;
  double rebuild_error = 0;  // h
};

birth_death group_chain(const group_rates& g);

// Mean time to data loss of a system of `groups` groups, all disks new at time 0. Exact (see
// mean_first_absorption for the accuracy with more than one group).
double system_mttdl(const group_rates& g, std::size_t groups);

// P(data loss by t) of `groups` groups: 1 - (1 - p)^G with p one group's, computed as
// -expm1(G log1p(-p)). p by uniformization while L t <= 2e6 jumps, otherwise from the spectrum.
double system_loss_by(const group_rates& g, std::size_t groups, double t);

}  // namespace mcpilot::storage
