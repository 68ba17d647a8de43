// Readings that never vary get no interval, also when their value is not exactly summable: 10,000
// readings of 79.365079365079... (placement.design's rebuild time of a design, the same for every
// device) once gave sd ~ 1e-14 from the rounding of their sum, a zero-width interval, and a
// "not covered" beside the exact value.
#include <gtest/gtest.h>

#include <vector>

#include "mcpilot/stats/analysis.hpp"

TEST(StatsConstantReadings, NonDyadicConstantHasNoInterval) {
  const std::vector<double> readings(10'000, 500.0 / 6.3);
  mcpilot::analysis_options opt;
  const auto a = mcpilot::analyze(readings, opt);
  EXPECT_FALSE(a.ci_low.has_value());
  EXPECT_FALSE(a.converged);
  EXPECT_NE(a.status.find("no variation"), std::string::npos) << a.status;
}
