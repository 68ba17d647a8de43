#pragma once
// The clock a measurement reads, measured once per session: how fine it is and what one reading
// of it costs. A reading times a batch long enough that both are negligible against it.

#include <chrono>
#include <cstdint>

namespace mcpilot {

using measurement_clock = std::chrono::steady_clock;

struct clock_calibration {
  double resolution_ns = 0;   // smallest positive step seen between successive now() calls
  double read_cost_ns = 0;    // mean cost of one now() call, from a run of back-to-back calls
  std::uint64_t samples = 0;  // now() calls the calibration made
  double min_batch_ns = 0;    // what one reading must last: reading_factor x the larger of the
                              // two, or the floor asked for when that is longer
};

// How many times the resolution (or the read cost, when larger) a reading must last.
inline constexpr double reading_factor = 1000;

// Spins on the clock for about `spin_ns` in all (a few milliseconds is plenty). O(spin_ns).
// `floor_ns`: a reading lasts at least this long whatever the clock (experiment.min_reading_ms).
clock_calibration calibrate_clock(double spin_ns = 5e6, double floor_ns = 0);

// The batch size that makes a reading last at least `target_ns`, given that one batch of
// `measured_batch` operations took `measured_ns`. Never less than 1; grows at most `max_growth`
// times per step, so that one slow first reading does not ask for a huge batch. Pure.
std::uint64_t next_batch(std::uint64_t measured_batch, double measured_ns, double target_ns,
                         double max_growth = 8);

}  // namespace mcpilot
