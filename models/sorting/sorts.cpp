#include "sorts.hpp"

#include <cmath>
#include <stdexcept>

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

namespace {

// The typical constants are from the study on the development VM (docs/models/sorting.md), and
// only size the estimate printed before a sweep.
const algorithm shell_ciura = {
    "shell",
    order::n_log_n,
    shell_sort_ciura<false>,
    shell_sort_ciura<true>,
    true,
    true,
    6,
    "Shell sort with Ciura's gaps (gaps = \"ciura\"; no proven bound; n log2 n is the scale)",
    &placed_copies<shell_sort_ciura<false>>()};

}  // namespace

const std::vector<algorithm>& algorithms() {
  static const std::vector<algorithm> all = {
      {"selection", order::n_squared, selection_sort<false>, selection_sort<true>, true, true, 1.5,
       "min (selection) sort: n(n-1)/2 comparisons on every input",
       &placed_copies<selection_sort<false>>()},
      {"bubble", order::n_squared, bubble_sort<false>, bubble_sort<true>, true, true, 2.5,
       "bubble sort, stopping after a pass without a swap", &placed_copies<bubble_sort<false>>()},
      {"shaker", order::n_squared, shaker_sort<false>, shaker_sort<true>, true, true, 2.5,
       "shaker (cocktail) sort: bubble sort passes up and down, stopping after one without a swap",
       &placed_copies<shaker_sort<false>>()},
      {"insertion", order::n_squared, insertion_sort<false>, insertion_sort<true>, true, true, 0.5,
       "insertion sort, shifting while the left neighbour is larger",
       &placed_copies<insertion_sort<false>>()},
      {"binary-insertion", order::n_squared, binary_insertion_sort<false>,
       binary_insertion_sort<true>, true, true, 1,
       "insertion sort finding the place by binary search",
       &placed_copies<binary_insertion_sort<false>>()},
      {"shell", order::n_log_n, shell_sort_pratt<false>, shell_sort_pratt<true>, true, true, 6,
       "Shell sort with the gaps 2^p 3^q below n (Pratt; gaps = \"ciura\" for Ciura's); n log2 "
       "n is the scale",
       &placed_copies<shell_sort_pratt<false>>()},
      {"quick", order::n_log_n, quick_sort<false>, quick_sort<true>, false, true, 4.5,
       "quicksort: Hoare partition around the middle element, recursive"},
      {"quick-stack", order::n_log_n, quick_stack_sort<false>, quick_stack_sort<true>, false, true,
       4.8, "the same quicksort with an explicit stack of subarrays",
       &placed_copies<quick_stack_sort<false>>()},
      {"quick-queue", order::n_log_n, quick_queue_sort<false>, quick_queue_sort<true>, false, true,
       5.8, "the same quicksort breadth first: subarrays wait in a queue",
       &placed_copies<quick_queue_sort<false>>()},
      {"merge", order::n_log_n, merge_sort<false>, merge_sort<true>, false, true, 6,
       "top-down merge sort copying both halves at every level"},
      {"heap", order::n_log_n, heap_sort<false>, heap_sort<true>, false, true, 7,
       "heap sort (bottom-up build, sift-down)", &placed_copies<heap_sort<false>>()},
      {"std-sort", order::n_log_n, std_sort, nullptr, false, false, 4,
       "std::sort of the standard library (an extra)"},
      {"std-stable-sort", order::n_log_n, std_stable_sort, nullptr, false, false, 4.6,
       "std::stable_sort of the standard library (an extra)"},
      {"radix", order::linear, radix_sort, radix_sort, false, false, 8,
       "LSD radix sort, four 8-bit passes (an extra)", &placed_copies<radix_sort>()},
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

std::string code_layout_name(code_layout layout) {
  switch (layout.how) {
    case code_layout::kind::fixed:
      return "fixed";
    case code_layout::kind::random:
      return "random";
    case code_layout::kind::pinned:
      return "copy-" + std::to_string(layout.copy);
  }
  return "?";
}

std::vector<std::string> code_layout_names() {
  std::vector<std::string> out = {"fixed", "random"};
  for (int i = 0; i < placed_copy_count; ++i)
    out.push_back(code_layout_name({code_layout::kind::pinned, i}));
  return out;
}

code_layout code_layout_by_name(std::string_view name) {
  if (name == "fixed") return {};
  if (name == "random") return {code_layout::kind::random};
  for (int i = 0; i < placed_copy_count; ++i)
    if (name == code_layout_name({code_layout::kind::pinned, i}))
      return {code_layout::kind::pinned, i};
  throw std::invalid_argument("unknown layout " + std::string(name));
}

const algorithm& with_gaps(const algorithm& a, shell_gaps_kind gaps) {
  return a.name == "shell" && gaps == shell_gaps_kind::ciura ? shell_ciura : a;
}

}  // namespace mcpilot::sorting
