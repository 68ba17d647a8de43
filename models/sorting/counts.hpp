#pragma once
// Instrumented copies of every sort, counting key comparisons and moves. They are instantiations
// of the same templates as the timed sorts (sort_ops.hpp), never the code that is timed; they
// exist so that the algorithms' known expectations and bounds (docs/models/sorting.md, "Counts")
// can test that each sort is the algorithm it claims to be.
//
// What a move is, per sort:
//   selection, bubble, shaker, the quicksorts: swaps (selection swaps once per position, n - 1);
//   insertion, binary insertion, Shell: keys shifted;
//   merge: keys copied out and merged back, 2n per level (a function of n alone);
//   heap: keys written into the array (sift-down steps and placements, two per swap);
//   radix: keys written, 4n (no key comparisons);
//   std-sort, std-stable-sort: every copy or move of a key the library makes.

#include <cstdint>
#include <span>
#include <string_view>

#include "sort_ops.hpp"
#include "sorts.hpp"

namespace mcpilot::sorting {

operation_counts counted_selection_sort(std::span<key> a);
operation_counts counted_bubble_sort(std::span<key> a);
operation_counts counted_shaker_sort(std::span<key> a);
operation_counts counted_insertion_sort(std::span<key> a);
operation_counts counted_binary_insertion_sort(std::span<key> a);
operation_counts counted_shell_sort(std::span<key> a, shell_gaps_kind gaps);
operation_counts counted_quick_sort(std::span<key> a);
operation_counts counted_quick_stack_sort(std::span<key> a);
operation_counts counted_quick_queue_sort(std::span<key> a);
operation_counts counted_merge_sort(std::span<key> a);
operation_counts counted_heap_sort(std::span<key> a);
operation_counts counted_std_sort(std::span<key> a);
operation_counts counted_std_stable_sort(std::span<key> a);
operation_counts counted_radix_sort(std::span<key> a);

// The instrumented copy of the named algorithm (Shell sort with the given gaps). Every algorithm
// has one.
operation_counts count_operations(std::string_view algorithm, shell_gaps_kind gaps,
                                  std::span<key> a);

// Inversions: pairs i < j with a[i] > a[j]. O(n^2); for tests.
std::uint64_t inversions(std::span<const key> a);

}  // namespace mcpilot::sorting
