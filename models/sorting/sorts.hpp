#pragma once
// The sorts the model times, on 32-bit unsigned keys, each with its order f(n). Every sort takes
// the keys and a scratch array of the same length, allocated outside the timed region; the sorts
// that need no scratch ignore it (std::stable_sort allocates its own, as callers of it do).

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mcpilot::sorting {

using key = std::uint32_t;
using sort_function = void (*)(std::span<key> keys, std::span<key> scratch);

enum class order { n_squared, n_log_n, linear };

// f(n) for the order: n^2, n log2 n, or n. 0 for n log2 n at n <= 1 (there is nothing to scale).
double order_value(order o, double n);
std::string_view order_name(order o);  // "n^2", "n log2 n", "n"

struct algorithm {
  std::string_view name;
  order f;
  sort_function sort;
  // Subject to the early-stop rule: the quadratic sorts and Shell sort.
  bool stops_early;
  std::string_view description;
};

// Every algorithm, in the order `mcpilot describe` lists them.
const std::vector<algorithm>& algorithms();
const algorithm* find_algorithm(std::string_view name);
std::vector<std::string> algorithm_names();

void bubble_sort(std::span<key> a, std::span<key> scratch);
void insertion_sort(std::span<key> a, std::span<key> scratch);
void selection_sort(std::span<key> a, std::span<key> scratch);
void binary_insertion_sort(std::span<key> a, std::span<key> scratch);
void shell_sort(std::span<key> a, std::span<key> scratch);
void heap_sort(std::span<key> a, std::span<key> scratch);
void merge_sort(std::span<key> a, std::span<key> scratch);
void quick_sort(std::span<key> a, std::span<key> scratch);
void std_sort(std::span<key> a, std::span<key> scratch);
void std_stable_sort(std::span<key> a, std::span<key> scratch);
void radix_sort(std::span<key> a, std::span<key> scratch);

// Ciura's gaps (1, 4, 10, 23, 57, 132, 301, 701), extended past 701 by x 2.25, below n; largest
// first. A fixed array, not a vector: Shell sort computes them inside the timed region, where a
// heap allocation per sort cost as much as sorting 6 keys (and stopped Shell sort at n = 6).
struct gap_sequence {
  std::array<std::size_t, 64> gaps{};  // 701 x 2.25^55 > 2^64: never more than 63
  std::size_t count = 0;
  const std::size_t* begin() const { return gaps.data(); }
  const std::size_t* end() const { return gaps.data() + count; }
};
gap_sequence shell_gaps(std::size_t n);

}  // namespace mcpilot::sorting
