// Numbers and durations as text: the shortest round-trip form of a double, and the duration that
// progress lines and the sweep's estimate print. Expected strings are printf's and to_chars's own
// (C11 7.21.6.1 for %g; the shortest representation for to_chars).
#include <gtest/gtest.h>

#include <charconv>
#include <limits>
#include <string>

#include "mcpilot/number_text.hpp"

namespace MCPILOT_TEST_FILE {

using mcpilot::duration_text;
using mcpilot::number_text;

TEST(NumberText, ShortestTextReadsBackAsTheSameDouble) {
  EXPECT_EQ(number_text(1e-9), "1e-09");
  EXPECT_EQ(number_text(-0.0), "-0");
  EXPECT_EQ(number_text(2.5), "2.5");
  EXPECT_EQ(number_text(0.1 + 0.2), "0.30000000000000004");
  for (const double x : {0.002750851, 1.0 / 3.0, 6.02214076e23}) {
    const std::string text = number_text(x);
    double back = 0;
    std::from_chars(text.data(), text.data() + text.size(), back);
    EXPECT_EQ(back, x) << text;
  }
}

TEST(NumberText, DurationsKeepTwoDigitsInTheirUnit) {
  EXPECT_EQ(duration_text(0.53), "0.53 s");
  EXPECT_EQ(duration_text(52), "52 s");
  EXPECT_EQ(duration_text(59.4), "59 s");
  // 100-119 s had read "1e+02 s" and "1.2e+02 s" when minutes began at 120 s.
  EXPECT_EQ(duration_text(119), "2 min");
  EXPECT_EQ(duration_text(90), "1.5 min");
  EXPECT_EQ(duration_text(840), "14 min");
  EXPECT_EQ(duration_text(8280), "2.3 h");
  EXPECT_EQ(duration_text(360000), "100 h");
  EXPECT_LT(duration_text(std::numeric_limits<double>::max()).size(), 16u);
}

}  // namespace MCPILOT_TEST_FILE
