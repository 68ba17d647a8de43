#pragma once
// Exact answers for a layout under simultaneous failures, by counting failure sets.
//
// A set S of failed devices loses a group B when |B ∩ S| > t. The expected number of groups lost
// needs no enumeration: by linearity it is b times a hypergeometric (r failed of v) or binomial
// (each down with p) tail. Whether at least one group is lost depends on how the groups overlap,
// so it is counted: the sets that lose nothing are enumerated depth first, and a branch is cut as
// soon as it loses a group (every superset of a losing set loses too). The work is the number of
// surviving sets visited times the groups per device, and it is bounded: past the budget the
// answer is "unknown" (nullopt), never an approximation. Answers are cached per layout, tolerance
// and size, so a configure() repeated (sweeps, describe) does not count again.

#include <cstdint>
#include <optional>
#include <vector>

#include "placement/layout.hpp"

namespace mcpilot::placement {

using big_count = unsigned __int128;  // counts are exact: C(120, 60) ≈ 9.7e34 fits

// The default bound on the counting work (group-count updates, about 3.5 ns each): a count that
// gives up has cost about 70 ms of one core; STS(99) with 4 failed needs about half of it.
inline constexpr std::uint64_t default_count_budget = 20'000'000;

// C(n, k) exactly (0 when k < 0 or k > n); nullopt when it does not fit in 128 bits (for k up to
// n/2 it fits for every n ≤ 120, and for small k far beyond: C(993, 3) for PG(2,31)).
std::optional<big_count> checked_binomial(int n, int k);
// The same, for arguments known to fit (throws std::overflow_error otherwise).
big_count binomial(int n, int k);

// surviving[s] = the number of s-subsets of the devices that lose no group, s = 0 … max_size.
// nullopt when the work would pass `budget`, or C(v, j) for some j ≤ max_size would not fit in
// 128 bits. Thread-safe, cached.
std::optional<std::vector<big_count>> surviving_sets(const layout& l, int tolerance, int max_size,
                                                     std::uint64_t budget = default_count_budget);

// P(at least one group lost | exactly r devices failed, uniformly among the C(v, r) sets).
std::optional<double> loss_given_failed(const layout& l, int tolerance, int failed,
                                        std::uint64_t budget = default_count_budget);

// P(at least one group lost) when each device is down independently with probability p:
// Σ_s (C(v,s) − surviving[s]) p^s (1−p)^(v−s), a sum of positive terms.
std::optional<double> loss_given_probability(const layout& l, int tolerance, double p,
                                             std::uint64_t budget = default_count_budget);

// P(a given group of k loses data): hypergeometric P(X > t), X = failed devices among its k
// when r of v fail; and binomial P(Bin(k, p) > t). E[groups lost] = b × these.
double group_loss_given_failed(int v, int k, int tolerance, int failed);
double group_loss_given_probability(int k, int tolerance, double p);

// The full distribution of the number of groups lost over all C(v, r) sets (index = groups
// lost), by plain enumeration without cuts: the cross-check for the counts above and the source
// of "exactly n groups lost" facts. O(C(v, r) r (b k / v)); for small layouts only.
std::vector<big_count> groups_lost_distribution(const layout& l, int tolerance, int failed);

}  // namespace mcpilot::placement
