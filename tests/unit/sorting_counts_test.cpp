// The operation counts of every sort, from its instrumented copy (models/sorting/counts.hpp),
// against known answers that do not come from the code under test: exact values over every
// permutation of a few keys, exact expectations (Knuth, TAOCP vol. 3), per-input bounds that
// follow from an algorithm's structure (Pratt's for Shell sort with 2^p 3^q gaps, heap sort's
// levels), the information-theoretic floor log2(n!) on any comparison sort's average, and the
// asymptotic trends 2 n ln n (quicksort) and 2 n log2 n (heap sort) as fits over n.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "sorting/counts.hpp"
#include "sorting/keys.hpp"
#include "sorting/sorts.hpp"

namespace mcpilot::sorting {
namespace MCPILOT_TEST_FILE {

std::vector<key> draw(std::string_view family, std::size_t n, std::uint64_t seed) {
  philox_stream rng(seed, n);
  std::vector<key> v(n);
  fill_keys(family, rng, v);
  return v;
}

// Every permutation of 0..n-1 in lexicographic order.
template <class F>
void for_each_permutation(std::size_t n, F f) {
  std::vector<key> p(n);
  std::iota(p.begin(), p.end(), 0);
  do {
    f(p);
  } while (std::next_permutation(p.begin(), p.end()));
}

double log2_factorial(double n) {
  return std::lgamma(n + 1) / std::log(2.0);
}

// Exact expectations over all 7! = 5040 permutations of 7 distinct keys, as integer sums:
//   inversions: E = n(n-1)/4 = 10.5, sum 52,920;
//   insertion sort comparisons: E = n(n-1)/4 + n - H_n with H_7 = 363/140, so
//   E = 2087/140 and the sum is 5040 x 2087/140 = 75,132 (Knuth, TAOCP vol. 3, 5.2.1).
TEST(SortingCounts, InsertionSortMovesAndComparisonsOverAllPermutationsOfSeven) {
  std::uint64_t moves = 0, comparisons = 0, perms = 0;
  for_each_permutation(7, [&](std::vector<key> p) {
    const std::uint64_t inv = inversions(p);
    const auto c = counted_insertion_sort(p);
    EXPECT_EQ(c.moves, inv);  // one shift per inversion, for every input
    EXPECT_TRUE(std::is_sorted(p.begin(), p.end()));
    moves += c.moves;
    comparisons += c.comparisons;
    ++perms;
  });
  EXPECT_EQ(perms, 5040u);
  EXPECT_EQ(moves, 52920u);
  EXPECT_EQ(comparisons, 75132u);
}

// Bubble and shaker sort swap exactly once per inversion (each adjacent swap removes one); binary
// insertion shifts once per inversion; min sort compares n(n-1)/2 = 21 times on every input.
TEST(SortingCounts, ExchangeAndInsertionSortsOverAllPermutationsOfSeven) {
  std::uint64_t bubble_swaps = 0, shaker_swaps = 0, binary_moves = 0, binary_comparisons = 0;
  for_each_permutation(7, [&](const std::vector<key>& p) {
    const std::uint64_t inv = inversions(p);
    auto a = p, b = p, c = p, d = p;
    const auto bubble = counted_bubble_sort(a);
    EXPECT_EQ(bubble.moves, inv);
    bubble_swaps += bubble.moves;
    const auto shaker = counted_shaker_sort(d);
    EXPECT_EQ(shaker.moves, inv);
    EXPECT_LE(shaker.comparisons, 21u);  // never more than n(n-1)/2
    shaker_swaps += shaker.moves;
    const auto selection = counted_selection_sort(b);
    EXPECT_EQ(selection.comparisons, 21u);
    EXPECT_EQ(selection.moves, 6u);
    const auto binary = counted_binary_insertion_sort(c);
    EXPECT_EQ(binary.moves, inv);
    binary_moves += binary.moves;
    binary_comparisons += binary.comparisons;
    EXPECT_TRUE(std::is_sorted(a.begin(), a.end()) && std::is_sorted(b.begin(), b.end()) &&
                std::is_sorted(c.begin(), c.end()) && std::is_sorted(d.begin(), d.end()));
  });
  EXPECT_EQ(bubble_swaps, 52920u);
  EXPECT_EQ(shaker_swaps, 52920u);
  EXPECT_EQ(binary_moves, 52920u);
  // The search among i keys compares S(i) / (i + 1) times on average over the i + 1 places, with
  // S(i) = (i + 1) + S(i / 2) + S(i - i / 2 - 1): S(1..6) = 2, 5, 8, 12, 16, 20, so the mean
  // is 1 + 5/3 + 2 + 12/5 + 16/6 + 20/7 = 1322/105, and the sum over 7! inputs 5040 x 1322/105
  // = 63,456. (log2(7!) = 12.30 <= 1322/105 = 12.59: no comparison sort does better on average.)
  EXPECT_EQ(binary_comparisons, 63456u);
}

// Pratt (1971): with the gaps 2^p 3^q, when the h pass starts the keys are already 2h- and
// 3h-sorted, so each key moves at most one step of h: at most n - h shifts and 2(n - h)
// comparisons per pass, and at least n - h comparisons. A per-input bound, checked on every
// permutation of 8 keys and on larger arrays of every family; it fails if a gap is missing or out
// of order.
TEST(SortingCounts, ShellSortWithPrattGapsMovesEachKeyAtMostOneStepPerPass) {
  auto check = [](std::vector<key> v, const std::string& what) {
    const std::size_t n = v.size();
    std::uint64_t steps = 0;
    for (std::size_t h : shell_gaps(shell_gaps_kind::pratt, n)) steps += n > h ? n - h : 0;
    const auto c = counted_shell_sort(v, shell_gaps_kind::pratt);
    EXPECT_LE(c.moves, steps) << what;
    EXPECT_LE(c.comparisons, 2 * steps) << what;
    EXPECT_GE(c.comparisons, steps) << what;
    EXPECT_TRUE(std::is_sorted(v.begin(), v.end())) << what;
  };
  for_each_permutation(8, [&](const std::vector<key>& p) { check(p, "a permutation of 8"); });
  for (const char* family : {"uniform", "few-unique", "organ-pipe", "reversed"})
    for (std::size_t n : {100u, 1000u, 20000u}) check(draw(family, n, 21), family);
}

// Ciura's gaps have no such bound; they must still sort, with fewer comparisons than Pratt's on
// random keys at n = 10^4 (Ciura 2001: his sequence was chosen for that).
TEST(SortingCounts, ShellSortWithCiuraGapsComparesLessThanPrattsOnRandomKeys) {
  auto a = draw("uniform", 10000, 22), b = a;
  const auto ciura = counted_shell_sort(a, shell_gaps_kind::ciura);
  const auto pratt = counted_shell_sort(b, shell_gaps_kind::pratt);
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  EXPECT_LT(ciura.comparisons, pratt.comparisons);
}

// The three quicksorts partition identically, so they count the same on the same keys; only the
// order of the work differs.
TEST(SortingCounts, TheThreeQuicksortsCountTheSame) {
  for_each_permutation(7, [&](const std::vector<key>& p) {
    auto a = p, b = p, c = p;
    const auto r = counted_quick_sort(a), s = counted_quick_stack_sort(b),
               q = counted_quick_queue_sort(c);
    EXPECT_EQ(r.comparisons, s.comparisons);
    EXPECT_EQ(r.comparisons, q.comparisons);
    EXPECT_EQ(r.moves, q.moves);
    EXPECT_TRUE(std::is_sorted(a.begin(), a.end()) && std::is_sorted(c.begin(), c.end()));
  });
  for (const char* family : {"uniform", "few-unique"}) {
    auto a = draw(family, 50000, 23), b = a, c = a;
    const auto r = counted_quick_sort(a), s = counted_quick_stack_sort(b),
               q = counted_quick_queue_sort(c);
    EXPECT_EQ(r.comparisons, s.comparisons) << family;
    EXPECT_EQ(r.comparisons, q.comparisons) << family;
    EXPECT_TRUE(std::is_sorted(c.begin(), c.end())) << family;
  }
}

// Mean comparisons over `reps` seeded uniform arrays of n keys.
double mean_comparisons(const std::string& algorithm, std::size_t n, int reps) {
  double sum = 0;
  for (int r = 0; r < reps; ++r) {
    auto v = draw("uniform", n, 1000 + static_cast<std::uint64_t>(r));
    sum += static_cast<double>(count_operations(algorithm, shell_gaps_kind::pratt, v).comparisons);
  }
  return sum / reps;
}

// Least squares of C(n) = a f(n) + b n over the sizes: returns a.
double leading_coefficient(const std::vector<double>& n, const std::vector<double>& f,
                           const std::vector<double>& c) {
  // Divide by n: C/n = a (f/n) + b, a line in x = f/n.
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double k = static_cast<double>(n.size());
  for (std::size_t i = 0; i < n.size(); ++i) {
    const double x = f[i] / n[i], y = c[i] / n[i];
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

// Quicksort with a pivot of uniform rank compares 2 n ln n + O(n) times on average (Hoare 1962;
// Sedgewick 1977), "about 1.39 n log2 n": the slope of C(n)/n against ln n over n = 2^8 ... 2^14
// is 2 (within 5%), and no comparison sort goes below log2(n!). Heap sort with two comparisons per
// level of a sift-down compares 2 n log2 n + O(n) times (Knuth 5.2.3), "about 2 n log2 n": the
// slope of C(n)/n against log2 n is 2 (within 5%), and every input stays under the worst case,
// 2n for the build plus 2 floor(log2 e) per extraction at heap size e. Seeded means of 30 arrays
// each; the slopes' sampling error is under 0.5%.
TEST(SortingCounts, QuicksortAndHeapSortFollowTheirKnownTrends) {
  std::vector<double> ns, n_ln_n, n_log2_n, quick, heap;
  for (std::size_t n : {256u, 1024u, 4096u, 16384u}) {
    const double x = static_cast<double>(n);
    ns.push_back(x);
    n_ln_n.push_back(x * std::log(x));
    n_log2_n.push_back(x * std::log2(x));
    quick.push_back(mean_comparisons("quick", n, 30));
    heap.push_back(mean_comparisons("heap", n, 30));
    EXPECT_GE(quick.back(), log2_factorial(x)) << n;
    EXPECT_GE(heap.back(), log2_factorial(x)) << n;
  }
  EXPECT_NEAR(leading_coefficient(ns, n_ln_n, quick), 2.0, 0.1);
  EXPECT_NEAR(leading_coefficient(ns, n_log2_n, heap), 2.0, 0.1);
  for (std::size_t n : {1u, 2u, 7u, 100u, 5000u}) {
    auto v = draw("uniform", n, 24);
    double worst = 2.0 * static_cast<double>(n);
    for (std::size_t e = 1; e < n; ++e) worst += 2 * std::floor(std::log2(static_cast<double>(e)));
    EXPECT_LE(static_cast<double>(counted_heap_sort(v).comparisons), worst) << n;
    EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
  }
}

// Top-down merge sort of n = 2^k keys makes between (n/2) log2 n comparisons (every merge ends
// when one side runs out at once: sorted keys) and n log2 n - n + 1 (every merge runs to its last
// element). Its moves are 2n per level whatever the keys: M(n) = 2n + M(floor(n/2)) +
// M(ceil(n/2)), 2 n log2 n for powers of two; for n = 1000 by hand: 2000 + 2 M(500),
// M(500) = 1000 + 2 M(250), M(250) = 500 + 2 M(125), M(125) = 250 + M(62) + M(63), M(62) = 124 +
// 2 M(31), M(63) = 126 + M(31) + M(32), M(31) = 62 + M(15) + M(16), M(16) = 128, M(15) = 30 + M(7)
// + M(8), M(8) = 48, M(7) = 14 + M(3) + M(4), M(4) = 16, M(3) = 6 + M(1) + M(2) = 10: M(7) = 40,
// M(15) = 118, M(31) = 308, M(32) = 320, M(63) = 754, M(62) = 740, M(125) = 1744, M(250) = 3988,
// M(500) = 8976, M(1000) = 19952.
TEST(SortingCounts, MergeSortComparisonsWithinTheirBoundsAndMovesExact) {
  for (std::size_t n : {2u, 16u, 1024u, 4096u}) {
    const double lg = std::log2(static_cast<double>(n));
    auto sorted = draw("sorted", n, 3);
    const auto s = counted_merge_sort(sorted);
    EXPECT_EQ(s.comparisons, static_cast<std::uint64_t>(n / 2 * lg));
    EXPECT_EQ(s.moves, static_cast<std::uint64_t>(2 * n * lg));
    auto v = draw("uniform", n, 4);
    const auto c = counted_merge_sort(v);
    EXPECT_GE(c.comparisons, static_cast<std::uint64_t>(n / 2 * lg));
    EXPECT_LE(c.comparisons, static_cast<std::uint64_t>(n * lg - n + 1));
    EXPECT_EQ(c.moves, static_cast<std::uint64_t>(2 * n * lg));
    EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
  }
  auto v = draw("few-unique", 1000, 5);
  EXPECT_EQ(counted_merge_sort(v).moves, 19952u);
}

// Radix sort compares no keys and writes every key in each of its four passes; the library's
// sorts stay above log2(n!) on average and std::stable_sort (a merge sort) below n log2 n.
TEST(SortingCounts, RadixAndTheLibrarySorts) {
  for (std::size_t n : {0u, 1u, 2u, 1000u}) {
    auto v = draw("uniform", n, 6);
    const auto c = counted_radix_sort(v);
    EXPECT_EQ(c.comparisons, 0u);
    EXPECT_EQ(c.moves, n < 2 ? 0u : 4 * n);
    EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
  }
  const double n = 4096;
  const double std_sort = mean_comparisons("std-sort", 4096, 20);
  const double stable = mean_comparisons("std-stable-sort", 4096, 20);
  EXPECT_GE(std_sort, log2_factorial(n));
  EXPECT_GE(stable, log2_factorial(n));
  EXPECT_LE(stable, n * std::log2(n));
  auto v = draw("uniform", 4096, 7);
  EXPECT_GT(counted_std_sort(v).moves, 0u);
  EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
}

// Seeded simulation: mean shifts of insertion sort over R random permutations of n = 100 against
// E = n(n-1)/4 = 2475, with Var(inversions) = n(n-1)(2n+5)/72 = 28,737.5 (Knuth 5.1.1); the
// mean of R = 2000 has standard error sqrt(28737.5 / 2000) = 3.79, and 4 of them is the bound
// (a false failure about once in 16,000 seeds).
TEST(SortingCounts, InsertionSortMeanShiftsOnRandomKeys) {
  const std::size_t n = 100, reps = 2000;
  double sum = 0;
  for (std::size_t r = 0; r < reps; ++r) {
    philox_stream rng(2026, r);
    std::vector<key> v(n);
    fill_keys("uniform", rng, v);
    sum += static_cast<double>(counted_insertion_sort(v).moves);
  }
  const double se = std::sqrt(n * (n - 1.0) * (2 * n + 5.0) / 72 / reps);
  EXPECT_NEAR(sum / reps, n * (n - 1.0) / 4, 4 * se);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot::sorting
