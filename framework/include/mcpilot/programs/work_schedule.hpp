#pragma once
// The work amounts of a %WORK_AMOUNT% session, in the order the seed's WPS procedure gives them
// (docs/bench.md, "Work amount"): first a ramp, whose runs each take a fixed step of seconds
// longer than the one before, so that a first estimate comes within a time budget; then ladders
// from the smallest to the largest amount, each in a fresh seeded order, each ladder's spacing
// half the last one's, so that the amounts spread over the whole range and fill it in as runs
// accumulate.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mcpilot/rng.hpp"

namespace mcpilot::programs {

class work_schedule {
 public:
  // The ramp's runs after the first (which runs the smallest amount and sizes the others).
  static constexpr std::size_t ramp_length = 10;
  // Refinements of the first ladder's spacing: down to an eighth of it. Each one adds the
  // midpoints of the last ladder; beyond this the ladders stay as they are.
  static constexpr std::size_t refinements = 3;

  // Amounts are whole numbers (the command receives them as integers) from initial to max.
  // levels: the first ladder's amounts, >= 2. ramp_seconds: the ramp's budget B; <= 0 skips the
  // ramp. seed: the ladders' order.
  work_schedule(double initial, double max, std::size_t levels, double ramp_seconds,
                std::uint64_t seed);

  // The amount of the next run. After the first, needs the duration of each run given to
  // record() before the next call (the ramp is sized from the first run's).
  double next();
  void record(double seconds);

  // The ramp's amounts, the first run's included; 0 when the ramp is off (ramp_seconds <= 0).
  std::size_t ramp_runs() const { return ramp_seconds_ > 0 ? ramp_.size() : 0; }
  bool ramp_done() const { return ramp_done_; }
  // Ladders run to their end after the ramp.
  std::size_t ladders_done() const { return ladders_done_; }
  // The amounts of the k-th ladder (0 = the first), ascending: whole numbers, duplicates merged.
  std::vector<double> ladder(std::size_t k) const;

 private:
  void plan_ramp(double first_seconds);

  double initial_, max_;
  std::size_t levels_;
  double ramp_seconds_;
  philox_stream rng_;
  std::vector<double> ramp_;  // the ramp's amounts, planned after the first run
  std::size_t given_ = 0;     // the ramp's amounts handed out
  std::size_t recorded_ = 0;  // durations received
  bool ramp_done_ = false;
  std::vector<double> current_;  // the ladder under way, in its run order
  std::size_t at_ = 0;           // its next amount
  std::size_t ladders_started_ = 0, ladders_done_ = 0;
};

}  // namespace mcpilot::programs
