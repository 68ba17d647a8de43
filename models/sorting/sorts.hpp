#pragma once
// The sorts the model times, on 32-bit unsigned keys, each with its order f(n). The first eleven
// are the sort-constant study's (docs/models/sorting.md): min (selection), bubble, shaker,
// insertion, binary insertion, Shell (gaps 2^p 3^q), quicksort (Hoare partition, middle pivot),
// the same with an explicit stack, a breadth-first quicksort over a queue of subarrays, top-down
// merge sort copying both halves at every level, and heap sort. std::sort, std::stable_sort and an
// LSD radix sort are extras.
//
// Every sort takes the keys and a scratch array of at least scratch_size(n) keys, allocated outside
// the timed region; the sorts that need none ignore it (std::stable_sort allocates its own, as
// callers of it do). Nothing is allocated inside a timed sort.
//
// Each sort comes twice, from one template: as written, and "pollable", which asks
// timed_region_should_stop() at coarse intervals (once per pass, per partition of a large
// subarray, per block of many outer iterations) and returns unfinished when the session is asked
// to stop. The model times the pollable copy only where one sort can take long (f(n) >= 2^24), so
// that max_seconds and Ctrl-C act within about a second; below that the code timed is the plain
// algorithm, with nothing added to it.

#include <array>
#include <cstddef>
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

// The scratch every sort may use: n keys for merge and radix sort, and for the explicit stack and
// the queue of the two quicksorts (at most n/2 pending subarrays of two or more keys, disjoint, as
// pairs of 32-bit indices), plus two.
constexpr std::size_t scratch_size(std::size_t n) {
  return n + 2;
}

// Above this f(n) one sort may take tens of milliseconds or more, and the pollable copy is timed.
inline constexpr double pollable_from_f = 16777216.0;  // 2^24

// Placed copies of a sort (placed_copies.hpp): copy i is 64-byte aligned and starts with a jump
// over i x placed_copy_step bytes, so the sixteen cover every 4-byte offset within a cache line,
// each at an address of its own. `layout = "random"` times each reading with one of them.
// Each sort that has copies is declared [[gnu::flatten]] below, as its copies are: the linked
// function is then the copies' machine code, and the layouts differ in placement alone. Without
// it the linked quick-queue and quick-stack got another register allocation, three values on the
// stack in the partition loop, and took 7-16% longer than every copy (docs/models/sorting.md,
// "Runs W1-W5"). The attribute belongs on these declarations: the unity build takes the sorts'
// addresses (sorts.cpp) before their definitions, and with the attribute on the definitions alone
// it still compiled the old code. scripts/placed-code.py checks the built binary (ctest
// sorting.placed_code).
inline constexpr int placed_copy_count = 16;
inline constexpr int placed_copy_step = 4;
using placed_sorts = std::array<sort_function, placed_copy_count>;
// Defined in placed_copies.hpp and instantiated in the sort's own file, where its body is visible.
template <sort_function Sort>
const placed_sorts& placed_copies();

// Which copy of a sort a reading times (the model's `layout`): the one the linker placed (fixed),
// a placed copy drawn for each reading from its stream (random), or one placed copy throughout
// (copy-i: what a rebuild that moved the sort would time).
struct code_layout {
  enum class kind { fixed, random, pinned } how = kind::fixed;
  int copy = 0;  // pinned only
};
std::vector<std::string> code_layout_names();  // fixed, random, copy-0 ... copy-15
code_layout code_layout_by_name(std::string_view name);
std::string code_layout_name(code_layout layout);  // the name code_layout_by_name reads
// The copy a random-layout reading times, from one 64-bit word of its stream: the top four bits,
// uniform over the 16 copies when the word is.
constexpr int placed_copy_of(std::uint64_t word) {
  static_assert(placed_copy_count == 16);
  return static_cast<int>(word >> 60);
}

struct algorithm {
  std::string_view name;
  order f;
  sort_function sort;           // as written
  sort_function pollable_sort;  // the same, returning early once asked to stop (nullptr: none)
  // Subject to the early-stop rule: the quadratic sorts and Shell sort.
  bool stops_early;
  // One of the eleven sorts of the study; false for the extras.
  bool in_study;
  // ns per f(n) measured for this sort on the development VM (docs/models/sorting.md): only for
  // printing a rough duration before a sweep starts.
  double typical_ns_per_f;
  std::string_view description;
  // The sort as written, at placed_copy_count addresses (placed_copies.hpp); null for the sorts
  // that call themselves, whose copies would share their recursive body.
  const placed_sorts* placed = nullptr;
};

// Every algorithm a config may name, in the order `mcpilot describe` lists them.
const std::vector<algorithm>& algorithms();
const algorithm* find_algorithm(std::string_view name);
std::vector<std::string> algorithm_names();

// Shell sort's gap sequences, names for the model's `gaps` parameter.
enum class shell_gaps_kind { pratt, ciura };
const std::vector<std::string>& shell_gap_names();  // "pratt", "ciura"
shell_gaps_kind shell_gaps_by_name(std::string_view name);
// The algorithm entry to time: `a` itself, or Shell sort with Ciura's gaps when a is shell.
const algorithm& with_gaps(const algorithm& a, shell_gaps_kind gaps);

// The gaps of one Shell sort of n keys, largest first: every 2^p 3^q below n (Pratt), or Ciura's
// 1, 4, 10, 23, 57, 132, 301, 701 extended by x 2.25 (floor) below n. Always ends with 1.
std::vector<std::size_t> shell_gaps(shell_gaps_kind kind, std::size_t n);

// The sorts, as written (Poll = false) and pollable (Poll = true).
template <bool Poll>
[[gnu::flatten]] void selection_sort(std::span<key> a, std::span<key> scratch);
template <bool Poll>
[[gnu::flatten]] void bubble_sort(std::span<key> a, std::span<key> scratch);
template <bool Poll>
[[gnu::flatten]] void shaker_sort(std::span<key> a, std::span<key> scratch);
template <bool Poll>
[[gnu::flatten]] void insertion_sort(std::span<key> a, std::span<key> scratch);
template <bool Poll>
[[gnu::flatten]] void binary_insertion_sort(std::span<key> a, std::span<key> scratch);
template <bool Poll>
[[gnu::flatten]] void shell_sort_pratt(std::span<key> a, std::span<key> scratch);
template <bool Poll>
[[gnu::flatten]] void shell_sort_ciura(std::span<key> a, std::span<key> scratch);
template <bool Poll>
void quick_sort(std::span<key> a, std::span<key> scratch);
template <bool Poll>
[[gnu::flatten]] void quick_stack_sort(std::span<key> a, std::span<key> scratch);
template <bool Poll>
[[gnu::flatten]] void quick_queue_sort(std::span<key> a, std::span<key> scratch);
template <bool Poll>
void merge_sort(std::span<key> a, std::span<key> scratch);
template <bool Poll>
[[gnu::flatten]] void heap_sort(std::span<key> a, std::span<key> scratch);
void std_sort(std::span<key> a, std::span<key> scratch);
void std_stable_sort(std::span<key> a, std::span<key> scratch);
void radix_sort(std::span<key> a, std::span<key> scratch);

}  // namespace mcpilot::sorting
