#pragma once
// Systematic Mojette (the variant of the IETF pNFS draft): the Q rows of a block are stored as
// they are, one per data server, and n - Q projections (p_j, 1), p_j = 0, 1, ..., n - Q - 1, add
// the redundancy. A read without failure decodes nothing; a lost row is rebuilt from one
// projection and the surviving rows, two lost rows from two projections.
//
// One lost row r from projection (p, 1): pixel (k, r) shares its bin -k + p r + offset with
// pixel (k + p (l - r), l) of every other row l, so
//   row_r[k] = bin[p r + offset - k] ^ XOR over l != r of row_l[k + p (l - r)]
// (terms outside [0, P) are absent): one reversed copy and Q - 1 shifted XOR passes, O(P Q).
// Two lost rows r1 < r2: the projections of the known rows are removed from two projections,
// leaving the projections of a P x 2 grid (rows r1, r2) in directions (p_j (r2 - r1), 1), which
// the exact inverse rebuilds (Katz: sum |q| = 2 = Q).

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "mojette/encoder.hpp"
#include "mojette/inverse.hpp"
#include "mojette/transform.hpp"

namespace mcpilot::mojette {

// The projections of a systematic k-of-n layout: (j, 1) for j = 0 ... n - k - 1.
std::vector<direction> systematic_directions(std::size_t n, std::size_t k);

// Words stored over words of data: (P Q + total bins) / (P Q).
double systematic_overhead(const grid& g, std::span<const direction> parity);

// Rebuilds row r of `image` (the other rows must be there; row r's words are overwritten) from
// `bins`, the projection in direction d (q = 1). O(P Q).
void rebuild_row(const grid& g, std::span<std::uint64_t> image, std::size_t r, const direction& d,
                 std::span<const std::uint64_t> bins);

// Rebuilds rows r1 < r2 of `image` from the projections in directions d1 and d2 (q = 1, p1 != p2).
// The plan for the pattern is prepared once; rebuilding allocates nothing.
class two_row_rebuild {
 public:
  two_row_rebuild(const grid& g, std::size_t r1, std::size_t r2, direction d1, direction d2);
  void rebuild(std::span<std::uint64_t> image, std::span<const std::uint64_t> bins1,
               std::span<const std::uint64_t> bins2);

 private:
  grid grid_;
  std::size_t r1_, r2_;
  direction d_[2];
  reconstruction_plan plan_;
  std::vector<std::uint64_t> residual_[2], rows_, scratch_;
};

}  // namespace mcpilot::mojette
