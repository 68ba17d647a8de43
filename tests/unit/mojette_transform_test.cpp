// The Mojette transform library (models/mojette): forward projections against hand-computed
// bins, bin counts and overheads of the RozoFS layouts, exact round trips for every k-subset,
// and refusal of sets that fail the Katz criterion.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "mojette/directions.hpp"
#include "mojette/encoder.hpp"
#include "mojette/inverse.hpp"
#include "mojette/layout.hpp"
#include "mojette/recoverability.hpp"
#include "mojette/systematic.hpp"
#include "mojette/transform.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot::mojette;

std::vector<std::uint64_t> random_block(std::size_t words, std::uint64_t seed) {
  std::mt19937_64 g(seed);  // the generator's output is specified by the standard
  std::vector<std::uint64_t> v(words);
  for (auto& w : v) w = g();
  return v;
}

// Projects `image` in every direction of `dirs` (XOR).
std::vector<std::vector<std::uint64_t>> encode(const grid& g,
                                               const std::vector<std::uint64_t>& image,
                                               const std::vector<direction>& dirs) {
  std::vector<std::vector<std::uint64_t>> out;
  for (const auto& d : dirs) out.push_back(project<std::uint64_t>(g, image, d));
  return out;
}

// Decodes from the projections whose bit is set in `mask`.
std::vector<std::uint64_t> decode(const grid& g, const std::vector<direction>& dirs,
                                  const std::vector<std::vector<std::uint64_t>>& proj,
                                  std::uint64_t mask) {
  std::vector<direction> kept;
  std::vector<std::span<const std::uint64_t>> bins;
  for (std::size_t i = 0; i < dirs.size(); ++i)
    if (mask >> i & 1) {
      kept.push_back(dirs[i]);
      bins.emplace_back(proj[i]);
    }
  const reconstruction_plan plan(g, kept);
  std::vector<std::uint64_t> image(g.pixels());
  plan.reconstruct(bins, image);
  return image;
}

// The example of docs/models/mojette.md, checked by hand from b = -q k + p l + offset with offset =
// q (P-1) - min(p, 0): the 3 x 2 image with rows [1 2 3] (l = 0) and [4 5 6] (l = 1). For
// (-1, 1), offset 3: pixel 1 (k=0,l=0) -> bin 3, 2 and 4 -> bin 2, 3 and 5 -> bin 1, 6 -> bin 0.
TEST(MojetteTransform, ThreeByTwoKnownProjections) {
  const grid g{3, 2};
  const std::vector<std::int64_t> image{1, 2, 3, 4, 5, 6};
  using bins = std::vector<std::int64_t>;
  EXPECT_EQ(project<std::int64_t>(g, image, {-1, 1}), (bins{6, 8, 6, 1}));
  EXPECT_EQ(project<std::int64_t>(g, image, {0, 1}), (bins{9, 7, 5}));
  EXPECT_EQ(project<std::int64_t>(g, image, {1, 1}), (bins{3, 8, 6, 4}));
  EXPECT_EQ(project<std::int64_t>(g, image, {2, 1}), (bins{3, 2, 7, 5, 4}));
  // Row sums (q = 0): (1, 0) puts row l into bin l; (-1, 0) into bin Q-1-l.
  EXPECT_EQ(project<std::int64_t>(g, image, {1, 0}), (bins{6, 15}));
  EXPECT_EQ(project<std::int64_t>(g, image, {-1, 0}), (bins{15, 6}));
  // (1, 2): b = -2k + l + 2, bins 0..5: pixel 3 -> 0, 6 -> 1, 2 -> 2, 5 -> 3, 1 -> 4, 4 -> 5.
  EXPECT_EQ(project<std::int64_t>(g, image, {1, 2}), (bins{3, 6, 2, 5, 1, 4}));
}

// Integer round trip of the same image from two projections: sum |q| = 2 >= Q = 2.
TEST(MojetteTransform, ThreeByTwoIntegerRoundTrip) {
  const grid g{3, 2};
  const std::vector<std::int64_t> image{1, 2, 3, 4, 5, 6};
  const auto a = project<std::int64_t>(g, image, {-1, 1});
  const auto b = project<std::int64_t>(g, image, {2, 1});
  const reconstruction_plan plan(g, {{-1, 1}, {2, 1}});
  std::vector<std::int64_t> out(6);
  const std::vector<std::span<const std::int64_t>> in{a, b};
  plan.reconstruct(in, out);
  EXPECT_EQ(out, image);
}

// B = (P-1)|q| + (Q-1)|p| + 1 for 4 KiB = 512 words: 2-of-3 is 256 x 2, 4-of-6 is 128 x 4,
// 8-of-12 is 64 x 8. Overheads are the total over 512: 770/512, 795/512, 1020/512, and at 32 KiB
// 8-of-12 stores 12 x 512 + 7 x 36 = 6396 bins over 4096 words.
TEST(MojetteLayout, BinCountsAndOverheadsOfRozoFS) {
  const auto l2 = rozofs_layout(2), l4 = rozofs_layout(4), l8 = rozofs_layout(8);
  const grid g2 = block_grid(4096, 2), g4 = block_grid(4096, 4), g8 = block_grid(4096, 8);
  EXPECT_EQ(bins_per_projection(g2, l2.dirs), (std::vector<std::size_t>{257, 256, 257}));
  EXPECT_EQ(bins_per_projection(g4, l4.dirs),
            (std::vector<std::size_t>{137, 134, 131, 128, 131, 134}));
  const auto b8 = bins_per_projection(g8, l8.dirs);
  std::size_t total8 = 0;
  for (auto b : b8) total8 += b;
  EXPECT_EQ(total8, 1020u);
  EXPECT_DOUBLE_EQ(overhead(g2, l2.dirs), 770.0 / 512);
  EXPECT_DOUBLE_EQ(overhead(g4, l4.dirs), 795.0 / 512);
  EXPECT_DOUBLE_EQ(overhead(g8, l8.dirs), 1020.0 / 512);
  EXPECT_NEAR(overhead(g2, l2.dirs), 1.5039, 5e-5);
  EXPECT_NEAR(overhead(g4, l4.dirs), 1.5527, 5e-5);
  EXPECT_NEAR(overhead(g8, l8.dirs), 1.9922, 5e-5);
  EXPECT_DOUBLE_EQ(overhead(block_grid(32768, 8), l8.dirs), 6396.0 / 4096);
  EXPECT_NEAR(overhead(block_grid(32768, 8), l8.dirs), 1.5615, 5e-5);
  for (std::size_t k : {2, 4, 8}) EXPECT_EQ(mds_overhead(3 * k / 2, k), 1.5);
  EXPECT_EQ(l4.name, "rozofs-4-6");
  EXPECT_EQ(l4.dirs, (std::vector<direction>{{-3, 1}, {-2, 1}, {-1, 1}, {0, 1}, {1, 1}, {2, 1}}));
}

// Rows of the overhead table of docs/models/mojette.md, as exact fractions: non-systematic
// (sum of (P-1) + (Q-1)|p| + 1 over the n projections) / PQ; systematic (PQ + parity bins) / PQ.
TEST(MojetteLayout, OverheadTable) {
  // 4-of-6 at 1 KiB: P = 32, 6 x 32 + 3 x 9 = 219 bins over 128 words.
  EXPECT_DOUBLE_EQ(overhead(block_grid(1024, 4), rozofs_layout(4).dirs), 219.0 / 128);
  // 8-of-12 at 1 MiB: P = 16384, 12 x 16384 + 7 x 36 = 196860 over 131072.
  EXPECT_DOUBLE_EQ(overhead(block_grid(1 << 20, 8), rozofs_layout(8).dirs), 196860.0 / 131072);
  // 8-of-12 systematic at 1 KiB: P = 16, 128 + (16 + 23 + 30 + 37) = 234 over 128.
  EXPECT_DOUBLE_EQ(systematic_overhead(block_grid(1024, 8), systematic_directions(12, 8)),
                   234.0 / 128);
  // 2-of-3 systematic: one projection (0, 1) of P bins, exactly MDS at every size.
  EXPECT_DOUBLE_EQ(systematic_overhead(block_grid(4096, 2), systematic_directions(3, 2)), 1.5);
}

// Every k-subset of every RozoFS layout rebuilds random blocks bit for bit, at sizes from one
// word per row (P = 1) to 32 KiB; sets of k-1 are refused (P > sum |p| at these sizes).
TEST(MojetteInverse, EveryKSubsetOfRozoFSRoundTripsBitExact) {
  for (std::size_t k : {2, 4, 8}) {
    const layout lay = rozofs_layout(k);
    const std::size_t n = lay.dirs.size();
    for (std::size_t bytes : {8 * k, 8 * k * 3, std::size_t{4096}, std::size_t{32768}}) {
      const grid g = block_grid(bytes, k);
      const auto image = random_block(g.pixels(), bytes * 31 + k);
      const auto proj = encode(g, image, lay.dirs);
      int subsets = 0;
      for (std::uint64_t m = 0; m < (std::uint64_t{1} << n); ++m) {
        if (static_cast<std::size_t>(std::popcount(m)) != k) continue;
        ++subsets;
        ASSERT_EQ(decode(g, lay.dirs, proj, m), image)
            << lay.name << " block " << bytes << " survivors mask " << m;
      }
      EXPECT_EQ(subsets, k == 2 ? 3 : k == 4 ? 15 : 495);
    }
  }
}

// The example of docs/models/mojette.md: P = 4, Q = 3 with (1, 1) and (-1, 1) left fails Katz (2 <
// 4, 2 < 3).
TEST(MojetteInverse, KatzFailingSetIsRefusedWithAClearError) {
  const grid g{4, 3};
  try {
    reconstruction_plan plan(g, {{1, 1}, {-1, 1}});
    FAIL() << "a set failing Katz was accepted";
  } catch (const not_reconstructible& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Katz"), std::string::npos) << what;
    EXPECT_NE(what.find("sum |p| = 2 < 4"), std::string::npos) << what;
    EXPECT_NE(what.find("sum |q| = 2 < 3"), std::string::npos) << what;
  }
  EXPECT_FALSE(katz(g, std::vector<direction>{{1, 1}, {-1, 1}}));
  EXPECT_TRUE(katz(g, std::vector<direction>{{1, 1}, {-1, 1}, {0, 1}}));
}

// Regression: the grid's two sides must not be swapped in the criterion (a Katz check written as
// sum |p| >= Q or sum |q| >= P exists in another Mojette library). (3, 1) + (-2, 1) has
// sum |p| = 5 and sum |q| = 2. On an 8 x 3 grid (P = 8, Q = 3) both sums fall short, so it is
// refused, where the swapped check (5 >= Q = 3) would accept it and decode a wrong block. On a
// 3 x 8 grid, sum |p| = 5 >= P = 3, and it decodes.
TEST(MojetteInverse, KatzSidesAreNotSwapped) {
  const std::vector<direction> pair{{3, 1}, {-2, 1}};
  EXPECT_FALSE(katz(grid{8, 3}, pair));
  EXPECT_THROW(reconstruction_plan(grid{8, 3}, pair), not_reconstructible);
  EXPECT_TRUE(katz(grid{3, 8}, pair));
  const grid g{3, 8};
  const auto image = random_block(g.pixels(), 38);
  const auto proj = encode(g, image, pair);
  EXPECT_EQ(decode(g, pair, proj, 0b11), image);
  // Sum |q| = 2 >= Q = 2 on a wide grid: recoverable however large P is.
  EXPECT_TRUE(katz(grid{1000, 2}, std::vector<direction>{{0, 1}, {1, 1}}));
}

// Exhaustive on small grids: every valid set of up to four directions with |p| <= 3, q <= 2
// that satisfies Katz is reconstructed exactly by the one-pixel-bin algorithm (the plan never
// stalls), over XOR and over integers; every set that fails Katz is refused.
TEST(MojetteInverse, KatzSetsAlwaysReconstructOnSmallGrids) {
  std::vector<direction> pool;
  for (int q = 0; q <= 2; ++q)
    for (int p = -3; p <= 3; ++p) {
      const std::vector<direction> one{{p, q}};
      try {
        check_directions(one);
        pool.push_back({p, q});
      } catch (const invalid_direction&) {
      }
    }
  int reconstructed = 0, refused = 0;
  for (std::size_t P = 1; P <= 5; ++P)
    for (std::size_t Q = 1; Q <= 5; ++Q) {
      const grid g{P, Q};
      const auto image = random_block(g.pixels(), P * 10 + Q);
      std::vector<std::int64_t> ints(g.pixels());
      for (std::size_t i = 0; i < ints.size(); ++i) ints[i] = static_cast<std::int64_t>(i * i) - 7;
      for (std::uint32_t mask = 1; mask < (1u << pool.size()); ++mask) {
        if (std::popcount(mask) > 4) continue;
        std::vector<direction> dirs;
        for (std::size_t i = 0; i < pool.size(); ++i)
          if (mask >> i & 1) dirs.push_back(pool[i]);
        try {
          check_directions(dirs);
        } catch (const invalid_direction&) {
          continue;  // (1, 0) with (-1, 0)
        }
        if (!katz(g, dirs)) {
          EXPECT_THROW(reconstruction_plan(g, dirs), not_reconstructible);
          ++refused;
          continue;
        }
        const reconstruction_plan plan(g, dirs);
        std::vector<std::vector<std::uint64_t>> px;
        std::vector<std::vector<std::int64_t>> pi;
        std::vector<std::span<const std::uint64_t>> sx;
        std::vector<std::span<const std::int64_t>> si;
        for (const auto& d : dirs) {
          px.push_back(project<std::uint64_t>(g, image, d));
          pi.push_back(project<std::int64_t>(g, ints, d));
        }
        for (std::size_t i = 0; i < dirs.size(); ++i) {
          sx.emplace_back(px[i]);
          si.emplace_back(pi[i]);
        }
        std::vector<std::uint64_t> outx(g.pixels());
        std::vector<std::int64_t> outi(g.pixels());
        plan.reconstruct(sx, outx);
        plan.reconstruct(si, outi);
        ASSERT_EQ(outx, image) << P << "x" << Q << " {" << to_string(dirs) << "}";
        ASSERT_EQ(outi, ints) << P << "x" << Q << " {" << to_string(dirs) << "}";
        ++reconstructed;
      }
    }
  // Not vacuous: 25 grids x 1,093 sets of 1 to 4 directions, less the invalid ones.
  EXPECT_GT(reconstructed, 15000) << refused;
  EXPECT_GT(refused, 800) << reconstructed;
}

// The layout encoder (reversed padded rows, write-once bins) gives forward()'s bins exactly,
// for the RozoFS layouts at several sizes and for a set mixing q = 0, 1, 2 and 3.
TEST(MojetteEncoder, MatchesForwardBinForBin) {
  struct encoder_case {
    grid g;
    std::vector<direction> dirs;
  };
  std::vector<encoder_case> cases;
  for (std::size_t k : {2, 4, 8})
    for (std::size_t bytes : {8 * k, std::size_t{4096}, std::size_t{65536} + 8 * k * 3})
      cases.push_back({block_grid(bytes, k), rozofs_layout(k).dirs});
  cases.push_back({{7, 5}, {{1, 0}, {-3, 1}, {5, 1}, {1, 2}, {-2, 3}}});
  cases.push_back({{300, 3}, {{-7, 1}, {0, 1}, {1, 1}}});
  for (const auto& c : cases) {
    const auto image = random_block(c.g.pixels(), c.g.P * 7 + c.g.Q);
    std::vector<std::vector<std::uint64_t>> bins;
    std::vector<std::span<std::uint64_t>> out;
    for (const auto& d : c.dirs) bins.emplace_back(bin_count(c.g, d), 0xdeadbeef);
    for (auto& b : bins) out.emplace_back(b);
    encoder enc(c.g, c.dirs);
    enc.encode(image, out);
    EXPECT_EQ(bins, encode(c.g, image, c.dirs)) << c.g.P << " x " << c.g.Q;
    enc.encode(image, out);  // a second block through the same workspace
    EXPECT_EQ(bins, encode(c.g, image, c.dirs)) << c.g.P << " x " << c.g.Q;
  }
}

// Systematic layouts: every lost row is rebuilt bit for bit from each parity projection, and
// every pair of lost rows from every pair of parity projections, at several sizes.
TEST(MojetteSystematic, LostRowsRebuiltBitExact) {
  for (std::size_t k : {2, 4, 8}) {
    const std::size_t n = 3 * k / 2;
    const auto parity = systematic_directions(n, k);
    ASSERT_EQ(parity.size(), n - k);
    for (std::size_t bytes : {8 * k, 8 * k * 5, std::size_t{4096}}) {
      const grid g = block_grid(bytes, k);
      const auto image = random_block(g.pixels(), bytes + k);
      const auto proj = encode(g, image, parity);
      for (std::size_t j = 0; j < parity.size(); ++j)
        for (std::size_t r = 0; r < k; ++r) {
          auto damaged = image;
          std::fill_n(damaged.begin() + static_cast<std::ptrdiff_t>(r * g.P), g.P, 0xbad);
          rebuild_row(g, damaged, r, parity[j], proj[j]);
          ASSERT_EQ(damaged, image) << k << " rows, " << bytes << " B, row " << r;
        }
      for (std::size_t a = 0; a < parity.size(); ++a)
        for (std::size_t b = a + 1; b < parity.size(); ++b)
          for (std::size_t r1 = 0; r1 < k; ++r1)
            for (std::size_t r2 = r1 + 1; r2 < k; ++r2) {
              two_row_rebuild fix(g, r1, r2, parity[a], parity[b]);
              auto damaged = image;
              std::fill_n(damaged.begin() + static_cast<std::ptrdiff_t>(r1 * g.P), g.P, 1);
              std::fill_n(damaged.begin() + static_cast<std::ptrdiff_t>(r2 * g.P), g.P, 2);
              fix.rebuild(damaged, proj[a], proj[b]);
              ASSERT_EQ(damaged, image)
                  << k << " rows, " << bytes << " B, rows " << r1 << ", " << r2;
            }
    }
  }
  // 4-of-6 at 4 KiB: 512 data words plus (0, 1) with 128 bins and (1, 1) with 131.
  const grid g = block_grid(4096, 4);
  EXPECT_DOUBLE_EQ(systematic_overhead(g, systematic_directions(6, 4)), (512.0 + 259) / 512);
}

// Invalid direction sets, each with its reason.
TEST(MojetteDirections, InvalidSetsAreNamed) {
  auto why = [](std::vector<direction> d) {
    try {
      check_directions(d);
    } catch (const invalid_direction& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(why({{2, 2}}).find("gcd(p, q) = 2"), std::string::npos);
  EXPECT_NE(why({{0, 0}}).find("q = 0"), std::string::npos);
  EXPECT_NE(why({{2, 0}}).find("q = 0"), std::string::npos);
  EXPECT_NE(why({{1, 1}, {1, 1}}).find("duplicates"), std::string::npos);
  EXPECT_NE(why({{1, 0}, {-1, 0}}).find("duplicates"), std::string::npos);
  EXPECT_NE(why({{1, -1}}).find("q < 0"), std::string::npos);
  EXPECT_EQ(why({{1, 0}, {0, 1}, {-2, 3}}), "accepted");
}

TEST(MojetteLayout, BlockGridAndParsing) {
  EXPECT_EQ(block_grid(4096, 4).P, 128u);
  EXPECT_THROW(block_grid(4100, 4), std::invalid_argument);
  EXPECT_THROW(block_grid(16, 4), std::invalid_argument);
  EXPECT_EQ(parse_directions("[[1, 1], [-1,1],[3 ,2]]"),
            (std::vector<direction>{{1, 1}, {-1, 1}, {3, 2}}));
  EXPECT_EQ(parse_directions("[ [ 1, 1 ], [ -1, 2 ] ]"), (std::vector<direction>{{1, 1}, {-1, 2}}));
  EXPECT_THROW(parse_directions("[[1, 1], [2]]"), std::invalid_argument);
  EXPECT_THROW(parse_directions("[]"), std::invalid_argument);
  EXPECT_THROW(parse_directions("[[1, 1]] x"), std::invalid_argument);
}

// The non-MDS layout of docs/models/mojette.md (configs/mojette/custom-non-mds.toml): P = Q =
// 4 with a = (1,1), b = (-1,1), c = (1,2), d = (-1,2), e = (3,1); |p| = 1,1,1,1,3 and |q| =
// 1,1,2,2,1. By hand: no single projection suffices; of the 10 pairs, the four with e (sum
// |p| = 4) and c+d (sum |q| = 4) do, 5 in all; every triple does (with e: sum |p| >= 5;
// without: sum |q| >= 4); the 5 quadruples and the full set do: 21 of 32.
TEST(MojetteRecoverability, NonMdsLayoutCountedExactlyAndEveryCountedSetDecodes) {
  const grid g{4, 4};
  const std::vector<direction> dirs{{1, 1}, {-1, 1}, {1, 2}, {-1, 2}, {3, 1}};
  const auto rec = recoverable_sets(g, dirs);
  const std::uint64_t expected[] = {0, 0, 5, 10, 5, 1};
  std::uint64_t total = 0;
  for (std::size_t s = 0; s <= 5; ++s) {
    EXPECT_EQ(count_recoverable(rec, 5, s), expected[s]) << s << " survivors";
    total += count_recoverable(rec, 5, s);
  }
  EXPECT_EQ(total, 21u);
  EXPECT_TRUE(rec[0b01100]);   // (1,2) + (-1,2)
  EXPECT_TRUE(rec[0b10001]);   // (1,1) + (3,1)
  EXPECT_FALSE(rec[0b00011]);  // (1,1) + (-1,1)
  const auto t = recoverability_threshold(rec, 5);
  EXPECT_EQ(t.min_survivors, 2u);
  EXPECT_FALSE(t.count_only);
  // Every set counted as recoverable decodes a random block exactly; every other is refused.
  const auto image = random_block(16, 2026);
  const auto proj = encode(g, image, dirs);
  for (std::uint64_t m = 1; m < 32; ++m) {
    if (rec[m]) {
      EXPECT_EQ(decode(g, dirs, proj, m), image) << "mask " << m;
    } else {
      EXPECT_THROW(decode(g, dirs, proj, m), not_reconstructible) << "mask " << m;
    }
  }
  // Unrecoverable sets: 1 of size 0, 5 of size 1, 5 of size 2, so with f = 0.1 the exact
  // probability is 0.1^5 + 5 (0.1^4)(0.9) + 5 (0.1^3)(0.9^2) = 0.00001 + 0.00045 + 0.00405.
  EXPECT_NEAR(unrecoverable_probability(rec, 5, 0.1), 0.00451, 1e-15);
}

// RozoFS 4-of-6 at 4 KiB is MDS in recoverability: any 4 of 6, never 3. With f = 0.1 the
// probability of fewer than 4 survivors is sum_{s<4} C(6,s) 0.9^s 0.1^(6-s) = 0.01585.
TEST(MojetteRecoverability, RozoFS46IsAThresholdLayout) {
  const auto lay = rozofs_layout(4);
  const auto rec = recoverable_sets(block_grid(4096, 4), lay.dirs);
  const auto t = recoverability_threshold(rec, 6);
  EXPECT_EQ(t.min_survivors, 4u);
  EXPECT_TRUE(t.count_only);
  EXPECT_NEAR(unrecoverable_probability(rec, 6, 0.1), 0.01585, 1e-15);
}

}  // namespace MCPILOT_TEST_FILE
