#include "mcpilot/measure/clock.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mcpilot {

clock_calibration calibrate_clock(double spin_ns, double floor_ns) {
  using clock = measurement_clock;
  clock_calibration c;
  // Resolution: the smallest positive difference between two successive reads. A coarse clock
  // repeats its value many times between ticks; a fine one differs every time by about the read
  // cost. Either way the minimum step over many pairs is what a single interval can resolve.
  double best = std::numeric_limits<double>::infinity();
  const auto start = clock::now();
  auto previous = start;
  std::uint64_t calls = 0;
  while (true) {
    const auto now = clock::now();
    ++calls;
    const double step = std::chrono::duration<double, std::nano>(now - previous).count();
    if (step > 0) best = std::min(best, step);
    previous = now;
    if (std::chrono::duration<double, std::nano>(now - start).count() >= spin_ns) break;
  }
  // Read cost: the mean over a fixed run of back-to-back calls, timed as one interval. The run is
  // long (tens of thousands of calls) so that its own two reads do not matter; the minimum over a
  // few runs rejects runs in which the thread was descheduled.
  constexpr int runs = 5;
  constexpr std::uint64_t per_run = 20000;
  double cost = std::numeric_limits<double>::infinity();
  for (int r = 0; r < runs; ++r) {
    const auto t0 = clock::now();
    clock::time_point sink{};
    for (std::uint64_t i = 0; i < per_run; ++i) sink = std::max(sink, clock::now());
    const auto t1 = clock::now();
    calls += per_run + 2;
    if (sink < t0) continue;  // never: keeps the loop's reads from being optimised away
    cost = std::min(cost, std::chrono::duration<double, std::nano>(t1 - t0).count() / per_run);
  }
  c.resolution_ns = std::isfinite(best) ? best : 1;
  c.read_cost_ns = cost;
  c.samples = calls;
  c.min_batch_ns = std::max(reading_factor * std::max(c.resolution_ns, c.read_cost_ns), floor_ns);
  return c;
}

std::uint64_t next_batch(std::uint64_t measured_batch, double measured_ns, double target_ns,
                         double max_growth) {
  measured_batch = std::max<std::uint64_t>(measured_batch, 1);
  if (!(measured_ns > 0)) return static_cast<std::uint64_t>(measured_batch * max_growth);
  if (measured_ns >= target_ns) return measured_batch;
  // Aim 10% past the target, so that a reading a little faster than this one still reaches it.
  const double want = std::ceil(measured_batch * 1.1 * target_ns / measured_ns);
  const double capped = std::min(want, measured_batch * max_growth);
  return std::max<std::uint64_t>(measured_batch + 1, static_cast<std::uint64_t>(capped));
}

}  // namespace mcpilot
