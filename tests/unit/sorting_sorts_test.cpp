// The sorts of models/sorting: each, as written and in its pollable copy, agrees with std::sort for
// every n from 0 to 300 on several key families and on 10^5 uniform keys (the quadratic sorts on
// 10^4 here; 10^5 in the validation study tests/validation/sorting_large.cpp). Their operation
// counts are checked in sorting_counts_test.cpp.

#include <gtest/gtest.h>

#include <limits>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

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

void expect_sorts(const algorithm& a, const std::vector<key>& keys, const std::string& what) {
  std::vector<key> expected = keys;
  std::sort(expected.begin(), expected.end());
  for (sort_function f : {a.sort, a.pollable_sort}) {
    if (!f) continue;
    std::vector<key> v = keys;
    std::vector<key> scratch(scratch_size(v.size()));
    f(v, scratch);
    ASSERT_EQ(v, expected) << a.name << (f == a.sort ? "" : " (pollable)") << " on " << what;
  }
}

// Every algorithm, and Shell sort with Ciura's gaps.
std::vector<const algorithm*> every_algorithm() {
  std::vector<const algorithm*> all;
  for (const auto& a : algorithms()) all.push_back(&a);
  all.push_back(&with_gaps(*find_algorithm("shell"), shell_gaps_kind::ciura));
  return all;
}

TEST(SortingSorts, EveryAlgorithmAgreesWithStdSortForEveryNUpTo300) {
  for (const algorithm* a : every_algorithm())
    for (const char* family : {"uniform", "few-unique", "organ-pipe", "reversed", "sorted"})
      for (std::size_t n = 0; n <= 300; ++n)
        expect_sorts(*a, draw(family, n, 11), std::string(family) + " n=" + std::to_string(n));
}

// layout = "random" times these: each copy must be the sort, at an address of its own (not folded
// into one by the linker), 64-byte aligned as placed_copies.hpp places it. The sorts that call
// themselves have none (their copies would share the recursive body).
TEST(SortingSorts, PlacedCopiesSortAndSitAtAddressesOfTheirOwn) {
  std::vector<std::string> without;
  for (const algorithm* a : every_algorithm()) {
    if (!a->placed) {
      without.emplace_back(a->name);
      continue;
    }
    std::vector<std::uintptr_t> addresses;
    for (sort_function f : *a->placed) {
      const auto at = reinterpret_cast<std::uintptr_t>(f);
      EXPECT_EQ(at % 64, 0u) << a->name;
      addresses.push_back(at);
      for (const char* family : {"uniform", "reversed", "few-unique"})
        for (std::size_t n : {0, 1, 2, 3, 5, 17, 64, 255, 300}) {
          std::vector<key> v = draw(family, n, 15), expected = v;
          std::sort(expected.begin(), expected.end());
          std::vector<key> scratch(scratch_size(n));
          f(v, scratch);
          ASSERT_EQ(v, expected) << a->name << " copy " << addresses.size() - 1 << ", " << family
                                 << " n=" << n;
        }
    }
    std::sort(addresses.begin(), addresses.end());
    EXPECT_EQ(std::adjacent_find(addresses.begin(), addresses.end()), addresses.end()) << a->name;
    EXPECT_EQ(addresses.size(), std::size_t{placed_copy_count});
  }
  EXPECT_EQ(without, (std::vector<std::string>{"quick", "merge", "std-sort", "std-stable-sort"}));
  // Shell sort's two gap sequences are two sorts, each with copies of its own.
  EXPECT_NE(find_algorithm("shell")->placed,
            with_gaps(*find_algorithm("shell"), shell_gaps_kind::ciura).placed);
}

// A random-layout reading draws its copy from one word of its stream: every copy is reachable and
// none favoured. 16,000 draws of a seeded stream, 1,000 expected per copy; the chi-square
// statistic's 99.9% point with 15 degrees of freedom is 37.70 (scipy.stats.chi2.ppf(0.999, 15)).
// The stream is seeded, so the test is deterministic; the bound says how far from uniform a draw
// may be before it is a defect (a shift of 59 would reach 32 copies, one of 61 half of them).
TEST(SortingSorts, PlacedCopyDrawsAreUniformOverTheSixteen) {
  philox_stream rng(20261207, 0);
  std::vector<int> count(placed_copy_count, 0);
  const int draws = 16000;
  for (int i = 0; i < draws; ++i) {
    const int c = placed_copy_of(rng());
    ASSERT_GE(c, 0);
    ASSERT_LT(c, placed_copy_count);
    ++count[c];
  }
  const double expected = static_cast<double>(draws) / placed_copy_count;
  double chi2 = 0;
  for (int c : count) chi2 += (c - expected) * (c - expected) / expected;
  EXPECT_LT(chi2, 37.70);
  EXPECT_EQ(placed_copy_of(0), 0);
  EXPECT_EQ(placed_copy_of(~std::uint64_t{0}), placed_copy_count - 1);
}

TEST(SortingSorts, LayoutNames) {
  const auto names = code_layout_names();
  ASSERT_EQ(names.size(), 2u + placed_copy_count);
  EXPECT_EQ(names.front(), "fixed");
  EXPECT_EQ(code_layout_by_name("fixed").how, code_layout::kind::fixed);
  EXPECT_EQ(code_layout_by_name("random").how, code_layout::kind::random);
  const code_layout last = code_layout_by_name(names.back());
  EXPECT_EQ(last.how, code_layout::kind::pinned);
  EXPECT_EQ(last.copy, placed_copy_count - 1);
  EXPECT_EQ(names.back(), "copy-15");
  EXPECT_THROW(code_layout_by_name("copy-16"), std::invalid_argument);
  for (const auto& name : names) EXPECT_EQ(code_layout_name(code_layout_by_name(name)), name);
}

TEST(SortingSorts, FastSortsAgreeWithStdSortOn100000UniformKeys) {
  for (const algorithm* a : every_algorithm()) {
    if (a->f == order::n_squared) continue;  // 10^5 in the validation study
    expect_sorts(*a, draw("uniform", 100000, 12), "100000 uniform keys");
    expect_sorts(*a, draw("few-unique", 100000, 13), "100000 few-unique keys");
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

// The study's eleven, in the order the anchor lists them, plus three extras.
TEST(SortingSorts, OrdersAndNames) {
  EXPECT_EQ(algorithms().size(), 14u);
  std::vector<std::string> study;
  for (const auto& a : algorithms())
    if (a.in_study) study.emplace_back(a.name);
  EXPECT_EQ(study, (std::vector<std::string>{"selection", "bubble", "shaker", "insertion",
                                             "binary-insertion", "shell", "quick", "quick-stack",
                                             "quick-queue", "merge", "heap"}));
  EXPECT_EQ(order_value(order::n_squared, 10), 100);
  EXPECT_EQ(order_value(order::n_log_n, 1024), 10240);
  EXPECT_EQ(order_value(order::n_log_n, 1), 0);
  EXPECT_EQ(order_value(order::linear, 7), 7);
  EXPECT_EQ(find_algorithm("shell")->f, order::n_log_n);
  EXPECT_TRUE(find_algorithm("shell")->stops_early);
  EXPECT_TRUE(find_algorithm("shaker")->stops_early);
  EXPECT_FALSE(find_algorithm("quick-queue")->stops_early);
  EXPECT_FALSE(find_algorithm("heap")->stops_early);
  EXPECT_EQ(find_algorithm("radix")->f, order::linear);
  EXPECT_EQ(find_algorithm("nope"), nullptr);
  EXPECT_EQ(&with_gaps(*find_algorithm("heap"), shell_gaps_kind::ciura), find_algorithm("heap"));
  EXPECT_NE(with_gaps(*find_algorithm("shell"), shell_gaps_kind::ciura).sort,
            find_algorithm("shell")->sort);
  EXPECT_EQ(find_algorithm("std-sort")->pollable_sort, nullptr);  // the library's cannot be
}

TEST(SortingSorts, PrattGapsAreEveryThreeSmoothNumberBelowN) {
  using V = std::vector<std::size_t>;
  EXPECT_EQ(shell_gaps(shell_gaps_kind::pratt, 1), V{1});
  EXPECT_EQ(shell_gaps(shell_gaps_kind::pratt, 2), V{1});
  EXPECT_EQ(shell_gaps(shell_gaps_kind::pratt, 10), (V{9, 8, 6, 4, 3, 2, 1}));
  EXPECT_EQ(shell_gaps(shell_gaps_kind::pratt, 17), (V{16, 12, 9, 8, 6, 4, 3, 2, 1}));
  // Below 1000, counted here from the factorisation of every number, independently of the table.
  std::size_t smooth = 0;
  for (std::size_t v = 1; v < 1000; ++v) {
    std::size_t r = v;
    while (r % 2 == 0) r /= 2;
    while (r % 3 == 0) r /= 3;
    smooth += r == 1 ? 1 : 0;
  }
  EXPECT_EQ(shell_gaps(shell_gaps_kind::pratt, 1000).size(), smooth);
  // Up to the largest n: strictly decreasing, every one 3-smooth, 2^61 and 3^38 among them.
  const auto big = shell_gaps(shell_gaps_kind::pratt, std::size_t{1} << 62);
  EXPECT_TRUE(std::adjacent_find(big.begin(), big.end(), std::less_equal<>()) == big.end());
  for (std::size_t v : big) {
    while (v % 2 == 0) v /= 2;
    while (v % 3 == 0) v /= 3;
    EXPECT_EQ(v, 1u);
  }
  std::size_t three38 = 1;
  for (int i = 0; i < 38; ++i) three38 *= 3;
  EXPECT_NE(std::find(big.begin(), big.end(), std::size_t{1} << 61), big.end());
  EXPECT_NE(std::find(big.begin(), big.end(), three38), big.end());
}

TEST(SortingSorts, CiuraGaps) {
  using V = std::vector<std::size_t>;
  EXPECT_EQ(shell_gaps(shell_gaps_kind::ciura, 1), V{1});
  EXPECT_EQ(shell_gaps(shell_gaps_kind::ciura, 24), (V{23, 10, 4, 1}));
  EXPECT_EQ(shell_gaps(shell_gaps_kind::ciura, 1000), (V{701, 301, 132, 57, 23, 10, 4, 1}));
  // Past 701: floor(701 x 2.25) = 1577, floor(1577 x 2.25) = 3548.
  const auto g = shell_gaps(shell_gaps_kind::ciura, 4000);
  EXPECT_EQ(g[0], 3548u);
  EXPECT_EQ(g[1], 1577u);
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

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot::sorting
