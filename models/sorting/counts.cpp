#include "counts.hpp"

#include <utility>
#include <vector>

namespace mcpilot::sorting {

// Each function mirrors its timed twin in sorts.cpp line for line, with a counter beside each
// comparison and move.

operation_counts counted_insertion_sort(std::span<key> a) {
  operation_counts c;
  for (std::size_t i = 1; i < a.size(); ++i) {
    const key x = a[i];
    std::size_t j = i;
    while (j > 0) {
      ++c.comparisons;
      if (!(a[j - 1] > x)) break;
      a[j] = a[j - 1];
      ++c.moves;
      --j;
    }
    a[j] = x;
  }
  return c;
}

operation_counts counted_bubble_sort(std::span<key> a) {
  operation_counts c;
  std::size_t end = a.size();
  while (end > 1) {
    std::size_t last = 0;
    for (std::size_t i = 1; i < end; ++i) {
      ++c.comparisons;
      if (a[i - 1] > a[i]) {
        std::swap(a[i - 1], a[i]);
        ++c.moves;
        last = i;
      }
    }
    end = last;
  }
  return c;
}

operation_counts counted_selection_sort(std::span<key> a) {
  operation_counts c;
  for (std::size_t i = 0; i + 1 < a.size(); ++i) {
    std::size_t m = i;
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      ++c.comparisons;
      if (a[j] < a[m]) m = j;
    }
    std::swap(a[i], a[m]);
    ++c.moves;
  }
  return c;
}

operation_counts counted_binary_insertion_sort(std::span<key> a) {
  operation_counts c;
  for (std::size_t i = 1; i < a.size(); ++i) {
    const key x = a[i];
    std::size_t lo = 0, hi = i;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      ++c.comparisons;
      if (a[mid] <= x)
        lo = mid + 1;
      else
        hi = mid;
    }
    for (std::size_t k = i; k > lo; --k) {
      a[k] = a[k - 1];
      ++c.moves;
    }
    a[lo] = x;
  }
  return c;
}

namespace {

void counted_merge_range(std::span<key> a, std::vector<key>& scratch, std::size_t lo,
                         std::size_t hi, operation_counts& c) {
  if (hi - lo < 2) return;
  const std::size_t mid = lo + (hi - lo) / 2;
  counted_merge_range(a, scratch, lo, mid, c);
  counted_merge_range(a, scratch, mid, hi, c);
  std::size_t i = lo, j = mid, k = lo;
  while (i < mid && j < hi) {
    ++c.comparisons;
    scratch[k++] = a[j] < a[i] ? a[j++] : a[i++];
  }
  while (i < mid) scratch[k++] = a[i++];
  while (j < hi) scratch[k++] = a[j++];
  for (std::size_t t = lo; t < hi; ++t) a[t] = scratch[t];
}

}  // namespace

operation_counts counted_merge_sort(std::span<key> a) {
  operation_counts c;
  std::vector<key> scratch(a.size());
  counted_merge_range(a, scratch, 0, a.size(), c);
  return c;
}

std::uint64_t inversions(std::span<const key> a) {
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i + 1; j < a.size(); ++j) count += a[i] > a[j] ? 1 : 0;
  return count;
}

}  // namespace mcpilot::sorting
