// The quadratic sorts of the study: min (selection), bubble, shaker, insertion and binary
// insertion sort. Each is one template over its ops (sort_ops.hpp): timed as written, pollable, and
// counted.

#include <algorithm>
#include <utility>

#include "counts.hpp"
#include "placed_copies.hpp"
#include "sort_ops.hpp"
#include "sorts.hpp"

namespace mcpilot::sorting {

namespace {

// Min sort: n(n-1)/2 comparisons for every input. Moves: swaps, one per position (n - 1), also
// when the minimum is already in place.
template <class Ops>
void selection(std::span<key> a, Ops& ops) {
  for (std::size_t i = 0; i + 1 < a.size(); ++i) {
    if (ops.stop()) return;
    std::size_t m = i;
    for (std::size_t j = i + 1; j < a.size(); ++j)
      if (ops.less(a[j], a[m])) m = j;
    std::swap(a[i], a[m]);
    ops.moved();
  }
}

// Stops after a pass without a swap; each pass ends where the previous one last swapped, since
// everything past that point is already in place. Moves: swaps, one per inversion.
template <class Ops>
void bubble(std::span<key> a, Ops& ops) {
  std::size_t end = a.size();
  while (end > 1) {
    if (ops.stop()) return;
    std::size_t last = 0;
    for (std::size_t i = 1; i < end; ++i) {
      if (ops.less(a[i], a[i - 1])) {
        std::swap(a[i - 1], a[i]);
        ops.moved();
        last = i;
      }
    }
    end = last;
  }
}

// Bubble sort in both directions: a pass up carries the largest key to the top, a pass down the
// smallest to the bottom, each over the range the previous passes left unsorted; it stops after a
// pass without a swap. Moves: swaps, one per inversion, as for bubble sort.
template <class Ops>
void shaker(std::span<key> a, Ops& ops) {
  std::size_t low = 0, high = a.size();
  while (high - low > 1) {
    if (ops.stop()) return;
    std::size_t last = low;
    for (std::size_t i = low + 1; i < high; ++i)
      if (ops.less(a[i], a[i - 1])) {
        std::swap(a[i - 1], a[i]);
        ops.moved();
        last = i;
      }
    high = last;  // a[last, end) holds the largest keys, in place
    if (high - low <= 1) break;
    last = high;
    for (std::size_t i = high - 1; i > low; --i)
      if (ops.less(a[i], a[i - 1])) {
        std::swap(a[i - 1], a[i]);
        ops.moved();
        last = i;
      }
    if (last == high) break;  // no swap on the way down: sorted
    low = last;               // a[0, last) holds the smallest keys, in place
  }
}

// Shifts while the left neighbour is larger. Moves: shifts, one per inversion.
template <class Ops>
void insertion(std::span<key> a, Ops& ops) {
  for (std::size_t i = 1; i < a.size(); ++i) {
    if ((i & 255) == 0 && ops.stop()) return;
    const key x = a[i];
    std::size_t j = i;
    while (j > 0 && ops.less(x, a[j - 1])) {
      a[j] = a[j - 1];
      ops.moved();
      --j;
    }
    a[j] = x;
  }
}

// Binary search for the place (after equal keys, so the sort is stable), then one block move.
// Moves: keys shifted, one per inversion.
template <class Ops>
void binary_insertion(std::span<key> a, Ops& ops) {
  for (std::size_t i = 1; i < a.size(); ++i) {
    if ((i & 255) == 0 && ops.stop()) return;
    const key x = a[i];
    std::size_t lo = 0, hi = i;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (!ops.less(x, a[mid]))
        lo = mid + 1;
      else
        hi = mid;
    }
    std::move_backward(a.begin() + static_cast<std::ptrdiff_t>(lo),
                       a.begin() + static_cast<std::ptrdiff_t>(i),
                       a.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    ops.moved(i - lo);
    a[lo] = x;
  }
}

template <class Ops>
operation_counts count(void (*sort)(std::span<key>, Ops&), std::span<key> a) {
  Ops ops;
  sort(a, ops);
  return ops.counts;
}

}  // namespace

template <bool Poll>
void selection_sort(std::span<key> a, std::span<key>) {
  ops_for<Poll> ops;
  selection(a, ops);
}
template <bool Poll>
void bubble_sort(std::span<key> a, std::span<key>) {
  ops_for<Poll> ops;
  bubble(a, ops);
}
template <bool Poll>
void shaker_sort(std::span<key> a, std::span<key>) {
  ops_for<Poll> ops;
  shaker(a, ops);
}
template <bool Poll>
void insertion_sort(std::span<key> a, std::span<key>) {
  ops_for<Poll> ops;
  insertion(a, ops);
}
template <bool Poll>
void binary_insertion_sort(std::span<key> a, std::span<key>) {
  ops_for<Poll> ops;
  binary_insertion(a, ops);
}

template void selection_sort<false>(std::span<key>, std::span<key>);
template void selection_sort<true>(std::span<key>, std::span<key>);
template void bubble_sort<false>(std::span<key>, std::span<key>);
template void bubble_sort<true>(std::span<key>, std::span<key>);
template void shaker_sort<false>(std::span<key>, std::span<key>);
template void shaker_sort<true>(std::span<key>, std::span<key>);
template void insertion_sort<false>(std::span<key>, std::span<key>);
template void insertion_sort<true>(std::span<key>, std::span<key>);
template void binary_insertion_sort<false>(std::span<key>, std::span<key>);
template void binary_insertion_sort<true>(std::span<key>, std::span<key>);

// Their placed copies (layout = "random"), here where the bodies are visible.
template const placed_sorts& placed_copies<selection_sort<false>>();
template const placed_sorts& placed_copies<bubble_sort<false>>();
template const placed_sorts& placed_copies<shaker_sort<false>>();
template const placed_sorts& placed_copies<insertion_sort<false>>();
template const placed_sorts& placed_copies<binary_insertion_sort<false>>();

operation_counts counted_selection_sort(std::span<key> a) {
  return count<counting_ops>(selection<counting_ops>, a);
}
operation_counts counted_bubble_sort(std::span<key> a) {
  return count<counting_ops>(bubble<counting_ops>, a);
}
operation_counts counted_shaker_sort(std::span<key> a) {
  return count<counting_ops>(shaker<counting_ops>, a);
}
operation_counts counted_insertion_sort(std::span<key> a) {
  return count<counting_ops>(insertion<counting_ops>, a);
}
operation_counts counted_binary_insertion_sort(std::span<key> a) {
  return count<counting_ops>(binary_insertion<counting_ops>, a);
}

}  // namespace mcpilot::sorting
