// Latent sector errors and scrubbing in storage.group. Without scrubbing, and with exponential
// lifetimes and repairs, the group is a Markov chain on (failed disks f, working disks carrying a
// latent error L), built here from the rules in group_simulation.hpp and solved exactly; the
// simulation must cover its mean time to data loss. Scrubbing is checked at its two limits.
#include <gtest/gtest.h>

#include <map>
#include <utility>

#include "storage/ctmc.hpp"
#include "storage_support.hpp"

namespace MCPILOT_TEST_FILE {

using namespace storage_test;
using mcpilot::storage::transient_chain;

// States (f, L): f = 0..m failed; L = 0..n-f defective working disks. From (f, L):
//   latent error on a clean working disk, (n-f-L) rho: (f, L+1);
//   failure of a defective disk, L lambda: (f+1, L-1); of a clean one, (n-f-L) lambda: (f+1, L);
//     reaching f+1 > m, or f+1 = m with a defect left, is a loss; reaching f+1 = m loses data
//     with probability h (the critical rebuild's read error);
//   repair (f > 0), mu or f mu: (f-1, L), the new disk clean.
double latent_chain_mttdl(int n, int m, double lambda, double mu, bool parallel, double h,
                          double rho) {
  std::map<std::pair<int, int>, std::size_t> index;
  std::vector<std::pair<int, int>> states;
  for (int f = 0; f <= m; ++f)
    for (int l = 0; l <= n - f; ++l) {
      index[{f, l}] = states.size();
      states.push_back({f, l});
    }
  transient_chain c(states.size());
  for (std::size_t s = 0; s < states.size(); ++s) {
    // Plain locals, not a structured binding: clang 14 (CI's fuzz and sanitizer compiler) cannot
    // capture a binding in the lambda below.
    const int f = states[s].first, l = states[s].second;
    const double clean = n - f - l;
    if (clean > 0) c.rate(s, index[{f, l + 1}]) += clean * rho;
    auto fail_to = [&](int left, double rate) {
      if (rate == 0) return;
      if (f + 1 > m || (f + 1 == m && left > 0)) {
        c.absorb(s) += rate;
      } else if (f + 1 == m) {
        c.absorb(s) += rate * h;
        c.rate(s, index[{f + 1, 0}]) += rate * (1 - h);
      } else {
        c.rate(s, index[{f + 1, left}]) += rate;
      }
    };
    fail_to(l - 1, l * lambda);
    fail_to(l, clean * lambda);
    if (f > 0) c.rate(s, index[{f - 1, l}]) += parallel ? f * mu : mu;
  }
  return mcpilot::storage::mean_time_to_absorption(c)[0];
}

TEST(StorageLatent, ChainWithoutLatentErrorsIsTheGroupChain) {
  EXPECT_NEAR(latent_chain_mttdl(4, 1, 1, 10, false, 0, 0), 17.0 / 12, 1e-12);
  EXPECT_NEAR(latent_chain_mttdl(6, 2, 1, 10, true, 0, 0), 217.0 / 60, 1e-12);
  EXPECT_NEAR(latent_chain_mttdl(4, 1, 1, 10, false, 0.1, 0), 83.0 / 80, 1e-12);
}

TEST(StorageLatent, WithoutScrubbingMatchesTheExactChain) {
  struct item {
    int disks, tolerance;
    bool parallel;
    double h, rho;
  };
  for (const item& k : {item{4, 1, false, 0.0, 0.5}, item{6, 2, false, 0.0, 0.3},
                        item{6, 2, true, 0.05, 0.3}, item{3, 1, true, 0.0, 2.0}}) {
    const double exact = latent_chain_mttdl(k.disks, k.tolerance, 1, 10, k.parallel, k.h, k.rho);
    auto c = make({{"disks", k.disks},
                   {"tolerance", k.tolerance},
                   {"lifetime.mean_hours", 1.0},
                   {"repair.mean_hours", 0.1},
                   {"repair.parallel", k.parallel},
                   {"rebuild_error_probability", k.h},
                   {"latent.rate_per_hour", k.rho}});
    EXPECT_TRUE(covers(run(*c, 1, 0.05), "mttdl_hours", exact))
        << k.disks << "/" << k.tolerance << " exact " << exact;
  }
}

// Scrubbing every 0.001 h clears defects before they matter (their expected presence per disk is
// rho x interval / 2 = 2.5e-4 of the time): the latent-free 17/12. Scrubbing every 1e6 h never
// happens before the loss: the no-scrub chain. In between, the MTTDL lies between the two.
TEST(StorageLatent, ScrubbingLimits) {
  const double unscrubbed = latent_chain_mttdl(4, 1, 1, 10, false, 0, 0.5);
  ASSERT_LT(unscrubbed, 17.0 / 12 * 0.9);
  auto with_scrub = [](double interval) {
    return make({{"disks", 4},
                 {"tolerance", 1},
                 {"lifetime.mean_hours", 1.0},
                 {"repair.mean_hours", 0.1},
                 {"latent.rate_per_hour", 0.5},
                 {"scrub.interval_hours", interval}});
  };
  EXPECT_TRUE(covers(run(*with_scrub(1e-3), 1, 0.05), "mttdl_hours", 17.0 / 12));
  EXPECT_TRUE(covers(run(*with_scrub(1e6), 1, 0.05), "mttdl_hours", unscrubbed));
  const auto mid = run(*with_scrub(0.5), 1, 0.05);
  const auto& a = quantity(mid, "mttdl_hours").stats;
  EXPECT_GT(*a.ci_low, unscrubbed);
  EXPECT_LT(*a.ci_high, 17.0 / 12);
}

}  // namespace MCPILOT_TEST_FILE
