#pragma once
// The exact inverse Mojette transform, by additions and subtractions only.
//
// Algorithm (documented in docs/models/mojette.md): a bin that holds exactly one pixel not yet
// known gives that pixel (its residual value); the pixel is then subtracted from its bin in every
// projection, which may leave other bins with one unknown pixel. This is the one-pixel-bin
// ("corner") reconstruction of the Mojette literature: the first such bins are at the grid's
// corners, and reconstruction proceeds inwards from them. When the set satisfies the Katz
// criterion it reaches every pixel: tests/unit/mojette_transform_test.cpp checks this
// exhaustively on small grids and for every sufficient subset of the layouts shipped, and should
// it ever stall the plan throws std::logic_error rather than return a wrong block. When the set
// fails Katz the image is not determined, and the plan is refused before any data is touched.
//
// The order in which pixels become known depends only on the grid and the directions, not on the
// data. A plan computes that order once (O(I P Q) for I projections, with per-bin counts of
// unknown pixels and sums of their indices, so that a bin with count 1 names its pixel directly);
// reconstructing a block then costs, per pixel, one read and I updates of a copy of the bins, with
// no search. When every direction has q = 1 (the RozoFS layouts) it instead reads the pixel's bin
// and the pixels on its line, one per row, from a zero-padded copy of the image, and stores once:
// about twice as fast at 4-of-6 (docs/performance.md).

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "mojette/transform.hpp"

namespace mcpilot::mojette {

// The projections given do not determine the image (they fail the Katz criterion).
class not_reconstructible : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class reconstruction_plan {
 public:
  // Throws not_reconstructible when `dirs` fails the Katz criterion for `g`, and
  // invalid_direction when `dirs` is not a valid set (see check_directions).
  reconstruction_plan(const grid& g, std::vector<direction> dirs);

  const grid& geometry() const { return grid_; }
  const std::vector<direction>& directions() const { return dirs_; }
  // Words of scratch space a reconstruction needs: the total number of bins, or with q = 1
  // everywhere the image with its rows padded.
  std::size_t scratch_words() const {
    return all_q_one_ ? (grid_.P + 2 * pad_) * grid_.Q : total_bins_;
  }

  // projections[i] holds the bins of directions()[i]; image receives the P Q pixels. `scratch`
  // (scratch_words() words) is overwritten; the overloads without it allocate their own.
  void reconstruct(std::span<const std::span<const std::uint64_t>> projections,
                   std::span<std::uint64_t> image, std::span<std::uint64_t> scratch) const;
  void reconstruct(std::span<const std::span<const std::uint64_t>> projections,
                   std::span<std::uint64_t> image) const;
  void reconstruct(std::span<const std::span<const std::int64_t>> projections,
                   std::span<std::int64_t> image) const;

 private:
  template <class A>
  void apply(std::span<const std::span<const typename A::word>> projections,
             std::span<typename A::word> image, std::span<typename A::word> scratch) const;

  template <class A>
  void pull(std::span<const std::span<const typename A::word>> projections,
            std::span<typename A::word> image, std::span<typename A::word> scratch) const;

  struct step {
    std::uint32_t k, l;    // the pixel
    std::uint32_t source;  // the projection whose bin gives it
  };
  grid grid_;
  std::vector<direction> dirs_;
  std::vector<std::size_t> start_;  // first scratch word of each projection
  std::size_t total_bins_ = 0;
  std::vector<step> steps_;
  bool all_q_one_ = false;  // then reconstruct reads the projections directly (pull)
  std::size_t pad_ = 0;     // pull: zero columns on each side of a row
};

}  // namespace mcpilot::mojette
