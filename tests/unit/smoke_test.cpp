#include <gtest/gtest.h>

#include "mcpilot/stats/summary.hpp"

TEST(Smoke, MeanOfThree) {
  const double x[] = {1, 2, 6};
  EXPECT_DOUBLE_EQ(mcpilot::mean(x), 3.0);
}
