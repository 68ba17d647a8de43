// compare_paired: two commands' runs compared on the blocks they were run in.
#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <vector>

#include "mcpilot/rng.hpp"
#include "mcpilot/stats/paired_comparison.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

analysis_options plain(bool remove_warmup) {
  analysis_options o;
  o.requirements.interval = interval_method::pilot;  // the t interval, number for number
  o.requirements.autocorrelation_limit = 0.99;       // subsessions of 1 run (lag-1 here -0.48)
  o.requirements.min_samples = 2;
  o.remove_warmup = remove_warmup;
  return o;
}

// By hand (plain arithmetic, written beside): differences 1 0 1 1 0 2, mean 5/6, variance
// 2.8333/5, t = 2.71163 on 5 df; t*(5, 0.975) = 2.5705818 (any t table), so the interval is
// [0.0433469, 1.6233198]. The ratio 26/21 = 1.2380952 with the ratio estimator's linearised
// errors e_k = b_k - R a_k (variance 0.52698), se = sqrt(0.52698 / 6) / 3.5 = 0.084674:
// [1.0204313, 1.4557592].
TEST(PairedComparison, KnownAnswerByHand) {
  const std::vector<double> a = {1, 2, 3, 4, 5, 6}, b = {2, 2, 4, 5, 5, 8};
  const paired_comparison c = compare_paired(a, b, plain(false));
  EXPECT_EQ(c.blocks, 6u);
  EXPECT_EQ(c.kept_begin, 0u);
  EXPECT_EQ(c.kept_end, 6u);
  EXPECT_NEAR(*c.difference.mean, 0.8333333333, 1e-9);
  EXPECT_NEAR(*c.difference_low, 0.0433468825, 1e-6);
  EXPECT_NEAR(*c.difference_high, 1.6233197841, 1e-6);
  EXPECT_NEAR(c.t, 2.7116307227, 1e-8);
  EXPECT_DOUBLE_EQ(c.df, 5);
  EXPECT_NEAR(*c.ratio.mean, 1.2380952381, 1e-9);
  EXPECT_NEAR(*c.ratio_low, 1.0204312751, 1e-6);
  EXPECT_NEAR(*c.ratio_high, 1.4557592011, 1e-6);
  EXPECT_TRUE(c.separated);
  // p = 2 F_5(-2.7116) lies between the table's 0.05 (t = 2.5706) and 0.02 (t = 3.3649).
  EXPECT_GT(c.p, 0.02);
  EXPECT_LT(c.p, 0.05);
}

// The A/A case that bench got wrong: both commands at 10 + N(0, 1) for the first 50 blocks, then
// at 5 + N(0, 1) (the machine's speed changes under both), warm-up removal on. Equal commands
// must be told apart at most as often as 1 - confidence says: 5% of 1000 pairs is 50, sd 6.9;
// the gate is 50 + 3 sd = 71 (a correct method fails it with probability about 0.2%). Each
// command's own stable phase would compare 10 with 5 whenever the removals cut differently.
TEST(PairedComparison, IdenticalCommandsUnderALevelShiftRarelySeparated) {
  analysis_options o;
  o.requirements.min_samples = 30;
  o.remove_warmup = true;
  boost::random::normal_distribution<double> normal;
  int separated = 0;
  const int reps = 1000;
  for (int rep = 0; rep < reps; ++rep) {
    philox_stream rng(20261203, static_cast<std::uint64_t>(rep));
    std::vector<double> a(200), b(200);
    for (std::size_t k = 0; k < a.size(); ++k) {
      const double level = k < 50 ? 10 : 5;
      a[k] = level + normal(rng);
      b[k] = level + normal(rng);
    }
    const paired_comparison c = compare_paired(a, b, o);
    separated += c.separated;
    ASSERT_TRUE(c.ratio_low.has_value()) << rep;
  }
  EXPECT_LE(separated, 71);
}

// A real difference of 2% (means 10 and 10.2, sd 0.1 each) on a machine that runs everything at
// half speed from block 50 on (a frequency step: times double, the ratio stays) is found, the
// right way round, in every one of 100 sessions: the differences double at block 50 (0.2 to 0.4,
// with sd 0.14 then 0.28); whether or not the change-point is found there, the difference's
// standard error is at most sqrt(2) 0.2 / sqrt(150) = 0.023, and the mean at least 0.2, nine
// of them.
TEST(PairedComparison, RealDifferenceUnderALevelShiftFound) {
  analysis_options o;
  o.requirements.min_samples = 30;
  boost::random::normal_distribution<double> normal;
  for (int rep = 0; rep < 100; ++rep) {
    philox_stream rng(7, static_cast<std::uint64_t>(rep));
    std::vector<double> a(200), b(200);
    for (std::size_t k = 0; k < a.size(); ++k) {
      const double speed = k < 50 ? 1 : 2;
      a[k] = speed * (10 + 0.1 * normal(rng));
      b[k] = speed * (10.2 + 0.1 * normal(rng));
    }
    const paired_comparison c = compare_paired(a, b, o);
    EXPECT_TRUE(c.separated) << rep;
    EXPECT_GT(*c.difference_low, 0) << rep;
    EXPECT_GT(*c.ratio_low, 1) << rep;
  }
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
