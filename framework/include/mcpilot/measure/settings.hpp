#pragma once
// What an experiment says about measuring ([experiment] cpu and counters); used by measurement
// models only.

#include <optional>
#include <string>
#include <vector>

namespace mcpilot {

struct measurement_settings {
  std::optional<int> cpu;             // experiment.cpu; none: the CPU the session starts on
  std::vector<std::string> counters;  // experiment.counters, perf's names
  // experiment.min_reading_ms (default_min_reading_ms): the shortest a calibrated reading may last,
  // on top of the clock's own floor. The default is the sorting peer's protocol (batches doubled
  // until one took 2 ms): a reading much shorter than the scheduler's tick is either untouched by
  // an interrupt or doubled by one, and the session then needs so many readings that it runs long
  // enough to see the machine's slow shifts as change-points (docs/models/sorting.md, "This
  // machine").
  std::optional<double> min_reading_ms;
};

inline constexpr double default_min_reading_ms = 2;

}  // namespace mcpilot
