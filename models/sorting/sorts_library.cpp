// The extras beside the study's eleven: std::sort, std::stable_sort and an LSD radix sort. The
// library's sorts cannot be polled (they are timed as the library ships them): a session's limit
// acts after the sort under way.

#include <algorithm>
#include <utility>
#include <vector>

#include "counts.hpp"
#include "placed_copies.hpp"
#include "sort_ops.hpp"
#include "sorts.hpp"

namespace mcpilot::sorting {

namespace {

// A key that counts how often the library moves it (every copy or move, constructed or
// assigned), for the instrumented copies of std::sort and std::stable_sort.
struct counted_key {
  key v = 0;
  static inline std::uint64_t moves = 0;
  counted_key() = default;
  explicit counted_key(key k) : v(k) {}
  counted_key(const counted_key& o) : v(o.v) { ++moves; }
  counted_key& operator=(const counted_key& o) {
    v = o.v;
    ++moves;
    return *this;
  }
};

template <class Sort>
operation_counts count_library(std::span<key> a, Sort sort) {
  std::vector<counted_key> c;
  c.reserve(a.size());
  for (key k : a) c.emplace_back(k);
  std::uint64_t comparisons = 0;
  counted_key::moves = 0;
  sort(c.begin(), c.end(), [&](const counted_key& x, const counted_key& y) {
    ++comparisons;
    return x.v < y.v;
  });
  const operation_counts out{comparisons, counted_key::moves};
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = c[i].v;
  return out;
}

// Least significant digit first, four passes of 8 bits, each a stable counting sort between the
// keys and the scratch; after an even number of passes the result is back in the keys. Moves:
// every key written in every pass, 4n, whatever the keys; no comparison of keys.
template <class Ops>
void radix(std::span<key> a, std::span<key> scratch, Ops& ops) {
  const std::size_t n = a.size();
  if (n < 2) return;
  key* from = a.data();
  key* to = scratch.data();
  for (unsigned shift = 0; shift < 32; shift += 8) {
    std::size_t count[257] = {};
    for (std::size_t i = 0; i < n; ++i) ++count[((from[i] >> shift) & 0xFF) + 1];
    for (std::size_t d = 0; d < 256; ++d) count[d + 1] += count[d];
    for (std::size_t i = 0; i < n; ++i) to[count[(from[i] >> shift) & 0xFF]++] = from[i];
    ops.moved(n);
    std::swap(from, to);
  }
}

}  // namespace

void std_sort(std::span<key> a, std::span<key>) {
  std::sort(a.begin(), a.end());
}

void std_stable_sort(std::span<key> a, std::span<key>) {
  std::stable_sort(a.begin(), a.end());
}

void radix_sort(std::span<key> a, std::span<key> scratch) {
  plain_ops ops;
  radix(a, scratch, ops);
}

// Its placed copies (layout = "random"), here where the body is visible. std::sort and
// std::stable_sort recurse, and have none.
template const placed_sorts& placed_copies<radix_sort>();

operation_counts counted_std_sort(std::span<key> a) {
  return count_library(a, [](auto b, auto e, auto less) { std::sort(b, e, less); });
}

operation_counts counted_std_stable_sort(std::span<key> a) {
  return count_library(a, [](auto b, auto e, auto less) { std::stable_sort(b, e, less); });
}

operation_counts counted_radix_sort(std::span<key> a) {
  std::vector<key> scratch(scratch_size(a.size()));
  counting_ops ops;
  radix(a, scratch, ops);
  return ops.counts;
}

}  // namespace mcpilot::sorting
