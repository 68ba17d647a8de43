#include "counts.hpp"

#include <stdexcept>
#include <string>

namespace mcpilot::sorting {

operation_counts count_operations(std::string_view algorithm, shell_gaps_kind gaps,
                                  std::span<key> a) {
  if (algorithm == "selection") return counted_selection_sort(a);
  if (algorithm == "bubble") return counted_bubble_sort(a);
  if (algorithm == "shaker") return counted_shaker_sort(a);
  if (algorithm == "insertion") return counted_insertion_sort(a);
  if (algorithm == "binary-insertion") return counted_binary_insertion_sort(a);
  if (algorithm == "shell") return counted_shell_sort(a, gaps);
  if (algorithm == "quick") return counted_quick_sort(a);
  if (algorithm == "quick-stack") return counted_quick_stack_sort(a);
  if (algorithm == "quick-queue") return counted_quick_queue_sort(a);
  if (algorithm == "merge") return counted_merge_sort(a);
  if (algorithm == "heap") return counted_heap_sort(a);
  if (algorithm == "std-sort") return counted_std_sort(a);
  if (algorithm == "std-stable-sort") return counted_std_stable_sort(a);
  if (algorithm == "radix") return counted_radix_sort(a);
  throw std::invalid_argument("no instrumented copy of " + std::string(algorithm));
}

std::uint64_t inversions(std::span<const key> a) {
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i + 1; j < a.size(); ++j) count += a[i] > a[j] ? 1 : 0;
  return count;
}

}  // namespace mcpilot::sorting
