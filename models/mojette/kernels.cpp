#include "mojette/kernels.hpp"

#include <algorithm>

namespace mcpilot::mojette {

// The library is built for the x86-64 baseline; these loops are also compiled for AVX2 and
// AVX-512 and the loader picks the best the CPU has (as ISA-L does for its own kernels).
// Not under ThreadSanitizer: the clones' ifunc resolvers run while the loader relocates, before
// TSan's runtime is up, and crash an instrumented build before main. A TSan build keeps the
// baseline loops.
#if defined(__SANITIZE_THREAD__)
#define MCPILOT_MOJETTE_CLONES
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MCPILOT_MOJETTE_CLONES
#endif
#endif
#ifndef MCPILOT_MOJETTE_CLONES
#define MCPILOT_MOJETTE_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#endif

namespace {

// Q streams XORed with Q known at compile time: Q loads, Q - 1 XORs and one store per word.
template <std::size_t Q>
[[gnu::always_inline]] inline void xor_fixed(std::uint64_t* __restrict out, std::size_t n,
                                             const std::uint64_t* const* src) {
  const std::uint64_t* s[Q];
  for (std::size_t c = 0; c < Q; ++c) s[c] = src[c];
  for (std::size_t j = 0; j < n; ++j) {
    std::uint64_t v = s[0][j];
    for (std::size_t c = 1; c < Q; ++c) v ^= s[c][j];
    out[j] = v;
  }
}

}  // namespace

MCPILOT_MOJETTE_CLONES void xor_reversed(std::uint64_t* dst, const std::uint64_t* src,
                                         std::size_t n) {
  const std::uint64_t* s = src + n;
  for (std::size_t j = 0; j < n; ++j) dst[j] ^= s[-1 - static_cast<std::ptrdiff_t>(j)];
}

MCPILOT_MOJETTE_CLONES void xor_into(std::uint64_t* dst, const std::uint64_t* src, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) dst[j] ^= src[j];
}

MCPILOT_MOJETTE_CLONES void copy_reversed(std::uint64_t* dst, const std::uint64_t* src,
                                          std::size_t n) {
  const std::uint64_t* s = src + n;
  for (std::size_t j = 0; j < n; ++j) dst[j] = s[-1 - static_cast<std::ptrdiff_t>(j)];
}

MCPILOT_MOJETTE_CLONES void xor_streams(std::uint64_t* out, std::size_t n,
                                        const std::uint64_t* const* src, std::size_t count) {
  switch (count) {
    case 1:
      std::copy(src[0], src[0] + n, out);
      return;
    case 2:
      return xor_fixed<2>(out, n, src);
    case 3:
      return xor_fixed<3>(out, n, src);
    case 4:
      return xor_fixed<4>(out, n, src);
    case 8:
      return xor_fixed<8>(out, n, src);
    default:
      break;
  }
  // Four streams at a time into out.
  xor_fixed<4>(out, n, src);
  std::size_t c = 4;
  for (; c + 4 <= count; c += 4) {
    const std::uint64_t *a = src[c], *b = src[c + 1], *d = src[c + 2], *e = src[c + 3];
    for (std::size_t j = 0; j < n; ++j) out[j] ^= a[j] ^ b[j] ^ d[j] ^ e[j];
  }
  for (; c < count; ++c)
    for (std::size_t j = 0; j < n; ++j) out[j] ^= src[c][j];
}

}  // namespace mcpilot::mojette
