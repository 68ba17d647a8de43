#pragma once
// Direct (naive) simulation of one redundancy group with any lifetime and rebuild laws, latent
// sector errors and scrubbing: the model itself, event by event.
//
// Rules:
// - At time 0 every disk is new. A disk's lifetime is drawn when it enters service; a rebuilt
//   disk is a new disk (renewal), so Weibull wear-out starts again.
// - A failed disk waits for its rebuild. One rebuild at a time (first come, first served), or
//   all in parallel; each rebuild's duration is drawn when it starts. With no repair, failed
//   disks stay failed.
// - Data is lost when a failure leaves more than `tolerance` disks failed; or when a failure
//   leaves exactly `tolerance` failed (no redundancy left) and
//     - the critical rebuild hits an unrecoverable read error (probability
//       rebuild_error_probability, decided at that moment), or
//     - a working disk carries a latent sector error, which no redundancy can now repair.
//   A latent error that appears while no redundancy is left is not counted (Elerath and Pecht's
//   two paths to loss are failure-then-failure and defect-then-failure); read errors met by the
//   critical rebuild are what rebuild_error_probability models.
// - Latent sector errors arrive on each working disk as a Poisson process (rate per hour). A
//   disk with one is "defective" until the next scrub or until it fails; more errors on it change
//   nothing. Scrubs sweep every disk at once every scrub.interval_hours (from time 0) and clear
//   all latent errors; without a scrub interval they stay until the disk is replaced. A rebuilt
//   disk is written afresh, without latent errors.
//
// This is the Elerath-Pecht / HFRS picture of a group: operational failures plus latent defects,
// where a defect is harmful only when an operational failure removes the last redundancy while
// it is present. (With tolerance 0 there is no such failure: the model rejects latent errors
// there.)

#include <limits>
#include <utility>
#include <vector>

#include "mcpilot/rng.hpp"
#include "storage/durations.hpp"
#include "storage/outage_laws.hpp"

namespace mcpilot::storage {

struct group_config {
  int disks = 0;
  int tolerance = 0;
  duration_law lifetime;
  duration_law repair;  // kind::none: no repair
  bool parallel = false;
  double rebuild_error = 0;
  double latent_rate = 0;     // per disk-hour
  double scrub_interval = 0;  // 0: no scrubbing
  outage_law outage;          // transient outages of single devices (outage_laws.hpp)
};

// A time interval [first, second), hours.
using period = std::pair<double, double>;

// One group's history, advanced in steps: a system of several groups advances each to a common
// horizon, doubling it until some group has lost data, so that no group is followed far past the
// system's first loss. Draws from `rng` as it goes; keep both alive together.
class group_process {
 public:
  group_process(const group_config& g, philox_stream& rng);
  // Runs on to `horizon`: the time of data loss if it happens by then (the process stops there),
  // else +infinity (the next event, past the horizon, is kept for the next call). O(disks) per
  // event; events are failures, rebuilds, latent errors and scrubs.
  double advance(double horizon);

  // A domain event at time t, which the caller has advanced every group to: `disks` (of this
  // group) go down until `until` (a disk already out stays out until the later end; a failed disk
  // is unaffected), or fail at t (processed by the next advance()).
  void take_out(double t, const std::vector<int>& disks, double until);
  void destroy(double t, const std::vector<int>& disks);

  double loss_time() const { return lost_; }
  // The periods during which this group's data was unavailable though not lost (more than
  // `tolerance` disks down, failed or out), clipped to [0, end]. Exact up to the time advanced to.
  std::vector<period> unavailable_until(double end) const;

 private:
  double next_latent_after(double t);
  double next_outage_after(double t);
  // Opens or closes the current unavailable period after a change of state at t.
  void note(double t);
  void note_loss(double t);

  const group_config& g_;
  philox_stream& rng_;
  std::vector<double> fail_at_;  // per disk: its failure time while working, +inf while failed
  std::vector<double> done_at_;  // parallel rebuilds: completion per failed disk, +inf otherwise
  std::vector<int> queue_;       // one rebuild at a time: failed disks, head first
  std::size_t head_ = 0;
  double rebuild_end_;           // the head's rebuild
  std::vector<char> defect_;     // latent error on a working disk
  std::vector<double> back_at_;  // per disk: end of its outage while out, +inf otherwise
  int failed_ = 0, defects_ = 0, out_ = 0;
  double next_outage_;
  double down_since_;  // start of the current unavailable period, +inf when available
  std::vector<period> unavailable_;
  double next_latent_, next_scrub_;
  double lost_;  // the loss time once it happened
};

// Time of data loss of one group, or +infinity if none happens by `horizon`.
double simulate_group(const group_config& g, philox_stream& rng,
                      double horizon = std::numeric_limits<double>::infinity());

}  // namespace mcpilot::storage
