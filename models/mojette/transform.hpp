#pragma once
// The Mojette transform: a discrete, exact Radon transform of a P x Q grid of words.
//
// Conventions (Guedon's), used everywhere in this folder and in docs/models/mojette.md:
// - pixel (k, l): column k in [0, P), row l in [0, Q); the image is stored row by row, pixel (k, l)
//   at index l * P + k (a block of bytes is Q rows of P little-endian 64-bit words);
// - a direction (p, q) has gcd(p, q) = 1 and q >= 0, and q = 0 only with p = 1 or p = -1;
// - projection (p, q) adds pixel (k, l) into bin b = -q k + p l + offset, where the offset makes
//   the smallest bin 0: offset = q (P - 1) - min(p, 0) (Q - 1). Bins are stored in increasing b.
//   There are B = (P - 1)|q| + (Q - 1)|p| + 1 of them.
//
// "Addition" is an algebra: XOR of 64-bit words (what RozoFS stores; every word is its own
// inverse) or integer addition modulo 2^64 (for hand-checked examples; exact while no sum wraps,
// and invertible even then). The inverse (inverse.hpp) only adds and subtracts.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace mcpilot::mojette {

struct direction {
  int p = 0;
  int q = 1;
  friend bool operator==(const direction&, const direction&) = default;
};

struct grid {
  std::size_t P = 0;  // columns
  std::size_t Q = 0;  // rows
  std::size_t pixels() const { return P * Q; }
};

// B = (P - 1)|q| + (Q - 1)|p| + 1.
std::size_t bin_count(const grid& g, const direction& d);
// offset = q (P - 1) - min(p, 0) (Q - 1): bin of pixel (k, l) is -q k + p l + offset.
std::ptrdiff_t bin_offset(const grid& g, const direction& d);

// XOR over 64-bit words: the storage algebra.
struct xor_algebra {
  using word = std::uint64_t;
  static word add(word a, word b) { return a ^ b; }
  static word sub(word a, word b) { return a ^ b; }
};

// Integer addition modulo 2^64, on signed words for readable known answers.
struct sum_algebra {
  using word = std::int64_t;
  static word add(word a, word b) {
    return static_cast<word>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
  }
  static word sub(word a, word b) {
    return static_cast<word>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
  }
};

// One projection of `image` (g.pixels() words) into `bins` (bin_count(g, d) words, overwritten).
// O(P Q).
void forward(const grid& g, std::span<const std::uint64_t> image, const direction& d,
             std::span<std::uint64_t> bins);  // XOR
void forward(const grid& g, std::span<const std::int64_t> image, const direction& d,
             std::span<std::int64_t> bins);  // integer +

// Convenience for tests and docs: one projection as a new vector.
template <class Word>
std::vector<Word> project(const grid& g, std::span<const Word> image, const direction& d) {
  std::vector<Word> bins(bin_count(g, d));
  forward(g, image, d, std::span<Word>(bins));
  return bins;
}

}  // namespace mcpilot::mojette
