#include "mojette/transform.hpp"

#include <algorithm>
#include <cstdlib>

#include "mojette/kernels.hpp"

namespace mcpilot::mojette {

std::size_t bin_count(const grid& g, const direction& d) {
  return (g.P - 1) * static_cast<std::size_t>(std::abs(d.q)) +
         (g.Q - 1) * static_cast<std::size_t>(std::abs(d.p)) + 1;
}

std::ptrdiff_t bin_offset(const grid& g, const direction& d) {
  const auto P = static_cast<std::ptrdiff_t>(g.P), Q = static_cast<std::ptrdiff_t>(g.Q);
  return d.q * (P - 1) - std::min(d.p, 0) * (Q - 1);
}

namespace {

template <class A>
void forward_impl(const grid& g, std::span<const typename A::word> image, const direction& d,
                  std::span<typename A::word> bins) {
  using word = typename A::word;
  std::fill(bins.begin(), bins.end(), word{0});
  const auto P = static_cast<std::ptrdiff_t>(g.P);
  const std::ptrdiff_t offset = bin_offset(g, d);
  for (std::size_t l = 0; l < g.Q; ++l) {
    const word* row = image.data() + l * g.P;
    const std::ptrdiff_t base = d.p * static_cast<std::ptrdiff_t>(l) + offset;  // bin of k = 0
    if (d.q == 1) {
      // Pixel k goes to bin base - k: the row lands reversed on P consecutive bins, a loop the
      // compiler vectorizes.
      accumulate_reversed<A>(bins.data() + base - (P - 1), row, g.P);
    } else if (d.q == 0) {
      word s = bins[static_cast<std::size_t>(base)];
      for (std::size_t k = 0; k < g.P; ++k) s = A::add(s, row[k]);
      bins[static_cast<std::size_t>(base)] = s;
    } else {
      for (std::ptrdiff_t k = 0; k < P; ++k) {
        word& b = bins[static_cast<std::size_t>(base - d.q * k)];
        b = A::add(b, row[k]);
      }
    }
  }
}

}  // namespace

void forward(const grid& g, std::span<const std::uint64_t> image, const direction& d,
             std::span<std::uint64_t> bins) {
  forward_impl<xor_algebra>(g, image, d, bins);
}

void forward(const grid& g, std::span<const std::int64_t> image, const direction& d,
             std::span<std::int64_t> bins) {
  forward_impl<sum_algebra>(g, image, d, bins);
}

}  // namespace mcpilot::mojette
