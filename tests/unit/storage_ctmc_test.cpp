// The exact Markov answers of the storage model: mean time to data loss and loss probability of
// redundancy groups, against closed forms, exact rational arithmetic and SciPy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include "../support/expect_rel.hpp"
#include "storage/birth_death.hpp"
#include "storage/ctmc.hpp"
#include "storage/group_chain.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot::storage;

constexpr double rel = 1e-9;  // the brief: exact answers to ~1e-9 relative

group_rates rates(int n, int m, double lambda, double mu, bool parallel = false, double h = 0) {
  return {n, m, lambda, mu, parallel, h};
}

// The known-answer table of issue 5, solved by hand:
//   4 disks, tolerance 1, lambda 1, mu 10: T0 = 1/4 + T1, T1 = 1/13 + (10/13) T0 -> 17/12.
//   6 disks, tolerance 2, lambda 1, mu 10, one rebuild at a time: 137/60; in parallel: 217/60.
TEST(StorageCtmc, KnownAnswerTable) {
  EXPECT_REL(system_mttdl(rates(4, 1, 1, 10), 1), 17.0 / 12, rel);
  EXPECT_REL(system_mttdl(rates(4, 1, 1, 10, true), 1), 17.0 / 12, rel);
  EXPECT_REL(system_mttdl(rates(6, 2, 1, 10), 1), 137.0 / 60, rel);
  EXPECT_REL(system_mttdl(rates(6, 2, 1, 10, true), 1), 217.0 / 60, rel);
}

// RAID-5 closed form MTTDL = ((2n-1) lambda + mu) / (n (n-1) lambda^2): 744,315,476.19 h at n = 8,
// lambda = 1e-6, mu = 1/24, against the textbook approximation MTTF^2 / (n (n-1) MTTR) =
// 744,047,619.05 h, which drops the (2n-1) lambda term (0.036% low here).
TEST(StorageCtmc, StiffRaid5AgainstClosedFormAndTextbookApproximation) {
  const double l = 1e-6, mu = 1.0 / 24;
  const double closed = (15 * l + mu) / (56 * l * l);
  EXPECT_NEAR(closed, 744315476.19047619, 1e-3);
  for (bool parallel : {false, true}) {
    const double t = system_mttdl(rates(8, 1, l, mu, parallel), 1);
    EXPECT_REL(t, closed, rel);
    const double textbook = 1e12 / (56 * 24.0);
    EXPECT_NEAR(textbook, 744047619.05, 0.01);
    EXPECT_GT(t - textbook, 2.6e5);
  }
}

// The rare-event target: 10 disks, tolerance 2, MTTF 1e6 h, MTTR 24 h, one rebuild at a time.
// Exact rational MTTDL 195396902225000/81 h, from Python's fractions.Fraction with lambda =
// Fraction(1, 10**6), mu = Fraction(1, 24) and Gaussian elimination of (-Q_T) x = 1.
// P(loss by 87,600 h) from SciPy: scipy.linalg.expm(Q * 87600)[0, -1] = 3.62938829170727e-08
// (Q the 4 x 4 generator with the loss state).
TEST(StorageCtmc, RareEventTarget) {
  const auto g = rates(10, 2, 1e-6, 1.0 / 24);
  const double exact = 195396902225000.0 / 81;
  EXPECT_NEAR(system_mttdl(g, 1), exact, 1e-12 * exact);  // subtraction-free: near round-off
  EXPECT_REL(system_loss_by(g, 1, 87600), 3.62938829170727e-08, rel);
  // The spectral route agrees with uniformization.
  EXPECT_REL(spectrum(group_chain(g)).absorbed_by(87600), 3.62938829170727e-08, rel);
}

// 3 disks, tolerance 1, lambda 0.1, mu 1: P(loss by 10) = 0.3179690 (issue table); SciPy:
// scipy.linalg.expm(Q * 10)[0, -1] = 0.3179690024113446. Not 1 - exp(-t / MTTDL) = 0.3297 (MTTDL
// = 25): a loss needs a first failure before it, so early losses are rarer than exponential.
TEST(StorageCtmc, LossProbabilityIsNotExponentialInMttdl) {
  const auto g = rates(3, 1, 0.1, 1);
  const double p = system_loss_by(g, 1, 10);
  EXPECT_NEAR(p, 0.3179690024113446, rel);
  EXPECT_NEAR(spectrum(group_chain(g)).absorbed_by(10), 0.3179690024113446, rel);
  const double naive = -std::expm1(-10 / system_mttdl(g, 1));
  EXPECT_GT(naive - p, 0.01);
}

// RAID-5 with rebuild-error probability h: MTTDL = [(n-1)l + mu + n l (1-h)] / (n l [(n-1) l +
// mu h]) = 83/80 at n = 4, l = 1, mu = 10, h = 0.1; and the formula at stiff rates.
TEST(StorageCtmc, RebuildErrorFormula) {
  EXPECT_NEAR(system_mttdl(rates(4, 1, 1, 10, false, 0.1), 1), 83.0 / 80, rel);
  const double n = 8, l = 1e-6, mu = 1.0 / 24, h = 0.02;
  const double formula = ((n - 1) * l + mu + n * l * (1 - h)) / (n * l * ((n - 1) * l + mu * h));
  EXPECT_REL(system_mttdl(rates(8, 1, l, mu, false, h), 1), formula, rel);
}

// No repair: the time to the (m+1)-th of n exponential failures, sum_{i=0..m} 1/((n-i) lambda):
// 1/3 + 1/2 + 1 = 11/6 for 3 disks tolerating 2. Two mirrors without repair: S(t) = 2e^-t - e^-2t,
// integral of S^2 = 2 - 4/3 + 1/4 = 11/12.
TEST(StorageCtmc, NoRepairOrderStatistics) {
  EXPECT_NEAR(system_mttdl(rates(3, 2, 1, 0), 1), 11.0 / 6, rel);
  EXPECT_NEAR(system_mttdl(rates(2, 1, 1, 0), 2), 11.0 / 12, rel);
  // P(3 of 3 failed by t) = (1 - e^-t)^3.
  EXPECT_NEAR(system_loss_by(rates(3, 2, 1, 0), 1, 0.7), std::pow(-std::expm1(-0.7), 3), rel);
}

// G groups, checked against the product chain of G groups built here (states: how many groups
// have 0..m failed disks), solved by the generic solver: an independent route to the same number.
transient_chain product_chain(const group_rates& g, int groups) {
  const int m = g.tolerance;
  std::map<std::vector<int>, std::size_t> index;
  std::vector<std::vector<int>> states;
  std::vector<int> c(static_cast<std::size_t>(m) + 1, 0);
  // Every composition of `groups` into m+1 parts.
  std::function<void(int, int)> fill = [&](int level, int left) {
    if (level == m) {
      c[static_cast<std::size_t>(m)] = left;
      index[c] = states.size();
      states.push_back(c);
      return;
    }
    for (int k = left; k >= 0; --k) {
      c[static_cast<std::size_t>(level)] = k;
      fill(level + 1, left - k);
    }
  };
  fill(0, groups);
  transient_chain chain(states.size());
  for (std::size_t s = 0; s < states.size(); ++s) {
    const auto& st = states[s];
    for (int f = 0; f <= m; ++f) {
      const int cf = st[static_cast<std::size_t>(f)];
      if (cf == 0) continue;
      const double fail = cf * (g.disks - f) * g.failure_rate;
      auto moved = st;
      --moved[static_cast<std::size_t>(f)];
      if (f == m) {
        chain.absorb(s) += fail;
      } else {
        ++moved[static_cast<std::size_t>(f) + 1];
        const double h = f + 1 == m ? g.rebuild_error : 0.0;
        chain.absorb(s) += fail * h;
        chain.rate(s, index[moved]) += fail * (1 - h);
      }
      if (f > 0) {
        auto back = st;
        --back[static_cast<std::size_t>(f)];
        ++back[static_cast<std::size_t>(f) - 1];
        chain.rate(s, index[back]) += cf * (g.parallel ? f * g.repair_rate : g.repair_rate);
      }
    }
  }
  return chain;
}

TEST(StorageCtmc, SeveralGroupsAgainstProductChain) {
  struct item {
    group_rates g;
    int groups;
  };
  const std::vector<item> cases = {{rates(4, 1, 1, 10), 3},
                                   {rates(6, 2, 1, 10, true), 2},
                                   {rates(4, 1, 1, 10, false, 0.1), 4},
                                   {rates(10, 2, 1e-6, 1.0 / 24), 3},
                                   {rates(8, 1, 1e-6, 1.0 / 24, true), 5},
                                   {rates(3, 2, 1, 0), 3}};
  for (const auto& [g, groups] : cases) {
    const transient_chain chain = product_chain(g, groups);
    const double exact = mean_time_to_absorption(chain)[0];  // state 0: every group all up
    EXPECT_NEAR(system_mttdl(g, static_cast<std::size_t>(groups)), exact, 1e-9 * exact)
        << g.disks << " disks, tolerance " << g.tolerance << ", " << groups << " groups";
    const double t = std::min(0.5 * exact / groups, 87600.0);
    const double p = absorbed_by(chain, 0, t, 1e8);
    EXPECT_NEAR(system_loss_by(g, static_cast<std::size_t>(groups), t), p, 1e-9 * p);
  }
}

// The solver on a chain that is not birth-death: a cycle 0 -> 1 -> 2 -> 0 with absorption from 2.
// Mean times by hand: x0 = 1 + x1, x1 = 1/2 + x2, x2 = 1/4 + (1/2) x0 (exit 4: 2 to 0, 2 out)
// -> x0 = 1 + 1/2 + 1/4 + x0/2 -> x0 = 3.5.
TEST(StorageCtmc, GenericSolverByHand) {
  transient_chain c(3);
  c.rate(0, 1) = 1;
  c.rate(1, 2) = 2;
  c.rate(2, 0) = 2;
  c.absorb(2) = 2;
  const auto x = mean_time_to_absorption(c);
  EXPECT_NEAR(x[0], 3.5, 1e-14);
  EXPECT_NEAR(x[1], 2.5, 1e-14);
  EXPECT_NEAR(x[2], 2.0, 1e-14);
  transient_chain closed(2);
  closed.rate(0, 1) = closed.rate(1, 0) = 1;
  EXPECT_THROW(mean_time_to_absorption(closed), std::domain_error);
}

}  // namespace MCPILOT_TEST_FILE
