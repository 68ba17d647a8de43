// The three quicksorts of the study: one partition (Hoare's, around the middle element's value),
// three ways of keeping the subarrays still to sort: recursion, an explicit stack, and a queue
// (breadth first). The partitions, and so the counts, are the same for the three on the same
// keys; what differs is the order of the work and the bookkeeping it costs.

#include <utility>

#include "counts.hpp"
#include "placed_copies.hpp"
#include "sort_ops.hpp"
#include "sorts.hpp"

namespace mcpilot::sorting {

namespace {

using index = std::ptrdiff_t;

// Hoare's partition of a[lo..hi] (inclusive, hi > lo) around the value of the middle element:
// returns j with every key of a[lo..j] <= pivot <= every key of a[j+1..hi], lo <= j < hi. Both
// scans stop on keys equal to the pivot, so equal keys split evenly. Moves: swaps.
template <class Ops>
index partition(key* a, index lo, index hi, Ops& ops) {
  const key pivot = a[lo + (hi - lo) / 2];
  index i = lo - 1, j = hi + 1;
  while (true) {
    do ++i;
    while (ops.less(a[i], pivot));
    do --j;
    while (ops.less(pivot, a[j]));
    if (i >= j) return j;
    std::swap(a[i], a[j]);
    ops.moved();
  }
}

// Recursion into the smaller side and a loop on the larger keep the stack O(log n) whatever the
// keys (organ-pipe keys put the largest key in the middle); the partitions are those of the
// textbook's two recursive calls.
template <class Ops>
void quick_range(key* a, index lo, index hi, Ops& ops) {
  while (lo < hi) {
    if (hi - lo >= poll_span && ops.stop()) return;
    const index p = partition(a, lo, hi, ops);
    if (p - lo < hi - p) {
      quick_range(a, lo, p, ops);
      lo = p + 1;
    } else {
      quick_range(a, p + 1, hi, ops);
      hi = p;
    }
  }
}

template <class Ops>
void quick(std::span<key> a, std::span<key>, Ops& ops) {
  if (a.size() > 1) quick_range(a.data(), 0, static_cast<index>(a.size()) - 1, ops);
}

// The pending subarrays, as pairs (lo, hi), live in the scratch: they are disjoint and hold two or
// more keys each, so at most n/2 are pending at once (scratch_size(n) >= n + 2 keys).
template <class Ops>
void quick_stack(std::span<key> a, std::span<key> scratch, Ops& ops) {
  if (a.size() < 2) return;
  key* stack = scratch.data();
  std::size_t top = 0;
  stack[top++] = 0;
  stack[top++] = static_cast<key>(a.size() - 1);
  while (top > 0) {
    const index hi = stack[--top];
    const index lo = stack[--top];
    if (hi - lo >= poll_span && ops.stop()) return;
    const index p = partition(a.data(), lo, hi, ops);
    // Right first, so that the left part is popped, and sorted, next: depth first, left to right.
    if (p + 1 < hi) {
      stack[top++] = static_cast<key>(p + 1);
      stack[top++] = static_cast<key>(hi);
    }
    if (lo < p) {
      stack[top++] = static_cast<key>(lo);
      stack[top++] = static_cast<key>(p);
    }
  }
}

// Breadth first: the subarrays wait in a ring buffer of at most n/2 + 1 pairs, oldest first, so
// every level of the partition tree is done before the next; the queue is its own cost, and the
// passes over the whole array at each level are the cache's.
template <class Ops>
void quick_queue(std::span<key> a, std::span<key> scratch, Ops& ops) {
  if (a.size() < 2) return;
  key* ring = scratch.data();
  const std::size_t capacity = a.size() / 2 + 1;  // pairs
  std::size_t head = 0, count = 0;
  auto push = [&](index lo, index hi) {
    const std::size_t slot = (head + count) % capacity;
    ring[2 * slot] = static_cast<key>(lo);
    ring[2 * slot + 1] = static_cast<key>(hi);
    ++count;
  };
  push(0, static_cast<index>(a.size()) - 1);
  while (count > 0) {
    const index lo = ring[2 * head], hi = ring[2 * head + 1];
    head = (head + 1) % capacity;
    --count;
    if (hi - lo >= poll_span && ops.stop()) return;
    const index p = partition(a.data(), lo, hi, ops);
    if (p + 1 < hi) push(p + 1, hi);
    if (lo < p) push(lo, p);
  }
}

}  // namespace

template <bool Poll>
void quick_sort(std::span<key> a, std::span<key> scratch) {
  ops_for<Poll> ops;
  quick(a, scratch, ops);
}
template <bool Poll>
void quick_stack_sort(std::span<key> a, std::span<key> scratch) {
  ops_for<Poll> ops;
  quick_stack(a, scratch, ops);
}
template <bool Poll>
void quick_queue_sort(std::span<key> a, std::span<key> scratch) {
  ops_for<Poll> ops;
  quick_queue(a, scratch, ops);
}

template void quick_sort<false>(std::span<key>, std::span<key>);
template void quick_sort<true>(std::span<key>, std::span<key>);
template void quick_stack_sort<false>(std::span<key>, std::span<key>);
template void quick_stack_sort<true>(std::span<key>, std::span<key>);
template void quick_queue_sort<false>(std::span<key>, std::span<key>);
template void quick_queue_sort<true>(std::span<key>, std::span<key>);

// Their placed copies (layout = "random"), here where the bodies are visible.
template const placed_sorts& placed_copies<quick_stack_sort<false>>();
template const placed_sorts& placed_copies<quick_queue_sort<false>>();

operation_counts counted_quick_sort(std::span<key> a) {
  return count_with_scratch(quick<counting_ops>, a);
}
operation_counts counted_quick_stack_sort(std::span<key> a) {
  return count_with_scratch(quick_stack<counting_ops>, a);
}
operation_counts counted_quick_queue_sort(std::span<key> a) {
  return count_with_scratch(quick_queue<counting_ops>, a);
}

}  // namespace mcpilot::sorting
