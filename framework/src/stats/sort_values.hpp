// Sorting the samples of a rank test: mostly a few dozen doubles at a time, thousands of times
// over in a change-point search (at 10^6 readings, 140,000 sorts of 2 to 400 values, four fifths
// of them under 64).
//
// Up to 64 values go through Batcher's odd-even merge sort network, padded with +infinity to the
// next power of two: a fixed sequence of compare-exchanges, each a min and a max with no branch.
// pdqsort's insertion sort and partitions mispredict about one comparison in two on values in
// random order, and the network is 2 to 3 times faster at these sizes (8: 76 -> 27 ns; 32: 498 ->
// 157 ns; 64: 1154 -> 437 ns, on this project's 2-core VM). Longer samples go to pdqsort.
//
// The values must not be NaN (the rank tests reject NaN before sorting). -0 is replaced by +0,
// which compares equal to it: min and max of two equal values could otherwise turn a -0, +0 pair
// into two copies of one of them.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>

#include <boost/sort/pdqsort/pdqsort.hpp>

namespace mcpilot::detail {

// The comparators of Batcher's odd-even merge sort (1968) on n = 2^p inputs, in order:
// (p^2 - p + 4) 2^(p-2) - 1 of them, 19, 63, 191 and 543 for n = 8, 16, 32 and 64.
template <std::size_t n>
struct batcher_network {
  static constexpr std::size_t count() {
    std::size_t c = 0;
    visit([&](std::size_t, std::size_t) { ++c; });
    return c;
  }
  template <class F>
  static constexpr void visit(F&& f) {
    for (std::size_t p = 1; p < n; p *= 2)
      for (std::size_t k = p; k >= 1; k /= 2)
        for (std::size_t j = k % p; j + k < n; j += 2 * k)
          for (std::size_t i = 0; i < k && i + j + k < n; ++i)
            if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) f(i + j, i + j + k);
  }
  static constexpr auto pairs() {
    std::array<std::pair<std::uint8_t, std::uint8_t>, count()> out{};
    std::size_t c = 0;
    visit([&](std::size_t a, std::size_t b) {
      out[c++] = {static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)};
    });
    return out;
  }
};

static_assert(batcher_network<8>::count() == 19 && batcher_network<16>::count() == 63 &&
              batcher_network<32>::count() == 191 && batcher_network<64>::count() == 543);

template <std::size_t n>
void network_sort(std::span<double> v) {
  static constexpr auto comparators = batcher_network<n>::pairs();
  std::array<double, n> a;
  for (std::size_t i = 0; i < v.size(); ++i) a[i] = v[i] + 0.0;  // -0 + 0 is +0
  for (std::size_t i = v.size(); i < n; ++i) a[i] = std::numeric_limits<double>::infinity();
  for (const auto& [i, j] : comparators) {
    const double lo = std::min(a[i], a[j]), hi = std::max(a[i], a[j]);
    a[i] = lo;
    a[j] = hi;
  }
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = a[i];
}

// Sorts v ascending (equal values in any order). O(n log^2 n) up to 64 values, O(n log n) beyond.
inline void sort_values(std::span<double> v) {
  const std::size_t n = v.size();
  if (n <= 1) return;
  if (n <= 8) return network_sort<8>(v);
  if (n <= 16) return network_sort<16>(v);
  if (n <= 32) return network_sort<32>(v);
  if (n <= 64) return network_sort<64>(v);
  boost::sort::pdqsort_branchless(v.begin(), v.end());
}

}  // namespace mcpilot::detail
