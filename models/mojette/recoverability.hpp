#pragma once
// Which survivor sets of a layout's n projections rebuild a block, by the Katz criterion, and the
// exact probability of an unrecoverable block when servers fail independently.

#include <cstdint>
#include <span>
#include <vector>

#include "mojette/transform.hpp"

namespace mcpilot::mojette {

// recoverable[m] for every survivor set m in [0, 2^n) (bit i set: projection i survives).
// O(2^n n); n <= 24.
std::vector<char> recoverable_sets(const grid& g, std::span<const direction> dirs);

// Number of recoverable survivor sets with exactly `size` survivors.
std::uint64_t count_recoverable(std::span<const char> recoverable, std::size_t n, std::size_t size);

// P(the survivors do not rebuild the block) when each of the n servers is down independently with
// probability f: the sum over unrecoverable sets m of f^(n - |m|) (1 - f)^|m|. Exact up to
// rounding (a sum of at most 2^n positive terms). O(2^n).
double unrecoverable_probability(std::span<const char> recoverable, std::size_t n, double f);

// The smallest number of survivors that can rebuild the block, and whether every set of at least
// that many can (then the layout is MDS-like in recoverability: a threshold on the count).
struct threshold_info {
  std::size_t min_survivors = 0;
  bool count_only = false;
};
threshold_info recoverability_threshold(std::span<const char> recoverable, std::size_t n);

}  // namespace mcpilot::mojette
