// The sorts of models/sorting: each agrees with std::sort for every n from 0 to 300 on several key
// families and on 10^5 uniform keys (the quadratic sorts on 10^4 here; 10^5 in the validation
// study tests/validation/sorting_large.cpp), and each is the algorithm it claims to be, by its
// known operation counts (docs/models/sorting.md, "Counts").

#include <gtest/gtest.h>

#include <limits>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "sorting/counts.hpp"
#include "sorting/keys.hpp"
#include "sorting/sorts.hpp"

namespace mcpilot::sorting {
namespace {

std::vector<key> draw(std::string_view family, std::size_t n, std::uint64_t seed) {
  philox_stream rng(seed, n);
  std::vector<key> v(n);
  fill_keys(family, rng, v);
  return v;
}

void expect_sorts(const algorithm& a, std::vector<key> keys, const std::string& what) {
  std::vector<key> expected = keys;
  std::sort(expected.begin(), expected.end());
  std::vector<key> scratch(keys.size());
  a.sort(keys, scratch);
  ASSERT_EQ(keys, expected) << a.name << " on " << what;
}

TEST(SortingSorts, EveryAlgorithmAgreesWithStdSortForEveryNUpTo300) {
  for (const auto& a : algorithms())
    for (const char* family : {"uniform", "few-unique", "organ-pipe", "reversed", "sorted"})
      for (std::size_t n = 0; n <= 300; ++n)
        expect_sorts(a, draw(family, n, 11), std::string(family) + " n=" + std::to_string(n));
}

TEST(SortingSorts, FastSortsAgreeWithStdSortOn100000UniformKeys) {
  for (const auto& a : algorithms()) {
    if (a.f == order::n_squared) continue;  // 10^5 in the validation study
    expect_sorts(a, draw("uniform", 100000, 12), "100000 uniform keys");
    expect_sorts(a, draw("few-unique", 100000, 13), "100000 few-unique keys");
  }
}

TEST(SortingSorts, QuadraticSortsAgreeWithStdSortOn10000UniformKeys) {
  for (const auto& a : algorithms())
    if (a.f == order::n_squared) expect_sorts(a, draw("uniform", 10000, 14), "10000 keys");
}

TEST(SortingSorts, RadixSortsTheWholeThirtyTwoBitRange) {
  std::vector<key> v = {0xFFFFFFFFu, 0, 0x80000000u, 0x7FFFFFFFu, 1, 0xFFu, 0x100u, 0xFFFFFFFFu};
  expect_sorts(*find_algorithm("radix"), v, "extreme keys");
}

TEST(SortingSorts, OrdersAndNames) {
  EXPECT_EQ(algorithms().size(), 11u);
  EXPECT_EQ(order_value(order::n_squared, 10), 100);
  EXPECT_EQ(order_value(order::n_log_n, 1024), 10240);
  EXPECT_EQ(order_value(order::n_log_n, 1), 0);
  EXPECT_EQ(order_value(order::linear, 7), 7);
  EXPECT_EQ(find_algorithm("shell")->f, order::n_log_n);
  EXPECT_TRUE(find_algorithm("shell")->stops_early);
  EXPECT_FALSE(find_algorithm("heap")->stops_early);
  EXPECT_EQ(find_algorithm("radix")->f, order::linear);
  EXPECT_EQ(find_algorithm("nope"), nullptr);
}

std::vector<std::size_t> gaps(std::size_t n) {
  const gap_sequence g = shell_gaps(n);
  return {g.begin(), g.end()};
}

TEST(SortingSorts, CiuraGaps) {
  EXPECT_EQ(gaps(1), (std::vector<std::size_t>{1}));
  EXPECT_EQ(gaps(24), (std::vector<std::size_t>{23, 10, 4, 1}));
  EXPECT_EQ(gaps(1000), (std::vector<std::size_t>{701, 301, 132, 57, 23, 10, 4, 1}));
  // Past 701: floor(701 x 2.25) = 1577, floor(1577 x 2.25) = 3548.
  EXPECT_EQ(gaps(4000).front(), 3548u);
  EXPECT_EQ(gaps(4000)[1], 1577u);
  // The largest n: the fixed array holds every gap.
  const auto all = gaps(std::numeric_limits<std::size_t>::max());
  EXPECT_LT(all.size(), 64u);
  EXPECT_EQ(all.back(), 1u);
}

TEST(SortingKeys, FamiliesHaveTheirShape) {
  const auto s = draw("sorted", 1000, 1);
  EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
  const auto r = draw("reversed", 1000, 1);
  EXPECT_TRUE(std::is_sorted(r.rbegin(), r.rend()));
  const auto o = draw("organ-pipe", 1000, 1);
  EXPECT_TRUE(std::is_sorted(o.begin(), o.begin() + 500));
  EXPECT_TRUE(std::is_sorted(o.rbegin(), o.rbegin() + 500));
  auto f = draw("few-unique", 1000, 1);
  std::sort(f.begin(), f.end());
  EXPECT_LE(std::unique(f.begin(), f.end()) - f.begin(), 8);
  EXPECT_EQ(draw("uniform", 100, 5), draw("uniform", 100, 5));  // seeded
  EXPECT_NE(draw("uniform", 100, 5), draw("uniform", 100, 6));
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

TEST(SortingCounts, BubbleSelectionAndBinaryInsertionOverAllPermutationsOfSeven) {
  std::uint64_t bubble_swaps = 0, binary_moves = 0, binary_comparisons = 0;
  for_each_permutation(7, [&](const std::vector<key>& p) {
    const std::uint64_t inv = inversions(p);
    auto a = p, b = p, c = p;
    const auto bubble = counted_bubble_sort(a);
    EXPECT_EQ(bubble.moves, inv);  // each swap removes exactly one inversion
    bubble_swaps += bubble.moves;
    const auto selection = counted_selection_sort(b);
    EXPECT_EQ(selection.comparisons, 21u);  // n(n-1)/2 for every input: a constant
    const auto binary = counted_binary_insertion_sort(c);
    EXPECT_EQ(binary.moves, inv);
    binary_moves += binary.moves;
    binary_comparisons += binary.comparisons;
    EXPECT_TRUE(std::is_sorted(a.begin(), a.end()) && std::is_sorted(b.begin(), b.end()) &&
                std::is_sorted(c.begin(), c.end()));
  });
  EXPECT_EQ(bubble_swaps, 52920u);
  EXPECT_EQ(binary_moves, 52920u);
  // A binary search among i sorted keys takes between floor(log2 i) and ceil(log2(i + 1))
  // comparisons; over i = 1..6 the sums are 0+1+1+2+2+2 = 8 and 1+2+2+3+3+3 = 14.
  EXPECT_GE(binary_comparisons, 8u * 5040);
  EXPECT_LE(binary_comparisons, 14u * 5040);
  // log2(7!) = 12.30: no comparison sort does better on average.
  EXPECT_GE(static_cast<double>(binary_comparisons) / 5040, std::log2(5040.0));
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

// Top-down merge sort of n = 2^k keys makes between (n/2) log2 n comparisons (every merge ends
// when one side runs out at once) and n log2 n - n + 1 (every merge runs to its last element).
TEST(SortingCounts, MergeSortComparisonsWithinTheirBounds) {
  for (std::size_t n : {2u, 16u, 1024u, 4096u}) {
    const double lg = std::log2(static_cast<double>(n));
    auto sorted = draw("sorted", n, 3);
    EXPECT_EQ(counted_merge_sort(sorted).comparisons, static_cast<std::uint64_t>(n / 2 * lg));
    auto v = draw("uniform", n, 4);
    const auto c = counted_merge_sort(v).comparisons;
    EXPECT_GE(c, static_cast<std::uint64_t>(n / 2 * lg));
    EXPECT_LE(c, static_cast<std::uint64_t>(n * lg - n + 1));
    EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
  }
}

}  // namespace
}  // namespace mcpilot::sorting
