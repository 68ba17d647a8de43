// Top-down merge sort and heap sort, the study's other two n log n sorts.

#include <algorithm>
#include <utility>

#include "counts.hpp"
#include "placed_copies.hpp"
#include "sort_ops.hpp"
#include "sorts.hpp"

namespace mcpilot::sorting {

namespace {

// Sorts a[0, n) with tmp[0, n): both halves are sorted in place, then both are copied out and
// merged back, the textbook's version that copies both halves at every level (it allocates the
// copies; here they live in the scratch, allocated once outside the timed region). Stable: on equal
// keys the left one is taken first. Moves: every key copied out and every key merged back, 2n per
// level, whatever the keys.
template <class Ops>
void merge_range(key* a, key* tmp, std::size_t n, Ops& ops) {
  if (n < 2) return;
  if (static_cast<std::ptrdiff_t>(n) >= poll_span && ops.stop()) return;
  const std::size_t mid = n / 2;
  merge_range(a, tmp, mid, ops);
  merge_range(a + mid, tmp + mid, n - mid, ops);
  std::copy(a, a + n, tmp);
  ops.moved(n);
  std::size_t i = 0, j = mid, k = 0;
  while (i < mid && j < n) a[k++] = ops.less(tmp[j], tmp[i]) ? tmp[j++] : tmp[i++];
  while (i < mid) a[k++] = tmp[i++];
  while (j < n) a[k++] = tmp[j++];
  ops.moved(n);
}

template <class Ops>
void merge(std::span<key> a, std::span<key> scratch, Ops& ops) {
  merge_range(a.data(), scratch.data(), a.size(), ops);
}

// Moves the key at `root` down to its place in the heap a[0, end): at each level one comparison
// picks the larger child and one compares it with the key. Moves: keys written (each step down and
// the final placement).
template <class Ops>
void sift_down(key* a, std::size_t root, std::size_t end, Ops& ops) {
  const key x = a[root];
  while (true) {
    std::size_t child = 2 * root + 1;
    if (child >= end) break;
    if (child + 1 < end && ops.less(a[child], a[child + 1])) ++child;
    if (!ops.less(x, a[child])) break;
    a[root] = a[child];
    ops.moved();
    root = child;
  }
  a[root] = x;
  ops.moved();
}

// Heap sort: build a max-heap bottom up, then swap the largest key to the end and sift the new
// root down, n - 1 times. Polled once per 4,096 sift-downs.
template <class Ops>
void heap(std::span<key> a, std::span<key>, Ops& ops) {
  const std::size_t n = a.size();
  if (n < 2) return;
  for (std::size_t i = n / 2; i-- > 0;) {
    if ((i & 4095) == 0 && ops.stop()) return;
    sift_down(a.data(), i, n, ops);
  }
  for (std::size_t end = n - 1; end > 0; --end) {
    if ((end & 4095) == 0 && ops.stop()) return;
    std::swap(a[0], a[end]);
    ops.moved(2);
    sift_down(a.data(), 0, end, ops);
  }
}

}  // namespace

template <bool Poll>
void merge_sort(std::span<key> a, std::span<key> scratch) {
  ops_for<Poll> ops;
  merge(a, scratch, ops);
}
template <bool Poll>
void heap_sort(std::span<key> a, std::span<key> scratch) {
  ops_for<Poll> ops;
  heap(a, scratch, ops);
}

template void merge_sort<false>(std::span<key>, std::span<key>);
template void merge_sort<true>(std::span<key>, std::span<key>);
template void heap_sort<false>(std::span<key>, std::span<key>);
template void heap_sort<true>(std::span<key>, std::span<key>);

// Their placed copies (layout = "random"), here where the bodies are visible.
template const placed_sorts& placed_copies<heap_sort<false>>();

operation_counts counted_merge_sort(std::span<key> a) {
  return count_with_scratch(merge<counting_ops>, a);
}
operation_counts counted_heap_sort(std::span<key> a) {
  return count_with_scratch(heap<counting_ops>, a);
}

}  // namespace mcpilot::sorting
