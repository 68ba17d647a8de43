#include "sorts.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace mcpilot::sorting {

double order_value(order o, double n) {
  switch (o) {
    case order::n_squared:
      return n * n;
    case order::n_log_n:
      return n > 1 ? n * std::log2(n) : 0.0;
    case order::linear:
      return n;
  }
  return 0;
}

std::string_view order_name(order o) {
  switch (o) {
    case order::n_squared:
      return "n^2";
    case order::n_log_n:
      return "n log2 n";
    case order::linear:
      return "n";
  }
  return "?";
}

// Stops after a pass without a swap; each pass ends where the previous one last swapped, since
// everything past that point is already in place.
void bubble_sort(std::span<key> a, std::span<key>) {
  std::size_t end = a.size();
  while (end > 1) {
    std::size_t last = 0;
    for (std::size_t i = 1; i < end; ++i) {
      if (a[i - 1] > a[i]) {
        std::swap(a[i - 1], a[i]);
        last = i;
      }
    }
    end = last;
  }
}

// Shifts while the left neighbour is larger: one move per inversion.
void insertion_sort(std::span<key> a, std::span<key>) {
  for (std::size_t i = 1; i < a.size(); ++i) {
    const key x = a[i];
    std::size_t j = i;
    while (j > 0 && a[j - 1] > x) {
      a[j] = a[j - 1];
      --j;
    }
    a[j] = x;
  }
}

// Min sort: n(n-1)/2 comparisons for every input.
void selection_sort(std::span<key> a, std::span<key>) {
  for (std::size_t i = 0; i + 1 < a.size(); ++i) {
    std::size_t m = i;
    for (std::size_t j = i + 1; j < a.size(); ++j)
      if (a[j] < a[m]) m = j;
    std::swap(a[i], a[m]);
  }
}

// Binary search for the place (after equal keys, so the sort is stable), then one block move.
void binary_insertion_sort(std::span<key> a, std::span<key>) {
  for (std::size_t i = 1; i < a.size(); ++i) {
    const key x = a[i];
    std::size_t lo = 0, hi = i;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (a[mid] <= x)
        lo = mid + 1;
      else
        hi = mid;
    }
    std::move_backward(a.begin() + static_cast<std::ptrdiff_t>(lo),
                       a.begin() + static_cast<std::ptrdiff_t>(i),
                       a.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    a[lo] = x;
  }
}

gap_sequence shell_gaps(std::size_t n) {
  gap_sequence s;
  for (std::size_t g : {1, 4, 10, 23, 57, 132, 301, 701})
    if (g < n || g == 1) s.gaps[s.count++] = g;
  double g = 701;
  while (s.count < s.gaps.size()) {
    g = std::floor(g * 2.25);
    if (g >= static_cast<double>(n)) break;
    s.gaps[s.count++] = static_cast<std::size_t>(g);
  }
  std::reverse(s.gaps.begin(), s.gaps.begin() + static_cast<std::ptrdiff_t>(s.count));
  return s;
}

void shell_sort(std::span<key> a, std::span<key>) {
  const std::size_t n = a.size();
  if (n < 2) return;
  // The gaps are recomputed on each call, in the timed region: a handful of multiplications, on
  // the stack.
  for (std::size_t gap : shell_gaps(n)) {
    for (std::size_t i = gap; i < n; ++i) {
      const key x = a[i];
      std::size_t j = i;
      while (j >= gap && a[j - gap] > x) {
        a[j] = a[j - gap];
        j -= gap;
      }
      a[j] = x;
    }
  }
}

namespace {

void sift_down(std::span<key> a, std::size_t root, std::size_t end) {
  const key x = a[root];
  while (true) {
    std::size_t child = 2 * root + 1;
    if (child >= end) break;
    if (child + 1 < end && a[child + 1] > a[child]) ++child;
    if (a[child] <= x) break;
    a[root] = a[child];
    root = child;
  }
  a[root] = x;
}

// Sorts a[lo, hi) using scratch[lo, hi): both halves are sorted in place, then merged into the
// scratch and copied back, the top-down merge sort of the textbooks.
void merge_sort_range(std::span<key> a, std::span<key> scratch, std::size_t lo, std::size_t hi) {
  if (hi - lo < 2) return;
  const std::size_t mid = lo + (hi - lo) / 2;
  merge_sort_range(a, scratch, lo, mid);
  merge_sort_range(a, scratch, mid, hi);
  std::size_t i = lo, j = mid, k = lo;
  while (i < mid && j < hi) scratch[k++] = a[j] < a[i] ? a[j++] : a[i++];
  while (i < mid) scratch[k++] = a[i++];
  while (j < hi) scratch[k++] = a[j++];
  std::copy(scratch.begin() + static_cast<std::ptrdiff_t>(lo),
            scratch.begin() + static_cast<std::ptrdiff_t>(hi),
            a.begin() + static_cast<std::ptrdiff_t>(lo));
}

// Below this size a subarray is left for one final insertion sort pass.
constexpr std::size_t quick_cutoff = 16;

void quick_range(key* lo, key* hi) {  // [lo, hi], inclusive
  while (hi - lo >= static_cast<std::ptrdiff_t>(quick_cutoff)) {
    // Median of three: sorts *lo, *mid, *hi, so that both ends act as sentinels.
    key* mid = lo + (hi - lo) / 2;
    if (*mid < *lo) std::swap(*mid, *lo);
    if (*hi < *lo) std::swap(*hi, *lo);
    if (*hi < *mid) std::swap(*hi, *mid);
    const key pivot = *mid;
    key* i = lo;
    key* j = hi;
    // Hoare partition: stops on keys equal to the pivot, so equal keys split evenly.
    while (true) {
      do ++i;
      while (*i < pivot);
      do --j;
      while (pivot < *j);
      if (i >= j) break;
      std::swap(*i, *j);
    }
    // Recurse into the smaller side and loop on the larger: the stack stays O(log n).
    if (j - lo < hi - j) {
      quick_range(lo, j);
      lo = j + 1;
    } else {
      quick_range(j + 1, hi);
      hi = j;
    }
  }
}

}  // namespace

void heap_sort(std::span<key> a, std::span<key>) {
  const std::size_t n = a.size();
  if (n < 2) return;
  for (std::size_t i = n / 2; i-- > 0;) sift_down(a, i, n);
  for (std::size_t end = n - 1; end > 0; --end) {
    std::swap(a[0], a[end]);
    sift_down(a, 0, end);
  }
}

void merge_sort(std::span<key> a, std::span<key> scratch) {
  merge_sort_range(a, scratch, 0, a.size());
}

void quick_sort(std::span<key> a, std::span<key> scratch) {
  if (a.size() < 2) return;
  quick_range(a.data(), a.data() + a.size() - 1);
  insertion_sort(a, scratch);  // each element is within quick_cutoff of its place
}

void std_sort(std::span<key> a, std::span<key>) {
  std::sort(a.begin(), a.end());
}

void std_stable_sort(std::span<key> a, std::span<key>) {
  std::stable_sort(a.begin(), a.end());
}

// Least significant digit first, four passes of 8 bits, each a stable counting sort between the
// keys and the scratch; after an even number of passes the result is back in the keys.
void radix_sort(std::span<key> a, std::span<key> scratch) {
  const std::size_t n = a.size();
  if (n < 2) return;
  key* from = a.data();
  key* to = scratch.data();
  for (unsigned shift = 0; shift < 32; shift += 8) {
    std::size_t count[257] = {};
    for (std::size_t i = 0; i < n; ++i) ++count[((from[i] >> shift) & 0xFF) + 1];
    for (std::size_t d = 0; d < 256; ++d) count[d + 1] += count[d];
    for (std::size_t i = 0; i < n; ++i) to[count[(from[i] >> shift) & 0xFF]++] = from[i];
    std::swap(from, to);
  }
}

const std::vector<algorithm>& algorithms() {
  static const std::vector<algorithm> all = {
      {"bubble", order::n_squared, bubble_sort, true,
       "bubble sort, stopping after a pass without a swap"},
      {"insertion", order::n_squared, insertion_sort, true,
       "insertion sort, shifting while the left neighbour is larger"},
      {"selection", order::n_squared, selection_sort, true, "selection (min) sort"},
      {"binary-insertion", order::n_squared, binary_insertion_sort, true,
       "insertion sort finding the place by binary search"},
      {"shell", order::n_log_n, shell_sort, true,
       "Shell sort with Ciura's gaps (no proven bound; n log2 n is the reference scale)"},
      {"heap", order::n_log_n, heap_sort, false, "heap sort (sift-down)"},
      {"merge", order::n_log_n, merge_sort, false, "top-down merge sort with one scratch array"},
      {"quick", order::n_log_n, quick_sort, false,
       "quicksort: median of three, Hoare partition, insertion sort below 16"},
      {"std-sort", order::n_log_n, std_sort, false, "std::sort of the standard library"},
      {"std-stable-sort", order::n_log_n, std_stable_sort, false,
       "std::stable_sort of the standard library"},
      {"radix", order::linear, radix_sort, false, "LSD radix sort, four 8-bit passes"},
  };
  return all;
}

const algorithm* find_algorithm(std::string_view name) {
  for (const auto& a : algorithms())
    if (a.name == name) return &a;
  return nullptr;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> out;
  for (const auto& a : algorithms()) out.emplace_back(a.name);
  return out;
}

}  // namespace mcpilot::sorting
