#include "mojette/encoder.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "mojette/kernels.hpp"

namespace mcpilot::mojette {

namespace {

// Bins per chunk: the Q row segments a chunk reads (Q x 2 KiB) and the bins it writes stay in L1
// (256 was faster than 1,024 and 4,096 for 8-of-12 at 1 MiB, and no slower elsewhere).
constexpr std::size_t chunk_words = 256;

}  // namespace

encoder::encoder(const grid& g, std::vector<direction> dirs) : grid_(g), dirs_(std::move(dirs)) {
  for (const auto& d : dirs_)
    if (d.q == 1) pad_ = std::max(pad_, static_cast<std::size_t>(std::abs(d.p)) * (g.Q - 1));
  width_ = g.P + 2 * pad_;
  reversed_.assign(width_ * g.Q, 0);
  sources_.resize(g.Q);
}

void encoder::encode(std::span<const std::uint64_t> image,
                     std::span<const std::span<std::uint64_t>> out) {
  const std::size_t P = grid_.P, Q = grid_.Q;
  if (image.size() != grid_.pixels() || out.size() != dirs_.size())
    throw std::invalid_argument("encoder: image or output count of the wrong size");
  for (std::size_t i = 0; i < dirs_.size(); ++i)
    if (out[i].size() != bin_count(grid_, dirs_[i]))
      throw std::invalid_argument("encoder: projection " + std::to_string(i) +
                                  " has the wrong number of bins");
  for (std::size_t l = 0; l < Q; ++l)
    copy_reversed(reversed_.data() + l * width_ + pad_, image.data() + l * P, P);

  std::size_t longest = 0;
  for (std::size_t i = 0; i < dirs_.size(); ++i)
    if (dirs_[i].q == 1) longest = std::max(longest, out[i].size());
  for (std::size_t m0 = 0; m0 < longest; m0 += chunk_words)
    for (std::size_t i = 0; i < dirs_.size(); ++i) {
      const direction& d = dirs_[i];
      if (d.q != 1 || m0 >= out[i].size()) continue;
      const std::ptrdiff_t low = -std::min(d.p, 0) * static_cast<std::ptrdiff_t>(Q - 1);
      for (std::size_t l = 0; l < Q; ++l) {
        const std::ptrdiff_t s = d.p * static_cast<std::ptrdiff_t>(l) + low;  // in [0, pad]
        sources_[l] = reversed_.data() + l * width_ + pad_ - s + m0;
      }
      xor_streams(out[i].data() + m0, std::min(chunk_words, out[i].size() - m0), sources_.data(),
                  Q);
    }
  for (std::size_t i = 0; i < dirs_.size(); ++i)
    if (dirs_[i].q != 1) forward(grid_, image, dirs_[i], out[i]);
}

}  // namespace mcpilot::mojette
