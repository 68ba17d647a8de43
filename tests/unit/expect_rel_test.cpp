// The relative check every known-answer test relies on must fail when it should: a helper that
// always passed would make those tests unable to fail.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <limits>

#include "../support/expect_rel.hpp"

TEST(ExpectRel, PassesWithinTheToleranceAndFailsBeyondIt) {
  EXPECT_REL(1.0 + 0.9e-9, 1.0, 1e-9);
  EXPECT_REL(-2.0 - 1.9e-9, -2.0, 1e-9);  // the tolerance scales with |expected|
  EXPECT_NONFATAL_FAILURE(EXPECT_REL(1.0 + 1.1e-9, 1.0, 1e-9), "relative error");
  EXPECT_NONFATAL_FAILURE(EXPECT_REL(-2.0 - 2.1e-9, -2.0, 1e-9), "relative error");
  EXPECT_NONFATAL_FAILURE(EXPECT_REL(std::numeric_limits<double>::quiet_NaN(), 1.0, 0.5),
                          "expected");
}

TEST(ExpectRel, AFailureNamesBothExpressions) {
  const double computed = 3.0, reference = 2.0;
  EXPECT_NONFATAL_FAILURE(EXPECT_REL(computed, reference, 0.1),
                          "computed = 3, expected reference = 2");
}
