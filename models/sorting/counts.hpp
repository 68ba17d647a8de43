#pragma once
// Instrumented copies of some sorts that count key comparisons and moves. They are never the code
// that is timed (counting changes what is measured); they exist so that the algorithms' known
// expectations (docs/models/sorting.md, "Counts") can test that each sort is the algorithm it
// claims to be.

#include <cstdint>
#include <span>

#include "sorts.hpp"

namespace mcpilot::sorting {

struct operation_counts {
  std::uint64_t comparisons = 0;  // key against key
  std::uint64_t moves = 0;        // shifts (insertion sorts), swaps (bubble, selection)
};

operation_counts counted_insertion_sort(std::span<key> a);
operation_counts counted_bubble_sort(std::span<key> a);  // moves = swaps
operation_counts counted_selection_sort(std::span<key> a);
operation_counts counted_binary_insertion_sort(std::span<key> a);  // moves = keys shifted
operation_counts counted_merge_sort(std::span<key> a);             // comparisons only

// Inversions: pairs i < j with a[i] > a[j]. O(n^2); for tests.
std::uint64_t inversions(std::span<const key> a);

}  // namespace mcpilot::sorting
