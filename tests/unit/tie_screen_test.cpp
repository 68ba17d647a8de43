// The screen that decides, one value at a time, whether a rank test's pooled values may be mostly
// tied (framework/src/stats/tie_screen.hpp). The change-point search trusts its "no" without
// holding the values, so a "no" must never be given when the tie factor is below the limit.
#include "stats/tie_screen.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "mcpilot/stats/rank_sum.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

// a in two pieces, then b: where the pieces end must not matter.
tie_screen screened(const std::vector<double>& a, const std::vector<double>& b, double limit) {
  tie_screen s(a.size() + b.size(), limit);
  const std::span<const double> all(a);
  const std::size_t cut = std::min<std::size_t>(7, a.size());
  s.offer(all.first(cut));
  s.offer(all.subspan(cut));
  s.offer(b);
  return s;
}

// One value repeated t times among N = 100 otherwise distinct values has the factor
// 1 - (t^3 - t) / (N^3 - N): below 0.99 exactly when t^3 - t > 9999, that is from t = 22
// (21^3 - 21 = 9240, 22^3 - 22 = 10626). The bound on a frequent value's count is
// t* = sqrt(0.01 (N^2 - 1) + 1) = sqrt(100.99).
TEST(TieScreen, OneRepeatedValueCrossesTheLimitWhereTheFactorDoes) {
  for (std::size_t t : {20, 21, 22, 23}) {
    std::vector<double> a, b;
    for (std::size_t i = 0; i < 100 - t; ++i) (i % 2 ? a : b).push_back(1000.0 + i);
    for (std::size_t i = 0; i < t; ++i) (i % 3 ? a : b).push_back(7.0);
    const tie_screen s = screened(a, b, 0.99);
    EXPECT_DOUBLE_EQ(s.needed(), std::sqrt(100.99));
    EXPECT_TRUE(s.may_be_tied()) << t;  // t > 10.05: the value must survive the count
    EXPECT_EQ(s.mostly_tied(a, b), t >= 22) << t;
    EXPECT_EQ(rank_sum_mostly_tied(a, b, 0.99), t >= 22) << t;
  }
}

TEST(TieScreen, ANoIsNeverWrongAndTheAnswerDoesNotDependOnTheOrder) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  int no = 0, tied = 0;
  for (int trial = 0; trial < 300; ++trial) {
    // From few distinct values (heavy ties) to none, and a planted 0 (or -0, the same value to
    // the ranks) taking a share from nothing to a third.
    const int distinct = 1 + trial % 50;
    const unsigned share = static_cast<unsigned>(trial % 35);
    std::vector<double> a(40 + trial), b(25 + trial / 3);
    for (std::vector<double>* side : {&a, &b})
      for (double& v : *side) {
        if (rng() % 100 < share)
          v = rng() % 2 ? -0.0 : 0.0;
        else
          v = trial % 2 ? static_cast<double>(rng() % distinct) : normal(rng);
      }
    for (double limit : {0.9, 0.99, 0.999}) {
      const bool below = rank_sum_tie_factor(a, b) < limit;
      const tie_screen forward = screened(a, b, limit), backward = screened(b, a, limit);
      if (below) EXPECT_TRUE(forward.may_be_tied() && backward.may_be_tied()) << trial;
      EXPECT_EQ(forward.mostly_tied(a, b), below) << trial << " " << limit;
      EXPECT_EQ(backward.mostly_tied(b, a), below) << trial << " " << limit;
      no += !forward.may_be_tied();
      tied += below;
    }
  }
  // Both answers occur often, so neither branch is left untested.
  EXPECT_GT(no, 100);
  EXPECT_GT(tied, 100);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
