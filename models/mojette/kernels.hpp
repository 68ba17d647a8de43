#pragma once
// The hot loops of the transform, kept apart so that the XOR one can be compiled for several
// instruction sets (the library is built for the generic x86-64 baseline; ISA-L, the peer it is
// measured against, picks AVX2 or AVX-512 at run time, and so does this).

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "mojette/transform.hpp"

namespace mcpilot::mojette {

// dst[j] ^= src[n - 1 - j] for j in [0, n). AVX2 clone where the CPU has it.
void xor_reversed(std::uint64_t* dst, const std::uint64_t* src, std::size_t n);

// dst[j] ^= src[j].
void xor_into(std::uint64_t* dst, const std::uint64_t* src, std::size_t n);

// dst[j] = src[n - 1 - j].
void copy_reversed(std::uint64_t* dst, const std::uint64_t* src, std::size_t n);

// out[j] = src[0][j] ^ src[1][j] ^ ... ^ src[count - 1][j] for j in [0, n); count >= 1.
void xor_streams(std::uint64_t* out, std::size_t n, const std::uint64_t* const* src,
                 std::size_t count);

template <class A>
void accumulate_reversed(typename A::word* dst, const typename A::word* src, std::size_t n) {
  if constexpr (std::is_same_v<A, xor_algebra>) {
    xor_reversed(dst, src, n);
  } else {
    for (std::size_t j = 0; j < n; ++j) dst[j] = A::add(dst[j], src[n - 1 - j]);
  }
}

}  // namespace mcpilot::mojette
