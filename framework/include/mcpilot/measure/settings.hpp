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
};

}  // namespace mcpilot
