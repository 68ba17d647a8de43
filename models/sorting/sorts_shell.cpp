// Shell sort with two gap sequences: Pratt's 2^p 3^q (the study's, after the sorting peer's) and
// Ciura's (the `gaps = "ciura"` option). The gaps are tables built once at start-up, so that no
// sort computes or allocates them in its timed region (a std::vector of gaps built per call once
// cost as much as sorting six keys).

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "counts.hpp"
#include "placed_copies.hpp"
#include "sort_ops.hpp"
#include "sorts.hpp"

namespace mcpilot::sorting {

namespace {

// Every 2^p 3^q below 2^63, ascending: about 1,300 gaps.
std::vector<std::size_t> pratt_table() {
  std::vector<std::size_t> g;
  constexpr std::size_t limit = std::size_t{1} << 62;
  for (std::size_t p2 = 1; p2 <= limit; p2 *= 2)
    for (std::size_t v = p2; v <= limit; v *= 3) {
      g.push_back(v);
      if (v > limit / 3) break;
    }
  std::sort(g.begin(), g.end());
  return g;
}

// 1, 4, 10, 23, 57, 132, 301, 701, then floor(x 2.25) while below 2^62.
std::vector<std::size_t> ciura_table() {
  std::vector<std::size_t> g = {1, 4, 10, 23, 57, 132, 301, 701};
  double x = 701;
  while (true) {
    x = std::floor(x * 2.25);
    if (x >= 4.6e18) break;
    g.push_back(static_cast<std::size_t>(x));
  }
  return g;
}

const std::vector<std::size_t> pratt_gaps = pratt_table();
const std::vector<std::size_t> ciura_gaps = ciura_table();

const std::vector<std::size_t>& table(shell_gaps_kind kind) {
  return kind == shell_gaps_kind::pratt ? pratt_gaps : ciura_gaps;
}

// One insertion sort per gap h, largest h first, each over the keys h apart. With Pratt's gaps the
// keys are already 2h- and 3h-sorted when the h pass starts, so each key moves at most one step
// of h in it: a pass makes at most n - h moves and 2(n - h) comparisons. Moves: shifts. Polled
// once per pass.
template <class Ops>
void shell(std::span<key> a, const std::vector<std::size_t>& gaps, Ops& ops) {
  const std::size_t n = a.size();
  if (n < 2) return;
  std::size_t k = 0;
  while (k + 1 < gaps.size() && gaps[k + 1] < n) ++k;
  while (true) {
    if (ops.stop()) return;
    const std::size_t gap = gaps[k];
    for (std::size_t i = gap; i < n; ++i) {
      const key x = a[i];
      std::size_t j = i;
      while (j >= gap && ops.less(x, a[j - gap])) {
        a[j] = a[j - gap];
        ops.moved();
        j -= gap;
      }
      a[j] = x;
    }
    if (k == 0) return;
    --k;
  }
}

template <class Ops>
operation_counts count(std::span<key> a, shell_gaps_kind kind) {
  Ops ops;
  shell(a, table(kind), ops);
  return ops.counts;
}

}  // namespace

const std::vector<std::string>& shell_gap_names() {
  static const std::vector<std::string> names = {"pratt", "ciura"};
  return names;
}

shell_gaps_kind shell_gaps_by_name(std::string_view name) {
  if (name == "pratt") return shell_gaps_kind::pratt;
  if (name == "ciura") return shell_gaps_kind::ciura;
  throw std::invalid_argument("unknown Shell sort gaps " + std::string(name));
}

std::vector<std::size_t> shell_gaps(shell_gaps_kind kind, std::size_t n) {
  std::vector<std::size_t> out;
  for (std::size_t g : table(kind))
    if (g < n || g == 1) out.push_back(g);
  std::reverse(out.begin(), out.end());
  return out;
}

template <bool Poll>
void shell_sort_pratt(std::span<key> a, std::span<key>) {
  ops_for<Poll> ops;
  shell(a, pratt_gaps, ops);
}
template <bool Poll>
void shell_sort_ciura(std::span<key> a, std::span<key>) {
  ops_for<Poll> ops;
  shell(a, ciura_gaps, ops);
}

template void shell_sort_pratt<false>(std::span<key>, std::span<key>);
template void shell_sort_pratt<true>(std::span<key>, std::span<key>);
template void shell_sort_ciura<false>(std::span<key>, std::span<key>);
template void shell_sort_ciura<true>(std::span<key>, std::span<key>);

// Their placed copies (layout = "random"), here where the bodies are visible.
template const placed_sorts& placed_copies<shell_sort_pratt<false>>();
template const placed_sorts& placed_copies<shell_sort_ciura<false>>();

operation_counts counted_shell_sort(std::span<key> a, shell_gaps_kind kind) {
  return count<counting_ops>(a, kind);
}

}  // namespace mcpilot::sorting
