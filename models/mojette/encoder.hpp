#pragma once
// The fast forward transform over XOR for a whole layout: all projections of a block at once.
//
// Why not forward() per projection: with q = 1 a row lands on consecutive bins but reversed
// (bin -k + p l + offset), and accumulating row after row costs a read-modify-write of every bin
// per row. Here the block is first copied once with its rows reversed and padded with zeros on
// both sides; then bin m of projection (p, 1) is the XOR of Q words, one per reversed row, at
// positions m - s_l (s_l = p l - min(p, 0) (Q - 1)), which the zero padding keeps in range. Each
// bin is written once, from Q contiguous streams, with no branch and no permutation. The bins are
// produced in chunks across all projections so that the rows' words stay in cache on large blocks.
// Directions with q != 1 fall back to forward().
//
// An encoder owns its workspace (about one block): one per thread.

#include <cstdint>
#include <span>
#include <vector>

#include "mojette/transform.hpp"

namespace mcpilot::mojette {

class encoder {
 public:
  encoder(const grid& g, std::vector<direction> dirs);
  // out[i] receives the bin_count(g, dirs[i]) bins of projection i. O(n P Q) word reads.
  void encode(std::span<const std::uint64_t> image, std::span<const std::span<std::uint64_t>> out);

  const grid& geometry() const { return grid_; }
  const std::vector<direction>& directions() const { return dirs_; }

 private:
  grid grid_;
  std::vector<direction> dirs_;
  std::size_t pad_ = 0, width_ = 0;      // zeros on each side of a reversed row; row stride
  std::vector<std::uint64_t> reversed_;  // Q padded reversed rows
  std::vector<const std::uint64_t*> sources_;
};

}  // namespace mcpilot::mojette
