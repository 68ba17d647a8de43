#pragma once
// The three ways a sort's template is instantiated, so that the timed sort, its pollable copy and
// its instrumented copy are one algorithm written once:
//  - plain_ops: the algorithm as written. Every hook is a constant or `a < b`, so after inlining
//    the code timed is the bare sort (nothing of the counting or polling remains);
//  - pollable_ops: the same, but stop() asks timed_region_should_stop(), at the coarse points where
//    each sort calls it;
//  - counting_ops: counts key comparisons and moves, never timed (docs/models/sorting.md,
//    "Counts").
// Each sort expresses every key comparison as ops.less(a, b) and reports its moves with
// ops.moved(k); what a move is for each sort is stated in counts.hpp.

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "mcpilot/measure/timed_stop.hpp"
#include "sorts.hpp"

namespace mcpilot::sorting {

struct operation_counts {
  std::uint64_t comparisons = 0;  // key against key
  std::uint64_t moves = 0;        // as defined per sort in counts.hpp
};

struct plain_ops {
  static constexpr bool less(key a, key b) { return a < b; }
  static constexpr void moved(std::uint64_t = 1) {}
  static constexpr bool stop() { return false; }
};

struct pollable_ops {
  static constexpr bool less(key a, key b) { return a < b; }
  static constexpr void moved(std::uint64_t = 1) {}
  static bool stop() { return timed_region_should_stop(); }
};

struct counting_ops {
  operation_counts counts;
  bool less(key a, key b) {
    ++counts.comparisons;
    return a < b;
  }
  void moved(std::uint64_t k = 1) { counts.moves += k; }
  static constexpr bool stop() { return false; }
};

// One run of the counting instance of a sort that takes a scratch array. Counting is never timed,
// so the scratch is allocated here.
inline operation_counts count_with_scratch(void (*sort)(std::span<key>, std::span<key>,
                                                        counting_ops&),
                                           std::span<key> a) {
  std::vector<key> scratch(scratch_size(a.size()));
  counting_ops ops;
  sort(a, scratch, ops);
  return ops.counts;
}

template <bool Poll>
using ops_for = std::conditional_t<Poll, pollable_ops, plain_ops>;

// Subarrays at least this long are worth a poll (a partition or a merge of 2^16 keys is about a
// millisecond); smaller ones finish.
inline constexpr std::ptrdiff_t poll_span = 65536;

}  // namespace mcpilot::sorting
