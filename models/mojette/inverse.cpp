#include "mojette/inverse.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "mojette/directions.hpp"

namespace mcpilot::mojette {

namespace {

std::string katz_failure(const grid& g, std::span<const direction> dirs) {
  long sp = 0, sq = 0;
  for (const auto& d : dirs) {
    sp += std::abs(d.p);
    sq += std::abs(d.q);
  }
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on a long chain of + here.
  std::string s = "projections {";
  s += to_string(dirs);
  s += "} do not determine a " + std::to_string(g.P) + " x " + std::to_string(g.Q);
  s += " block (P x Q): the Katz criterion needs sum |p| >= P or sum |q| >= Q, but sum |p| = ";
  s += std::to_string(sp) + " < " + std::to_string(g.P);
  s += " and sum |q| = " + std::to_string(sq) + " < " + std::to_string(g.Q);
  s += "; other blocks have the same projections, so none is decoded";
  return s;
}

}  // namespace

reconstruction_plan::reconstruction_plan(const grid& g, std::vector<direction> dirs)
    : grid_(g), dirs_(std::move(dirs)) {
  check_directions(dirs_);
  if (g.P == 0 || g.Q == 0) throw not_reconstructible("an empty grid has nothing to reconstruct");
  if (!katz(g, dirs_)) throw not_reconstructible(katz_failure(g, dirs_));
  all_q_one_ = std::all_of(dirs_.begin(), dirs_.end(), [](const direction& d) { return d.q == 1; });
  if (all_q_one_)
    for (const auto& d : dirs_)
      pad_ = std::max(pad_, static_cast<std::size_t>(std::abs(d.p)) * (g.Q - 1));

  const std::size_t I = dirs_.size(), N = g.pixels();
  std::vector<std::ptrdiff_t> offset(I);
  for (std::size_t i = 0; i < I; ++i) {
    start_.push_back(total_bins_);
    offset[i] = bin_offset(g, dirs_[i]);
    total_bins_ += bin_count(g, dirs_[i]);
  }
  // Per bin: how many pixels are still unknown, and the sum of their indices, so that a bin down
  // to one unknown pixel names it without a search.
  std::vector<std::uint32_t> unknown(total_bins_, 0);
  std::vector<std::uint64_t> index_sum(total_bins_, 0);
  auto bin_of = [&](std::size_t i, std::size_t k, std::size_t l) {
    return start_[i] + static_cast<std::size_t>(offset[i] - dirs_[i].q * static_cast<long>(k) +
                                                dirs_[i].p * static_cast<long>(l));
  };
  for (std::size_t l = 0; l < g.Q; ++l)
    for (std::size_t k = 0; k < g.P; ++k)
      for (std::size_t i = 0; i < I; ++i) {
        const std::size_t b = bin_of(i, k, l);
        ++unknown[b];
        index_sum[b] += l * g.P + k;
      }
  // Bins by projection; a bin is ready when one unknown pixel is left in it.
  std::vector<std::uint32_t> owner(total_bins_);
  for (std::size_t i = 0; i < I; ++i)
    std::fill(owner.begin() + static_cast<std::ptrdiff_t>(start_[i]),
              owner.begin() + static_cast<std::ptrdiff_t>(start_[i] + bin_count(g, dirs_[i])),
              static_cast<std::uint32_t>(i));
  std::vector<std::size_t> ready;
  for (std::size_t b = 0; b < total_bins_; ++b)
    if (unknown[b] == 1) ready.push_back(b);
  steps_.reserve(N);
  for (std::size_t next = 0; next < ready.size() && steps_.size() < N; ++next) {
    const std::size_t b = ready[next];
    if (unknown[b] != 1) continue;  // its pixel came from another bin meanwhile
    const std::size_t pixel = index_sum[b];
    const std::size_t k = pixel % g.P, l = pixel / g.P;
    steps_.push_back({static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(l), owner[b]});
    for (std::size_t i = 0; i < I; ++i) {
      const std::size_t c = bin_of(i, k, l);
      index_sum[c] -= pixel;
      if (--unknown[c] == 1) ready.push_back(c);
    }
  }
  if (steps_.size() != N)
    throw std::logic_error("mojette: the one-pixel-bin reconstruction stalled after " +
                           std::to_string(steps_.size()) + " of " + std::to_string(N) +
                           " pixels for projections {" + to_string(dirs_) +
                           "}, which satisfy Katz: please report this");
}

// With q = 1 everywhere, the other pixels on a pixel's line are (k + p (l' - l), l'), one per
// row: the pixel is its bin minus those, where they are already known (the plan's order
// guarantees it) or still 0 (the pixel itself). One store per pixel instead of one per
// projection, and no copy of the projections. The pixels go to a copy of the image whose rows
// are padded with zeros on both sides, so that the line's columns outside the grid read 0
// without a test, and with Q fixed at compile time for 2, 4 and 8 rows the loop over rows
// unrolls; the rows are copied out at the end.
template <class A>
void reconstruction_plan::pull(std::span<const std::span<const typename A::word>> projections,
                               std::span<typename A::word> image,
                               std::span<typename A::word> scratch) const {
  using word = typename A::word;
  const std::size_t W = grid_.P + 2 * pad_;
  std::fill(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(W * grid_.Q), word{0});
  word* img = scratch.data() + pad_;  // pixel (k, l) at img[l W + k], for k in [-pad, P + pad)
  const auto w = static_cast<std::ptrdiff_t>(W);
  std::vector<std::ptrdiff_t> offset(dirs_.size());
  for (std::size_t i = 0; i < dirs_.size(); ++i) offset[i] = bin_offset(grid_, dirs_[i]);
  auto run = [&]<std::size_t N>(std::integral_constant<std::size_t, N>) {
    const auto Q = static_cast<std::ptrdiff_t>(N == 0 ? grid_.Q : N);
    for (const step& s : steps_) {
      const auto k = static_cast<std::ptrdiff_t>(s.k), l = static_cast<std::ptrdiff_t>(s.l);
      const std::ptrdiff_t p = dirs_[s.source].p;
      word v = projections[s.source][static_cast<std::size_t>(offset[s.source] - k + p * l)];
      const word* at = img + k - p * l;  // row r's pixel on the line is at[r (W + p)]
      for (std::ptrdiff_t r = 0; r < Q; ++r) v = A::sub(v, at[r * (w + p)]);
      img[l * w + k] = v;
    }
  };
  switch (grid_.Q) {
    case 2:
      run(std::integral_constant<std::size_t, 2>{});
      break;
    case 4:
      run(std::integral_constant<std::size_t, 4>{});
      break;
    case 8:
      run(std::integral_constant<std::size_t, 8>{});
      break;
    default:
      run(std::integral_constant<std::size_t, 0>{});
  }
  for (std::size_t l = 0; l < grid_.Q; ++l)
    std::copy(img + l * W, img + l * W + grid_.P,
              image.begin() + static_cast<std::ptrdiff_t>(l * grid_.P));
}

template <class A>
void reconstruction_plan::apply(std::span<const std::span<const typename A::word>> projections,
                                std::span<typename A::word> image,
                                std::span<typename A::word> scratch) const {
  using word = typename A::word;
  const std::size_t I = dirs_.size();
  if (projections.size() != I)
    throw std::invalid_argument("reconstruct: " + std::to_string(projections.size()) +
                                " projections given for a plan of " + std::to_string(I));
  if (image.size() != grid_.pixels() || scratch.size() < scratch_words())
    throw std::invalid_argument("reconstruct: image or scratch of the wrong size");
  for (std::size_t i = 0; i < I; ++i)
    if (projections[i].size() != bin_count(grid_, dirs_[i]))
      throw std::invalid_argument("reconstruct: projection " + std::to_string(i) + " has " +
                                  std::to_string(projections[i].size()) + " bins, expected " +
                                  std::to_string(bin_count(grid_, dirs_[i])));
  if (all_q_one_) return pull<A>(projections, image, scratch);
  // Residual bins: a copy of the projections from which known pixels are subtracted. The bin of
  // pixel (k, l) in projection i is base[i] + p_i l - q_i k, with base[i] = start + offset.
  constexpr std::size_t max_fast = 16;
  std::ptrdiff_t base[max_fast], pl[max_fast], qk[max_fast];
  std::vector<std::ptrdiff_t> base_v, p_v, q_v;
  std::ptrdiff_t *bs = base, *ps = pl, *qs = qk;
  if (I > max_fast) {
    base_v.resize(I), p_v.resize(I), q_v.resize(I);
    bs = base_v.data(), ps = p_v.data(), qs = q_v.data();
  }
  for (std::size_t i = 0; i < I; ++i) {
    std::copy(projections[i].begin(), projections[i].end(),
              scratch.begin() + static_cast<std::ptrdiff_t>(start_[i]));
    bs[i] = static_cast<std::ptrdiff_t>(start_[i]) + bin_offset(grid_, dirs_[i]);
    ps[i] = dirs_[i].p;
    qs[i] = dirs_[i].q;
  }
  word* r = scratch.data();
  const std::size_t P = grid_.P;
  for (const step& s : steps_) {
    const auto k = static_cast<std::ptrdiff_t>(s.k), l = static_cast<std::ptrdiff_t>(s.l);
    const word v = r[bs[s.source] + ps[s.source] * l - qs[s.source] * k];
    image[s.l * P + s.k] = v;
    // Subtracting from the source bin too leaves it 0 and spares a branch.
    for (std::size_t i = 0; i < I; ++i) {
      word& b = r[bs[i] + ps[i] * l - qs[i] * k];
      b = A::sub(b, v);
    }
  }
}

void reconstruction_plan::reconstruct(std::span<const std::span<const std::uint64_t>> projections,
                                      std::span<std::uint64_t> image,
                                      std::span<std::uint64_t> scratch) const {
  apply<xor_algebra>(projections, image, scratch);
}

void reconstruction_plan::reconstruct(std::span<const std::span<const std::uint64_t>> projections,
                                      std::span<std::uint64_t> image) const {
  std::vector<std::uint64_t> scratch(scratch_words());
  apply<xor_algebra>(projections, image, scratch);
}

void reconstruction_plan::reconstruct(std::span<const std::span<const std::int64_t>> projections,
                                      std::span<std::int64_t> image) const {
  std::vector<std::int64_t> scratch(scratch_words());
  apply<sum_algebra>(projections, image, scratch);
}

}  // namespace mcpilot::mojette
