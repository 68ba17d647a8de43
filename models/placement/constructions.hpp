#pragma once
// The layouts placement.design offers. Each block design is verified at construction
// (verify_design): a construction that does not exist for its parameters, or that failed its
// check, is a parameter_error naming the field that chose it, never a layout.

#include <cstdint>
#include <string>
#include <vector>

#include "placement/layout.hpp"

namespace mcpilot::placement {

// --- block designs ---------------------------------------------------------------------------

// The development of a base block mod n: the groups {b_i + j mod n}, j = 0 … n−1. A BIBD with
// λ = 1 when the base block is a perfect difference set (every nonzero residue is a difference of
// exactly one ordered pair); verified with the λ its size implies, k(k−1)/(n−1), which must be an
// integer. Fano is {0,1,3} mod 7, PG(2,3) is {0,1,3,9} mod 13. `field` names the base block.
layout cyclic_design(const std::vector<int>& base, int modulus, const std::string& field);
layout fano_plane();

// The Singer plane PG(2,q), q prime ≤ 31: a perfect difference set mod q²+q+1 built from a
// primitive element x of GF(q³) (singer_difference_set), developed cyclically. v = b = q²+q+1,
// k = r = q+1, λ = 1. Throws naming `order` when q is not such a prime.
layout projective_plane(int q);
// {i in [0, q²+q+1) : x^i lies in the plane spanned by 1 and x}, for x a root of a primitive
// cubic over GF(q) (found by search and checked to have order q³−1).
std::vector<int> singer_difference_set(int q);

// The affine plane AG(2,q), q prime: points (x, y) in Z_q², device q·x + y; lines y = mx + c and
// x = c. v = q², b = q²+q, k = q, r = q+1, λ = 1. Throws naming `order` when q is not prime.
layout affine_plane(int q);

// A Steiner triple system STS(v), v ≡ 1 or 3 (mod 6), 3 ≤ v ≤ 99: Bose's construction for
// v = 6n+3 and Skolem's for v = 6n+1. k = 3, λ = 1, r = (v−1)/2, b = v(v−1)/6. Throws naming
// `devices` when v is not such a number.
layout steiner_triple_system(int v);

// Every k-subset of v devices: λ = C(v−2, k−2). At most `max_groups` groups (else naming
// `group_size`).
layout complete_design(int v, int k, std::int64_t max_groups);

// --- placements that are not designs -----------------------------------------------------------

// `groups` groups, each on k distinct devices drawn uniformly (Floyd's sampling) from a Philox
// stream keyed by `seed`: the same layout for the same seed on every machine.
layout random_placement(int v, int k, int groups, std::uint64_t seed);
// v/k disjoint clusters of k devices; group j on cluster j mod (v/k). Needs k | v (else naming
// `devices`).
layout clustered_placement(int v, int k, int groups);
// Copysets (Cidon et al.): P = ⌈S/(k−1)⌉ random permutations of the devices, each cut into v/k
// copysets of k; the copysets are the groups. Scatter width S is then at most P(k−1). Needs
// k | v (naming `devices`) and k−1 ≤ S ≤ v−1 (naming `scatter_width`).
layout copyset_placement(int v, int k, int scatter_width, std::uint64_t seed);

// User groups, one per line: device numbers separated by spaces or commas; `#` starts a comment.
// `devices` = 0 takes v as one more than the largest device named. Every group must have the
// same size and distinct devices. Errors name `blocks_file` with the file's line.
layout read_blocks_file(const std::string& path, int devices);

}  // namespace mcpilot::placement
