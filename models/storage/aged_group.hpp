#pragma once
// One redundancy group held as the importance sampler needs it: not as pre-drawn failure times
// (the naive simulation's view, group_simulation.hpp) but as what the history up to now says.
//
// - Each working disk is known only by its age: given that it has survived to age a, its
//   remaining life has survival exp(-(Lambda(a + x) - Lambda(a))), Lambda the cumulative hazard of
//   the lifetime law. So the time of the next failure among the working disks has survival
//   exp(-H(x)) with H(x) the sum of their hazard increments, and the disk that fails at x is
//   disk j with probability h_j(a_j + x) / sum_k h_k(a_k + x). Drawing failures this way is the
//   original law exactly, and it lets a step be conditioned on "a failure before w" or "none
//   before w", whose probabilities 1 - exp(-H(w)) and exp(-H(w)) are known in closed form.
// - Latent sector errors are Poisson per working disk and matter only at a failure that removes
//   the last redundancy, so they are not simulated as events: each disk keeps what has been
//   revealed of its defect state (at time known_at, defective or clean), and at such a failure a
//   disk is clean with probability exp(-rate x (t - since)), since = the latest of its service
//   start, the last scrub and a clean reveal. A defect revealed since the last scrub stays.
//   Scrubs are then nothing but the time floor(t / interval) x interval.
// - Rebuilds are drawn from their law when they start (not biased).
// The rules are those of group_simulation.hpp; only the representation differs.

#include <vector>

#include "mcpilot/rng.hpp"
#include "storage/group_simulation.hpp"

namespace mcpilot::storage {

class aged_group {
 public:
  explicit aged_group(const group_config& g);  // every disk new at time 0

  double now() const { return now_; }
  int failed() const { return failed_; }
  bool all_up() const { return failed_ == 0; }
  // The next rebuild completion, +infinity if none is under way.
  double next_rebuild() const;

  // H(x): the sum over working disks of their hazard increments over the next x hours; the
  // probability that none of them fails within x is exp(-H(x)). O(disks).
  double hazard_over(double x) const;
  // The x in [0, within] with H(x) = target (0 < target <= H(within)): safeguarded Newton on the
  // increasing function H, closed form for exponential lifetimes. O(disks) per iteration.
  double time_to_hazard(double target, double within) const;
  // A working disk chosen with probability proportional to its hazard rate now: given a failure
  // now, which disk it is. O(disks).
  int pick_failing(philox_stream& rng) const;

  void advance_to(double t) { now_ = t; }
  // Disk d fails now: its rebuild is queued (or started). Returns the probability that this
  // failure loses data given the history: 1 if more than `tolerance` disks are now failed; with
  // exactly `tolerance` failed (no redundancy left), 1 - (1 - h) x P(every working disk is free of
  // latent defects now); else 0. Draws the rebuild's duration if it starts.
  double fail(int d, philox_stream& rng);
  // After a failure that did not lose data with exactly `tolerance` failed: every working disk is
  // now known to be clean (the condition of that outcome).
  void reveal_clean();
  // The rebuild that ends now completes: that disk is new and clean; the next one starts.
  void complete_rebuild(philox_stream& rng);

 private:
  double clean_probability(std::size_t j) const;

  const group_config* g_;
  double now_ = 0;
  int failed_ = 0;
  std::vector<double> born_;  // service start of each disk; meaningful while it works
  std::vector<char> working_;
  std::vector<double> rebuild_end_;  // parallel rebuilds: per failed disk
  std::vector<int> queue_;           // one rebuild at a time: failed disks, head first
  std::size_t head_ = 0;
  double head_end_;
  std::vector<double> known_at_;  // latent errors: when the defect state was last revealed
  std::vector<char> defective_;
};

}  // namespace mcpilot::storage
