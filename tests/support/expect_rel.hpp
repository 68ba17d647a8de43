// EXPECT_REL(actual, expected, rel): |actual - expected| <= rel |expected|, the check every
// known-answer test makes against its R or SciPy value. A macro over a predicate, so that a
// failure names the caller's line and both expressions; the six helper functions it replaced
// each reported their own line, leaving only the expected value to tell which check failed.
#pragma once

#include <gtest/gtest.h>

#include <cmath>

namespace mcpilot::test {

inline ::testing::AssertionResult relatively_near(const char* actual_text,
                                                  const char* expected_text, const char*,
                                                  double actual, double expected, double rel) {
  const double error = std::abs(actual - expected), allowed = rel * std::abs(expected);
  if (error <= allowed) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << actual_text << " = " << ::testing::PrintToString(actual) << ", expected "
         << expected_text << " = " << ::testing::PrintToString(expected) << " within " << rel
         << " of it (relative error " << error / std::abs(expected) << ")";
}

}  // namespace mcpilot::test

#define EXPECT_REL(actual, expected, rel) \
  EXPECT_PRED_FORMAT3(::mcpilot::test::relatively_near, actual, expected, rel)
