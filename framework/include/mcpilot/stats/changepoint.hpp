#pragma once
// Warm-up and cool-down detection: binary segmentation proposes change-points, an exact rank test
// on subsession means keeps only those whose neighbouring segments really differ.

#include <cstddef>
#include <span>
#include <vector>

namespace mcpilot {

struct changepoint_options {
  double alpha = 0.01;                 // a candidate stays while p <= alpha / n
  std::size_t min_segment = 30;        // no segment shorter than this many readings
  double autocorrelation_limit = 0.2;  // for the subsession means the test compares
};

struct changepoint_result {
  std::size_t n = 0;
  std::vector<std::size_t> changepoints;  // indices where a new segment starts, ascending
  std::vector<double> p_values;           // exact p-value of each kept change-point
  std::size_t stable_begin = 0;           // the longest segment, half-open [begin, end)
  std::size_t stable_end = 0;
  bool accepted = false;  // the stable segment holds more than half of the readings
};

changepoint_result detect_changepoints(std::span<const double> x,
                                       const changepoint_options& options = {});

}  // namespace mcpilot
