#include "mojette/kernels.hpp"

namespace mcpilot::mojette {

// Reversing inside a vector costs one permute per four words; the load, XOR and store dominate.
__attribute__((target_clones("avx2", "default"))) void xor_reversed(std::uint64_t* dst,
                                                                    const std::uint64_t* src,
                                                                    std::size_t n) {
  const std::uint64_t* s = src + n;
  for (std::size_t j = 0; j < n; ++j) dst[j] ^= s[-1 - static_cast<std::ptrdiff_t>(j)];
}

}  // namespace mcpilot::mojette
