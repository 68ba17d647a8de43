// Repeated looks (stats/repeated_looks.hpp) and the separation rule of `bench --until separated`
// (stats/welch.hpp): the levels' closed form, and a seeded study of the looks on two streams of
// readings, equal and unequal, sized as bench sizes its rounds (tests/support/
// separated_looks_study.hpp; the full-size study is validate_separated_looks).

#include "mcpilot/stats/repeated_looks.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "../support/separated_looks_study.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

// alpha_k = 6 alpha / (pi^2 k^2); 6 / pi^2 = 0.6079271018540267 (the Basel sum's reciprocal).
TEST(LookLevel, ClosedForm) {
  EXPECT_NEAR(look_level(0.05, 1), 0.05 * 0.6079271018540267, 1e-15);
  EXPECT_NEAR(look_level(0.05, 10), 0.05 * 0.6079271018540267 / 100, 1e-17);
  EXPECT_NEAR(look_level(0.10, 3), 0.10 * 0.6079271018540267 / 9, 1e-16);
  EXPECT_THROW(look_level(0.05, 0), std::invalid_argument);
  EXPECT_THROW(look_level(0.0, 1), std::invalid_argument);
  EXPECT_THROW(look_level(1.0, 1), std::invalid_argument);
}

// The levels sum to alpha: the first 10^6 leave a tail of 6 alpha / (pi^2 10^6) ~ 3e-8 alpha.
TEST(LookLevel, LevelsSumToAlpha) {
  double sum = 0;
  for (std::uint64_t k = 1000000; k >= 1; --k) sum += look_level(0.05, k);  // small terms first
  EXPECT_LT(sum, 0.05);
  EXPECT_NEAR(sum, 0.05, 0.05 * 1e-6);
}

TEST(LookSchedule, LooksWhenTheReadingsHaveDoubled) {
  look_schedule s;
  EXPECT_TRUE(s.due(10));
  EXPECT_DOUBLE_EQ(s.take(10, 0.05), look_level(0.05, 1));
  EXPECT_FALSE(s.due(19));
  EXPECT_TRUE(s.due(20));
  EXPECT_DOUBLE_EQ(s.next_level(0.05), look_level(0.05, 2));
  EXPECT_DOUBLE_EQ(s.take(45, 0.05), look_level(0.05, 2));
  EXPECT_EQ(s.looks(), 2u);
  EXPECT_EQ(s.last_n(), 45u);
  EXPECT_FALSE(s.due(89));
  EXPECT_TRUE(s.due(90));
}

// Equal streams: the chance that any look separates them is at most alpha = 0.05 (the union
// bound over the looks' levels). Of 2000 repetitions, more than 2000 alpha + 3.09 sd = 130 would
// happen with probability 0.001 if the chance were exactly alpha; it should be below. Looking at
// every round at the full level, as bench did, exceeds alpha (29% in validate_separated_looks):
// the study tells the two rules apart.
TEST(RepeatedLooks, EqualStreamsAreSeparatedAtMostAlphaOfTheTime) {
  const auto o = test::looks_study(test::look_rule::spent, 10.0, 2000, 0.05, 5120);
  const auto before = test::looks_study(test::look_rule::every_round, 10.0, 2000, 0.05, 5120);
  const double limit = 2000 * 0.05 + 3.09 * std::sqrt(2000 * 0.05 * 0.95);
  EXPECT_LE(o.resolved, limit);
  EXPECT_GT(before.resolved, limit);
  EXPECT_GE(o.looks, 5.0);  // the study took several looks, or it tests nothing
}

// Means 10 and 10.3 (sd 1): by 5120 readings each a single test's z is 0.3 / sqrt(2 / 5120)
// = 15, far beyond the ninth look's critical value (level 0.05 / 133, z = 3.6), so all 2000 are
// separated by then. An early look can separate them the wrong way (at 30 readings each the
// true z is only 1.16), but each look does so with probability below half its level, so all
// looks together below alpha / 2: more than 2000 alpha / 2 + 3.09 sd = 72 would have
// probability 0.001 at exactly alpha / 2.
TEST(RepeatedLooks, UnequalStreamsAreSeparatedTheRightWay) {
  const auto o = test::looks_study(test::look_rule::spent, 10.3, 2000, 0.05, 5120);
  EXPECT_GE(o.resolved, 1995);
  EXPECT_LE(o.wrong_way, 2000 * 0.025 + 3.09 * std::sqrt(2000 * 0.025 * 0.975));
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
