#pragma once
// Storage layouts: a block of bytes as a grid, the projections stored for it (one per server),
// and what they cost next to an MDS code of the same k-of-n.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "mojette/transform.hpp"

namespace mcpilot::mojette {

struct layout {
  std::string name;
  std::size_t rows = 0;         // Q: the block is Q rows of 64-bit words
  std::vector<direction> dirs;  // one projection per server
};

// RozoFS layouts 0, 1, 2 (2-of-3, 4-of-6, 8-of-12): Q = k rows and n = 3k/2 projections
// (p_i, 1) with p_i = i - n/2 (integer division), i = 0 ... n-1.
layout rozofs_layout(std::size_t k);

// The grid of a block: Q rows of P 64-bit words. Throws std::invalid_argument unless block_bytes
// is a positive multiple of 8 Q.
grid block_grid(std::size_t block_bytes, std::size_t rows);

// Bins of each projection, in the order of `dirs`.
std::vector<std::size_t> bins_per_projection(const grid& g, std::span<const direction> dirs);
// Words stored over words of data: sum of the bins over P Q.
double overhead(const grid& g, std::span<const direction> dirs);
// An MDS code storing the same block on n servers of which any k suffice: n / k.
double mds_overhead(std::size_t n, std::size_t k);

// Parses "[[1, 1], [-1, 1]]" (a TOML array of pairs, as the config holds it); throws
// std::invalid_argument saying what is wrong. Validity of the directions is checked separately.
std::vector<direction> parse_directions(const std::string& text);

}  // namespace mcpilot::mojette
