#include "mojette/systematic.hpp"

#include <algorithm>
#include <stdexcept>

#include "mojette/kernels.hpp"

namespace mcpilot::mojette {

std::vector<direction> systematic_directions(std::size_t n, std::size_t k) {
  if (n <= k) throw std::invalid_argument("a systematic layout needs n > k");
  std::vector<direction> d;
  for (std::size_t j = 0; j < n - k; ++j) d.push_back({static_cast<int>(j), 1});
  return d;
}

double systematic_overhead(const grid& g, std::span<const direction> parity) {
  std::size_t total = g.pixels();
  for (const auto& d : parity) total += bin_count(g, d);
  return static_cast<double>(total) / static_cast<double>(g.pixels());
}

void rebuild_row(const grid& g, std::span<std::uint64_t> image, std::size_t r, const direction& d,
                 std::span<const std::uint64_t> bins) {
  if (d.q != 1) throw std::invalid_argument("rebuild_row: needs a projection with q = 1");
  if (bins.size() != bin_count(g, d) || image.size() != g.pixels() || r >= g.Q)
    throw std::invalid_argument("rebuild_row: sizes do not match the grid");
  const auto P = static_cast<std::ptrdiff_t>(g.P);
  std::uint64_t* row = image.data() + r * g.P;
  // bin of pixel (k, r) is base - k: the P bins ending at base, reversed.
  const std::ptrdiff_t base = d.p * static_cast<std::ptrdiff_t>(r) + bin_offset(g, d);
  copy_reversed(row, bins.data() + base - (P - 1), g.P);
  for (std::size_t l = 0; l < g.Q; ++l) {
    if (l == r) continue;
    // row_r[k] ^= row_l[k + shift] where 0 <= k + shift < P.
    const std::ptrdiff_t shift =
        d.p * (static_cast<std::ptrdiff_t>(l) - static_cast<std::ptrdiff_t>(r));
    const std::ptrdiff_t from = std::max<std::ptrdiff_t>(0, -shift);
    const std::ptrdiff_t to = std::min<std::ptrdiff_t>(P, P - shift);
    if (from >= to) continue;
    xor_into(row + from, image.data() + l * g.P + from + shift,
             static_cast<std::size_t>(to - from));
  }
}

namespace {

direction scaled(const direction& d, std::size_t gap) {
  return {d.p * static_cast<int>(gap), 1};
}

}  // namespace

two_row_rebuild::two_row_rebuild(const grid& g, std::size_t r1, std::size_t r2, direction d1,
                                 direction d2)
    : grid_(g),
      r1_(r1),
      r2_(r2),
      d_{d1, d2},
      plan_({g.P, 2}, {scaled(d1, r2 - r1), scaled(d2, r2 - r1)}) {
  if (!(r1 < r2 && r2 < g.Q) || d1.q != 1 || d2.q != 1)
    throw std::invalid_argument("two_row_rebuild: needs rows r1 < r2 < Q and q = 1");
  for (int i = 0; i < 2; ++i) residual_[i].resize(bin_count(g, d_[i]));
  rows_.resize(2 * g.P);
  scratch_.resize(plan_.scratch_words());
}

void two_row_rebuild::rebuild(std::span<std::uint64_t> image, std::span<const std::uint64_t> bins1,
                              std::span<const std::uint64_t> bins2) {
  const auto P = static_cast<std::ptrdiff_t>(grid_.P);
  const grid sub{grid_.P, 2};
  std::span<const std::uint64_t> sub_bins[2];
  const std::span<const std::uint64_t> bins[2] = {bins1, bins2};
  for (int i = 0; i < 2; ++i) {
    const direction& d = d_[i];
    if (bins[i].size() != residual_[i].size())
      throw std::invalid_argument("two_row_rebuild: projection of the wrong size");
    std::copy(bins[i].begin(), bins[i].end(), residual_[i].begin());
    // Remove every known row: row l lands reversed on the P bins ending at p l + offset.
    const std::ptrdiff_t offset = bin_offset(grid_, d);
    for (std::size_t l = 0; l < grid_.Q; ++l)
      if (l != r1_ && l != r2_)
        xor_reversed(residual_[i].data() + d.p * static_cast<std::ptrdiff_t>(l) + offset - (P - 1),
                     image.data() + l * grid_.P, grid_.P);
    // What is left is the projection of rows r1, r2 alone: the sub-grid's bins, shifted.
    const direction s = scaled(d, r2_ - r1_);
    const std::ptrdiff_t shift =
        d.p * static_cast<std::ptrdiff_t>(r1_) + offset - bin_offset(sub, s);
    sub_bins[i] = std::span<const std::uint64_t>(residual_[i])
                      .subspan(static_cast<std::size_t>(shift), bin_count(sub, s));
  }
  plan_.reconstruct(sub_bins, rows_, scratch_);
  std::copy(rows_.begin(), rows_.begin() + P, image.begin() + static_cast<std::ptrdiff_t>(r1_) * P);
  std::copy(rows_.begin() + P, rows_.end(), image.begin() + static_cast<std::ptrdiff_t>(r2_) * P);
}

}  // namespace mcpilot::mojette
