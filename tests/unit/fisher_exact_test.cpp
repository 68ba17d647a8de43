// Fisher's exact test against R 4.2.2's fisher.test. Each value is the p.value of the call in the
// comment, printed with options(digits = 17); the table is matrix(c(a, b, c, d), 2, byrow = TRUE).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "../support/expect_rel.hpp"
#include "../support/fisher_whole_support.hpp"
#include "mcpilot/stats/fisher_exact.hpp"

using mcpilot::fisher_exact;

namespace MCPILOT_TEST_FILE {

// The relative tolerance of a p-value against R's, unless a check says otherwise.
constexpr double p_tolerance = 1e-10;

TEST(FisherExact, TwoSidedMatchesR) {
  // fisher.test(matrix(c(3,1,1,3),2,byrow=TRUE))$p.value
  EXPECT_REL(fisher_exact(3, 1, 1, 3).p_two_sided, 0.48571428571428582, p_tolerance);
  // fisher.test(matrix(c(10,2,3,15),2,byrow=TRUE))$p.value
  EXPECT_REL(fisher_exact(10, 2, 3, 15).p_two_sided, 0.00053672411914343593, p_tolerance);
  // fisher.test(matrix(c(1,9,11,3),2,byrow=TRUE))$p.value
  EXPECT_REL(fisher_exact(1, 9, 11, 3).p_two_sided, 0.0027594561852200836, p_tolerance);
  // fisher.test(matrix(c(0,50,25,25),2,byrow=TRUE))$p.value
  EXPECT_REL(fisher_exact(0, 50, 25, 25).p_two_sided, 1.0424788643271379e-09, p_tolerance);
  // fisher.test(matrix(c(15,5,5,25),2,byrow=TRUE))$p.value
  EXPECT_REL(fisher_exact(15, 5, 5, 25).p_two_sided, 7.3616611647156285e-05, p_tolerance);
}

TEST(FisherExact, LargeTableKeepsRelativeAccuracy) {
  // fisher.test(matrix(c(120,180,30,670),2,byrow=TRUE))$p.value: far below the double
  // epsilon relative to 1, so only a computation in normalised logs gets it right.
  EXPECT_REL(fisher_exact(120, 180, 30, 670).p_two_sided, 8.2151696249795123e-44, 1e-9);
}

TEST(FisherExact, OneSidedMatchesR) {
  // fisher.test(matrix(c(10,2,3,15),2,byrow=TRUE), alternative="less")$p.value
  EXPECT_REL(fisher_exact(10, 2, 3, 15).p_less, 0.99998451901868612, p_tolerance);
  // ... alternative="greater"
  EXPECT_REL(fisher_exact(10, 2, 3, 15).p_greater, 0.00046518094336290585, p_tolerance);
}

TEST(FisherExact, SymmetricTableAndFixedMarginsGiveOne) {
  // fisher.test(matrix(c(5,5,5,5),2,byrow=TRUE))$p.value == 1
  EXPECT_DOUBLE_EQ(fisher_exact(5, 5, 5, 5).p_two_sided, 1.0);
  // A margin of 0 leaves one possible table.
  EXPECT_DOUBLE_EQ(fisher_exact(0, 7, 0, 4).p_two_sided, 1.0);
  EXPECT_DOUBLE_EQ(fisher_exact(0, 0, 0, 0).p_two_sided, 1.0);
}

TEST(FisherExact, TwoSidedIsInvariantUnderTransposeAndRowSwap) {
  const double p = fisher_exact(7, 3, 2, 9).p_two_sided;
  EXPECT_NEAR(fisher_exact(7, 2, 3, 9).p_two_sided, p, 1e-14);  // transpose
  EXPECT_NEAR(fisher_exact(2, 9, 7, 3).p_two_sided, p, 1e-14);  // rows swapped
}

TEST(FisherExact, MarginsBeyondTheLogFactorialTable) {
  // Row sums of 70,030 and 70,010 pass the 2^16 log-factorials kept in a table, so lgamma is
  // called for them and the table serves the rest. Reference: mpmath 1.3.0 at 40 digits, the
  // hypergeometric weights from loggamma and R's definition of the two-sided p (the tables at
  // most (1 + 1e-7) times as likely as the observed one).
  // The log-factorials are near 7e5, so their differences carry about 7e5 eps = 1.5e-10 of
  // rounding: a relative tolerance of 1e-9.
  const auto r = fisher_exact(30, 70000, 10, 70000);
  EXPECT_REL(r.p_two_sided, 0.0022183061421644567, 1e-9);
  EXPECT_REL(r.p_less, 0.99965970247895052, 1e-9);
  EXPECT_REL(r.p_greater, 0.0011124523749279915, 1e-9);
}

TEST(FisherExact, WeighsOnlyTheTablesThatWeighSomething) {
  // fisher_exact walks out from the mode and stops where the weights have fallen far enough to
  // be exactly 0 in double. It must give the whole support's sums bit for bit: margins from a
  // few to 2 10^5 (supports past the log-factorial table), observed tables at the mode, in the
  // tails, and so far out that their weight, and the two-sided p, is 0.
  std::mt19937_64 rng(16);
  int far_out = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::uint64_t scale = std::uint64_t{1} << (rng() % 18);
    const std::uint64_t row1 = 1 + rng() % (scale + 1), row2 = 1 + rng() % (scale + 1);
    const std::uint64_t col1 = rng() % (row1 + row2 + 1);
    const std::uint64_t lo = col1 > row2 ? col1 - row2 : 0, hi = std::min(row1, col1);
    // Half the draws anywhere on the support, half near an end of it.
    const std::uint64_t span = hi - lo + 1;
    const std::uint64_t a = trial % 2   ? lo + rng() % span
                            : rng() % 2 ? lo + rng() % std::min<std::uint64_t>(span, 3)
                                        : hi - rng() % std::min<std::uint64_t>(span, 3);
    const auto want = mcpilot::test::fisher_whole_support(a, row1 - a, col1 - a, row2 - (col1 - a));
    const auto got = mcpilot::fisher_exact(a, row1 - a, col1 - a, row2 - (col1 - a));
    far_out += want.p_two_sided == 0;
    ASSERT_EQ(got.p_two_sided, want.p_two_sided) << a << " " << row1 << " " << row2 << " " << col1;
    ASSERT_EQ(got.p_less, want.p_less) << a << " " << row1 << " " << row2 << " " << col1;
    ASSERT_EQ(got.p_greater, want.p_greater) << a << " " << row1 << " " << row2 << " " << col1;
  }
  EXPECT_GT(far_out, 100);  // the draws did reach tables whose weight underflows
}

}  // namespace MCPILOT_TEST_FILE
