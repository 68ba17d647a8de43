// The exact rank-sum test. Reference values are from R 4.2.2 (options(digits = 17)):
// wilcox.test(x, y, exact = TRUE) gives W (our U) and the two-sided p.value; pwilcox(u, k, m)
// gives P(U <= u).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "../support/expect_rel.hpp"
#include "mcpilot/stats/rank_sum.hpp"
#include "mcpilot/stats/welch.hpp"

using namespace mcpilot;

namespace MCPILOT_TEST_FILE {

// The relative tolerance of a p-value against R's, unless a check says otherwise.
constexpr double p_tolerance = 1e-12;

std::vector<double> formula(int n, double step, double shift, bool use_cos) {
  std::vector<double> v;
  for (int i = 1; i <= n; ++i)
    v.push_back((use_cos ? std::cos(i * step) : std::sin(i * step)) + shift);
  return v;
}

TEST(RankSum, CdfMatchesPwilcox) {
  // pwilcox(200, 40, 60), pwilcox(20, 40, 60), pwilcox(1000, 40, 60)
  EXPECT_REL(rank_sum_cdf(40, 60, 200), 2.5873560570570087e-15, p_tolerance);
  EXPECT_REL(rank_sum_cdf(40, 60, 20), 1.9743589198418095e-25, p_tolerance);
  EXPECT_REL(rank_sum_cdf(40, 60, 1000), 0.080554905434625554, p_tolerance);
  // pwilcox(100, 100, 100), pwilcox(3000, 100, 100), pwilcox(5000, 100, 100)
  EXPECT_REL(rank_sum_cdf(100, 100, 100), 1.8144887017086661e-50, p_tolerance);
  EXPECT_REL(rank_sum_cdf(100, 100, 3000), 3.3857653322491089e-07, p_tolerance);
  EXPECT_REL(rank_sum_cdf(100, 100, 5000), 0.50048628586729493, p_tolerance);
  // pwilcox(200, 50, 50)
  EXPECT_REL(rank_sum_cdf(50, 50, 200), 3.9199304465673559e-16, p_tolerance);
  // pwilcox(20000, 300, 300): beyond the cached sizes, computed in long double up to u
  EXPECT_REL(rank_sum_cdf(300, 300, 20000), 9.8128222594605977e-35, p_tolerance);
  // pwilcox(10, 2, 98)
  EXPECT_REL(rank_sum_cdf(2, 98, 10), 0.0072727272727272719, p_tolerance);
  // pwilcox(0:12, 4, 3): the whole distribution of a small case, both orders of the sizes
  const double small[] = {0.028571428571428571,
                          0.057142857142857141,
                          0.11428571428571428,
                          0.20000000000000001,
                          0.31428571428571428,
                          0.42857142857142855,
                          0.5714285714285714,
                          0.68571428571428572,
                          0.80000000000000004,
                          0.88571428571428568,
                          0.94285714285714284,
                          0.97142857142857142,
                          1};
  for (std::uint64_t u = 0; u <= 12; ++u) {
    EXPECT_REL(rank_sum_cdf(4, 3, u), small[u], p_tolerance);
    EXPECT_REL(rank_sum_cdf(3, 4, u), small[u], p_tolerance);
  }
}

TEST(RankSum, TestMatchesWilcoxTest) {
  // x <- c(0.8,0.83,1.89,1.04,1.45,1.38,1.91,1.64,0.73,1.46); y <- c(1.15,0.88,0.9,0.74,1.21)
  // wilcox.test(x, y, exact=TRUE): W = 35, p-value = 0.2544122544122544
  const std::vector<double> x = {0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
  const std::vector<double> y = {1.15, 0.88, 0.9, 0.74, 1.21};
  rank_sum_result r = rank_sum_test(x, y);
  EXPECT_EQ(r.method, rank_sum_method::exact);
  EXPECT_EQ(r.u, 35u);
  EXPECT_REL(r.p, 0.2544122544122544, p_tolerance);
  // The same with the samples swapped: U becomes km - U, the p-value is the same.
  r = rank_sum_test(y, x);
  EXPECT_EQ(r.u, 15u);
  EXPECT_REL(r.p, 0.2544122544122544, p_tolerance);

  // x <- sin((1:40) * 1.7); y <- cos((1:60) * 0.3) + 0.5 (100 distinct values)
  // wilcox.test(x, y, exact=TRUE): W = 775, p-value = 0.0025571995915669569
  r = rank_sum_test(formula(40, 1.7, 0, false), formula(60, 0.3, 0.5, true));
  EXPECT_EQ(r.u, 775u);
  EXPECT_REL(r.p, 0.0025571995915669569, p_tolerance);
  // x2 <- sin((1:25) * 2.3) - 1; y2 <- sin((1:35) * 0.7)
  // wilcox.test(x2, y2, exact=TRUE): W = 178, p-value = 5.608695572565231e-05
  r = rank_sum_test(formula(25, 2.3, -1, false), formula(35, 0.7, 0, false));
  EXPECT_EQ(r.u, 178u);
  EXPECT_REL(r.p, 5.608695572565231e-05, p_tolerance);
}

TEST(RankSum, FloorIsTwoOverBinomial) {
  // 3 values all below 97 others: the most extreme of the C(100, 3) = 161700 equally likely
  // rank sets, on either side, so p = 2 / 161700 = 1.2369e-5 exactly, and no data can go lower.
  // wilcox.test(1:3, 4:100, exact=TRUE): W = 0, p-value = 1.2368583797155226e-05
  std::vector<double> low = {1, 2, 3}, high;
  for (int i = 4; i <= 100; ++i) high.push_back(i);
  const rank_sum_result r = rank_sum_test(low, high);
  EXPECT_EQ(r.u, 0u);
  EXPECT_REL(r.p, 2.0 / 161700, p_tolerance);
  EXPECT_REL(r.p, 1.2368583797155226e-05, p_tolerance);
  EXPECT_REL(rank_sum_p_floor(3, 97), 2.0 / 161700, p_tolerance);
  EXPECT_EQ(r.p, rank_sum_p(3, 97, 0));
  // wilcox.test(c(1,2,4), c(3,5:100), exact=TRUE): W = 1, p-value = 2.4737167594310453e-05
  std::vector<double> a = {1, 2, 4}, b = {3};
  for (int i = 5; i <= 100; ++i) b.push_back(i);
  EXPECT_REL(rank_sum_test(a, b).p, 2.4737167594310453e-05, p_tolerance);
  // Every possible U of a small case stays at or above the floor, reached at U = 0 and U = km.
  const double floor = rank_sum_p_floor(3, 20);
  EXPECT_REL(floor, 2.0 / 1771, p_tolerance);  // C(23, 3) = 1771
  for (std::uint64_t u = 0; u <= 3 * 20; ++u) EXPECT_GE(rank_sum_p(3, 20, u), floor * (1 - 1e-12));
  EXPECT_REL(rank_sum_p(3, 20, 0), floor, p_tolerance);
  EXPECT_REL(rank_sum_p(3, 20, 60), floor, p_tolerance);
}

TEST(RankSum, WelchOnRanksIgnoresTheFloor) {
  // The old approach: Welch's t-test on the ranks of the same 3 vs 97 values.
  // t.test(1:3, 4:100)$p.value = 5.001200285638068e-31, 25 orders of magnitude below what any
  // arrangement of 3 among 100 can honestly give.
  std::vector<double> low = {1, 2, 3}, high;
  for (int i = 4; i <= 100; ++i) high.push_back(i);
  const welch_result w = welch_test(moments(low), moments(high), 0.95);
  EXPECT_REL(w.p, 5.001200285638068e-31, 1e-6);
  EXPECT_LT(w.p, 1e-25 * rank_sum_p_floor(3, 97));
}

TEST(RankSum, FewTiesAreDealtLeastFavourably) {
  // a = {1, 2, 2, 3, 9}, b = {2, 4, 5, 6, 7, 8}: the 2s (two in a, one in b) can contribute 0..2
  // to U. No ordering of the tied values may give a smaller p than the one reported.
  const std::vector<double> a = {1, 2, 2, 3, 9}, b = {2, 4, 5, 6, 7, 8};
  rank_sum_options loose;
  loose.tie_factor_limit = 0.9;  // 1 - (27 - 3) / (1331 - 11) = 0.982: "few" at this limit
  const rank_sum_result r = rank_sum_test(a, b, loose);
  EXPECT_EQ(r.method, rank_sum_method::exact_least_favourable);
  // U counts a > b pairs: 1 -> 0, 2 -> 0 or 1 (each), 3 -> 1, 9 -> 6; so 7..9
  EXPECT_EQ(r.u_min, 7u);
  EXPECT_EQ(r.u_max, 9u);
  EXPECT_EQ(r.u, 9u);  // the value nearest km/2 = 15
  // Both tied 2s of a placed above the 2 of b (the least favourable order):
  // wilcox.test(c(1,2.1,2.2,3,9), c(2,4,5,6,7,8), exact=TRUE): W = 9, p-value =
  // 0.32900432900432897; the most favourable order, wilcox.test(c(1,2,2.1,3,9),
  // c(2.2,4,5,6,7,8), exact=TRUE), has W = 7 and p = 0.17748917748917747.
  EXPECT_REL(r.p, 0.32900432900432897, p_tolerance);
  for (std::uint64_t u = r.u_min; u <= r.u_max; ++u) EXPECT_GE(r.p, rank_sum_p(5, 6, u));
}

TEST(RankSum, ManyTiesUseFisherOnTwoClasses) {
  // 0/1 readings: 20 with 5 ones against 30 with 25 ones. The classes are the 0s and the 1s, and
  // the test is fisher.test(matrix(c(15,5,5,25),2,byrow=TRUE))$p.value = 7.3616611647156285e-05.
  std::vector<double> a(20, 0.0), b(30, 1.0);
  std::fill(a.begin(), a.begin() + 5, 1.0);
  std::fill(b.begin(), b.begin() + 5, 0.0);
  const rank_sum_result r = rank_sum_test(a, b);
  EXPECT_EQ(r.method, rank_sum_method::fisher_classes);
  EXPECT_EQ(r.a_lower, 15u);
  EXPECT_EQ(r.b_lower, 5u);
  EXPECT_REL(r.p, 7.3616611647156285e-05, 1e-10);
}

TEST(RankSum, FisherCutMakesClassesMostEqual) {
  // Five values 0..4 with many repeats: the cut goes where the lower class is nearest half.
  std::vector<double> a, b;
  for (int i = 0; i < 40; ++i) a.push_back(i % 5);        // 8 of each value
  for (int i = 0; i < 40; ++i) b.push_back((i % 5) / 2);  // 0,0,1,1,2: 16, 16, 8
  const rank_sum_result r = rank_sum_test(a, b);
  EXPECT_EQ(r.method, rank_sum_method::fisher_classes);
  // Pooled counts of 0..4: 24, 24, 16, 8, 8. Cumulative: <=0: 24, <=1: 48, <=2: 64 of 80, and
  // |48 - 40| = 8 is the least gap, so the lower class is {0, 1}.
  EXPECT_EQ(r.a_lower + r.b_lower, 48u);
  EXPECT_EQ(r.a_lower, 16u);
}

TEST(RankSum, DegenerateSamplesGiveOne) {
  const std::vector<double> same(10, 3.5), other(7, 3.5), empty;
  EXPECT_EQ(rank_sum_test(same, other).p, 1.0);
  EXPECT_EQ(rank_sum_test(same, other).method, rank_sum_method::degenerate);
  EXPECT_EQ(rank_sum_test(empty, other).p, 1.0);
  EXPECT_EQ(rank_sum_cdf(0, 5, 0), 1.0);
}

TEST(RankSum, ConcurrentCallsAgreeWithSerial) {
  // Distinct (k, m) pairs, cached and uncached, hit from four threads at once.
  std::vector<std::pair<std::size_t, std::size_t>> sizes;
  for (std::size_t k = 20; k < 60; k += 3) sizes.emplace_back(k, 300 - k);
  // P(U <= km/3) for each (k, 300 - k), exact, from the Gaussian binomial coefficient
  // [k + m choose k]_q = prod_{i=1..k} (1 - q^(m+i)) / (1 - q^i), whose coefficient of q^u counts
  // the orderings with U = u: Python integers, summed to km/3 and divided by C(300, k). (Not the
  // library's own serial result, which would compare the code with itself.)
  const std::vector<double> exact = {
      0.006001229362774418,   0.003662436868171396,   0.0022733804826161057, 0.001433463501412753,
      0.0009172893920886022,  0.0005952845782249391,  0.0003915651867910656, 0.0002609496876520382,
      0.00017612909289081466, 0.00012036565866252702, 8.326600574001652e-05, 5.82960682846898e-05,
      4.1299319106680505e-05, 2.9601567887554994e-05};
  ASSERT_EQ(exact.size(), sizes.size());
  std::vector<double> serial;
  for (auto [k, m] : sizes) serial.push_back(rank_sum_cdf(k, m, k * m / 3));
  for (std::size_t i = 0; i < exact.size(); ++i) EXPECT_REL(serial[i], exact[i], 1e-12);
  std::vector<std::vector<double>> got(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (auto [k, m] : sizes) got[t].push_back(rank_sum_cdf(m, k, k * m / 3));
    });
  for (auto& th : threads) th.join();
  for (const auto& g : got) EXPECT_EQ(g, serial);
}

TEST(RankSum, SmallTableAndCachedTablesMeetAtTheirBorder) {
  // Exact P(U <= u), Python integers as above: the recurrence table holds sizes up to 32, the
  // per-pair cache what lies beyond, so both sides of the border are checked.
  EXPECT_REL(rank_sum_cdf(32, 32, 300), 0.0020109017337240336, p_tolerance);
  EXPECT_REL(rank_sum_cdf(32, 32, 512), 0.5026593344077378, p_tolerance);
  EXPECT_REL(rank_sum_cdf(31, 32, 200), 1.2295005528395389e-05, p_tolerance);
  EXPECT_REL(rank_sum_cdf(12, 40, 100), 0.0008739542609191335, p_tolerance);
  EXPECT_REL(rank_sum_cdf(33, 64, 700), 0.0031770092265275807, p_tolerance);
  EXPECT_REL(rank_sum_cdf(64, 64, 1500), 0.004381038284672268, p_tolerance);
}

// The cached tables keep P(U <= u) from 5 standard deviations below the mean up; the far
// lower tail is summed when asked. Every u of a few cached pairs, on both sides of that border and
// through the symmetry above km/2, against the recurrence on the largest value in long double
// (an independent route: sums of positive terms only), and never decreasing.
TEST(RankSum, CachedTablesAndTheirSummedTailAgreeWithTheRecurrence) {
  for (auto [k, m] : {std::pair<std::size_t, std::size_t>{33, 40}, {40, 60}, {12, 200}, {64, 64}}) {
    // row[i][u] = P(U_{i,j} <= u) for the current j; P(U_{i,0} <= u) = 1 for u >= 0.
    const std::size_t cells = k * m;
    std::vector<std::vector<long double>> row(k + 1, std::vector<long double>(cells + 1, 1.0L));
    for (std::size_t j = 1; j <= m; ++j)
      for (std::size_t i = 1; i <= k; ++i) {
        const long double wa = static_cast<long double>(i) / static_cast<long double>(i + j);
        std::vector<long double> next(cells + 1);
        for (std::size_t u = 0; u <= cells; ++u) {
          // P(U_{i,j} <= u) = i/(i+j) P(U_{i-1,j} <= u - j) + j/(i+j) P(U_{i,j-1} <= u)
          const long double a = u < j ? 0.0L : (i == 1 ? 1.0L : row[i - 1][u - j]);
          next[u] = wa * a + (1 - wa) * row[i][u];
        }
        row[i] = std::move(next);
      }
    double last = 0;
    for (std::uint64_t u = 0; u <= cells; ++u) {
      const double got = rank_sum_cdf(k, m, u);
      EXPECT_REL(got, static_cast<double>(row[k][u]), 1e-11);
      EXPECT_GE(got, last) << k << " " << m << " u " << u;
      last = got;
    }
  }
}

TEST(RankSum, EvictedTablesAreRebuiltTheSame) {
  // 60 pairs whose tables keep about 8,000 cells each (of 30,000 in their lower half), twice the
  // cache's default budget of 2^18: the first ones are dropped and built again on the second
  // pass, which must give the same numbers.
  std::vector<double> first, second;
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t k = 150; k < 210; ++k) {
      const std::size_t m = 60000 / k;
      (pass == 0 ? first : second).push_back(rank_sum_cdf(k, m, k * m / 3));
    }
  EXPECT_EQ(first, second);
  // P(U <= 20000) for k = 150, m = 400, exact (Python integers as above).
  EXPECT_REL(first.front(), 5.233947785605844e-10, 1e-11);
}

TEST(RankSum, TieFactorAndItsFastCheck) {
  // Groups of 3, 2 and 1 among N = 6: 1 - (24 + 6) / (216 - 6) = 1 - 30/210.
  const std::vector<double> a = {1, 1, 2}, b = {1, 2, 3};
  EXPECT_NEAR(rank_sum_tie_factor(a, b), 1 - 30.0 / 210, 1e-15);
  EXPECT_EQ(rank_sum_tie_factor(std::vector<double>{1, 2}, std::vector<double>{3}), 1.0);
  // The frequent-items shortcut must agree with the factor itself, on both sides of the limit.
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    const int distinct = 1 + trial % 40;  // few distinct values: heavy ties; many: none
    std::vector<double> x(50 + trial), y(30 + trial / 2);
    for (double& v : x) v = static_cast<double>(rng() % distinct);
    for (double& v : y) v = static_cast<double>(rng() % (distinct + trial % 3));
    for (double limit : {0.9, 0.99, 0.999})
      EXPECT_EQ(rank_sum_mostly_tied(x, y, limit), rank_sum_tie_factor(x, y) < limit)
          << trial << " " << limit;
  }
  // Values that never repeat, with one planted value taking a growing share of them (found
  // through many rounds of clearing the counters), and -0 standing for 0 in half the plants:
  // the two are one value to the ranks, so they must be one value to the check.
  std::normal_distribution<double> normal;
  for (int share = 0; share <= 30; share += 2) {
    std::vector<double> x(400), y(300);
    int planted = 0;
    for (double& v : x)
      v = rng() % 100 < static_cast<unsigned>(share) ? (planted++ % 2 ? -0.0 : 0.0) : normal(rng);
    for (double& v : y) v = rng() % 100 < static_cast<unsigned>(share) ? 0.0 : normal(rng);
    for (double limit : {0.9, 0.99, 0.999})
      EXPECT_EQ(rank_sum_mostly_tied(x, y, limit), rank_sum_tie_factor(x, y) < limit)
          << share << "% planted, limit " << limit;
  }
}

TEST(RankSum, InPlaceTestSortsEachSampleAndCountsEveryPair) {
  // rank_sum_test_in_place sorts its samples (a sorting network up to 64 values, pdqsort
  // beyond): afterwards each must be the same values in order, and U's range must be the brute
  // force count of pairs a > b (u_min) plus the tied pairs (u_max). Sizes cross every network's
  // width; values repeat, include -0 and +0 (one value to the ranks) and infinities.
  std::mt19937_64 rng(64);
  const double inf = std::numeric_limits<double>::infinity();
  for (std::size_t k = 1; k <= 140; k += 1 + k / 9) {
    for (std::size_t m : {std::size_t{1}, k / 2 + 1, k + 3, 2 * k + 7}) {
      auto draw = [&] {
        const auto r = rng() % 20;
        return r == 0   ? -0.0
               : r == 1 ? 0.0
               : r == 2 ? inf
               : r == 3 ? -inf
                        : static_cast<double>(rng() % 50) - 25;
      };
      std::vector<double> a(k), b(m);
      for (double& v : a) v = draw();
      for (double& v : b) v = draw();
      std::uint64_t below = 0, tied = 0;
      for (double x : a)
        for (double y : b) below += y < x, tied += y == x;
      std::vector<double> sa = a, sb = b;
      rank_sum_options exact;
      exact.tie_factor_limit = 0;  // always the rank test, however many ties
      const rank_sum_result r = rank_sum_test_in_place(sa, sb, exact);
      EXPECT_EQ(r.u_min, below) << k << " " << m;
      EXPECT_EQ(r.u_max, below + tied) << k << " " << m;
      for (auto [sorted, original] : {std::pair{&sa, &a}, std::pair{&sb, &b}}) {
        EXPECT_TRUE(std::is_sorted(sorted->begin(), sorted->end())) << k << " " << m;
        std::vector<double> want = *original;
        std::sort(want.begin(), want.end());
        EXPECT_TRUE(std::equal(want.begin(), want.end(), sorted->begin())) << k << " " << m;
      }
    }
  }
}

TEST(RankSum, FewDistinctValuesCountedAsSortingWouldGroupThem) {
  // Samples whose first values repeat are grouped by counting, up to 64 distinct values (0/1 or
  // quantised means), and sorted past that. Either way the outcome must be that of the same
  // values in an order whose first four are distinct, which always sorts: the same U range, tie
  // factor, method, classes and p, bit for bit. U's range is also checked against a brute-force
  // count, and each sample must come back sorted. Distinct values from 2 to 80 cross the cap;
  // tie factors fall on both sides of the limit, so Fisher's test and the least favourable rank
  // test are both reached.
  std::mt19937_64 rng(66);
  int counted_fisher = 0, counted_ranks = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t distinct = 2 + rng() % 79;
    const std::size_t k = 8 + rng() % 150, m = 8 + rng() % 300;
    // Half the trials skewed towards the low values, as 0/1 means are (value j with weight
    // 1 / (1 + j)^2: mostly tied, Fisher's test), half uniform (few ties, the rank test).
    std::vector<double> weight(distinct);
    for (std::size_t j = 0; j < distinct; ++j)
      weight[j] = trial % 2 ? 1.0 : 1.0 / static_cast<double>((1 + j) * (1 + j));
    std::discrete_distribution<std::size_t> pick(weight.begin(), weight.end());
    const double step = trial % 3 == 0 ? 0.25 : 1.0 / 7;  // exact and inexact grids
    auto draw = [&](std::size_t n) {
      std::vector<double> v(n);
      for (double& x : v) x = (rng() % 2 ? 1 : -1) * 0.0 + static_cast<double>(pick(rng)) * step;
      return v;
    };
    std::vector<double> a = draw(k), b = draw(m);
    // The counting order: a repeat among a's first four.
    std::vector<double> ca = a, cb = b;
    ca[1] = ca[0];
    // The sorting order: the same values, the first four of each all different.
    auto distinct_first = [](std::vector<double> v) {
      std::vector<double> front;
      for (std::size_t i = 0; i < v.size() && front.size() < 4; ++i)
        if (std::find(front.begin(), front.end(), v[i]) == front.end()) {
          front.push_back(v[i]);
          v.erase(v.begin() + static_cast<std::ptrdiff_t>(i--));
        }
      v.insert(v.begin(), front.begin(), front.end());
      return v;
    };
    std::vector<double> sa = distinct_first(ca), sb = distinct_first(cb);
    std::uint64_t below = 0, tied = 0;
    for (double x : ca)
      for (double y : cb) below += y < x, tied += y == x;
    const std::vector<double> a0 = ca, b0 = cb;
    const rank_sum_result c = rank_sum_test_in_place(ca, cb);
    const rank_sum_result r = rank_sum_test_in_place(sa, sb);
    ASSERT_EQ(c.u_min, below) << trial;
    ASSERT_EQ(c.u_max, below + tied) << trial;
    ASSERT_EQ(c.u_min, r.u_min) << trial;
    ASSERT_EQ(c.u_max, r.u_max) << trial;
    ASSERT_EQ(c.u, r.u) << trial;
    ASSERT_EQ(c.method, r.method) << trial;
    ASSERT_EQ(c.tie_factor, r.tie_factor) << trial;  // the same groups in the same order
    ASSERT_EQ(c.a_lower, r.a_lower) << trial;
    ASSERT_EQ(c.b_lower, r.b_lower) << trial;
    ASSERT_EQ(c.p, r.p) << trial;
    for (auto [out, in] : {std::pair{&ca, &a0}, std::pair{&cb, &b0}}) {
      std::vector<double> want = *in;
      std::sort(want.begin(), want.end());
      ASSERT_TRUE(std::equal(want.begin(), want.end(), out->begin(), out->end())) << trial;
    }
    if (distinct <= 64) {
      counted_fisher += c.method == rank_sum_method::fisher_classes;
      counted_ranks += c.method != rank_sum_method::fisher_classes;
    }
  }
  EXPECT_GT(counted_fisher, 100);
  EXPECT_GT(counted_ranks, 100);
}

TEST(RankSum, WithoutTiesUIsTheCountOfPairs) {
  // Distinct values take the merge without ties: U must still be the brute-force count of pairs
  // a > b, with nothing to order (u_min = u_max) and a tie factor of 1. One value shared by the
  // two samples, or repeated within one, must leave that path: u_max counts the tied pair.
  std::mt19937_64 rng(65);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (std::size_t k = 1; k <= 140; k += 1 + k / 9) {
    for (std::size_t m : {std::size_t{1}, k / 2 + 1, k + 3, 2 * k + 7}) {
      std::vector<double> a(k), b(m);
      for (double& v : a) v = uniform(rng);
      for (double& v : b) v = uniform(rng);
      std::uint64_t below = 0;
      for (double x : a)
        for (double y : b) below += y < x;
      std::vector<double> sa = a, sb = b;
      const rank_sum_result r = rank_sum_test_in_place(sa, sb, rank_sum_options{});
      EXPECT_EQ(r.u_min, below) << k << " " << m;
      EXPECT_EQ(r.u_max, below) << k << " " << m;
      EXPECT_EQ(r.u, below) << k << " " << m;
      EXPECT_EQ(r.tie_factor, 1.0);
      EXPECT_EQ(r.method, rank_sum_method::exact);
      EXPECT_TRUE(std::is_sorted(sa.begin(), sa.end()) && std::is_sorted(sb.begin(), sb.end()));

      for (const bool across : {true, false}) {
        if (!across && k < 2) continue;
        std::vector<double> ta = a, tb = b;
        if (across)
          tb[0] = ta[0];
        else
          ta[1] = ta[0];
        std::uint64_t tb_below = 0, tied = 0;
        for (double x : ta)
          for (double y : tb) tb_below += y < x, tied += y == x;
        rank_sum_options exact;
        exact.tie_factor_limit = 0;  // the rank test, not Fisher's, so U's range is reported
        const rank_sum_result t = rank_sum_test_in_place(ta, tb, exact);
        EXPECT_EQ(t.u_min, tb_below) << k << " " << m << " " << across;
        EXPECT_EQ(t.u_max, tb_below + tied) << k << " " << m << " " << across;
        if (k + m > 2)  // two equal values alone are one group: degenerate, factor untouched
          EXPECT_LT(t.tie_factor, 1.0) << k << " " << m << " " << across;
      }
    }
  }
}

TEST(RankSum, TieFactorCountsOrSortsToTheSameBits) {
  // Few distinct values are counted in a hash table, many are sorted; either way the factor must
  // be 1 - sum (t^3 - t) / (N^3 - N) summed over the groups in increasing order of value, to the
  // last bit (std::map's counts here). -0 and 0 are one value. Distinct counts cross the
  // table's cap of 1024.
  std::mt19937_64 rng(66);
  for (const std::size_t distinct :
       {std::size_t{2}, std::size_t{40}, std::size_t{1024}, std::size_t{1025}, std::size_t{5000}}) {
    for (const std::size_t n : {std::size_t{50}, std::size_t{3000}, std::size_t{20000}}) {
      std::vector<double> a(n / 3), b(n - n / 3);
      auto draw = [&] {
        const double v = static_cast<double>(rng() % distinct) * 0.25 - 3;
        return v == 0 && rng() % 2 ? -0.0 : v;
      };
      for (double& v : a) v = draw();
      for (double& v : b) v = draw();
      std::map<double, std::uint64_t> count;
      for (const auto* side : {&a, &b})
        for (double v : *side) ++count[v];
      double tie_sum = 0;
      for (const auto& [value, c] : count) {
        const double t = static_cast<double>(c);
        tie_sum += t * t * t - t;
      }
      const double nn = static_cast<double>(n);
      EXPECT_EQ(rank_sum_tie_factor(a, b), 1 - tie_sum / (nn * nn * nn - nn))
          << distinct << " distinct, n " << n;
    }
  }
}

}  // namespace MCPILOT_TEST_FILE
