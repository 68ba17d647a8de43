// Prefix sums kept at every stride-th reading (framework/src/stats/sparse_prefix_sums.hpp) must
// give the full sums' doubles bit for bit, and the lag-1 correlations read off them in one pass
// the doubles of the functions over full sums they stand in for: the change-point search of a
// long series and choose_subsession rely on it to give the same subsession sizes, p-values and
// change-points with a quarter less memory. So every comparison here is ==, not a tolerance.
#include "stats/sparse_prefix_sums.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "mcpilot/stats/subsession.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

// AR(1) readings about a large offset (so the centred sums carry rounding), with a stretch of
// equal values (so batch means can be exactly equal and the correlations nullopt).
std::vector<double> readings(std::size_t n, double rho, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<double> x(n);
  double v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    v = rho * v + normal(rng);
    x[i] = 1e6 + v;
  }
  for (std::size_t i = n / 3; i < n / 3 + n / 10; ++i) x[i] = 1e6 + 0.25;
  return x;
}

// The same optional<double>, bit for bit (both nullopt, or equal doubles).
void expect_same(const std::optional<double>& a, const std::optional<double>& b, std::size_t q) {
  ASSERT_EQ(a.has_value(), b.has_value()) << "q " << q;
  if (a) EXPECT_EQ(*a, *b) << "q " << q;
}

TEST(SparsePrefixSums, EverySliceIsTheFullSumsBitForBit) {
  const auto x = readings(5000, 0.7, 1);
  const batch_correlogram full(x);
  const auto all = full.prefix_sums();
  std::vector<double> out;
  for (std::size_t stride : {1, 7, 64, 100}) {
    const sparse_prefix_sums built(x, full.mean(), stride);
    const sparse_prefix_sums kept(x, full.mean(), all, stride);
    for (const auto& s : {&built, &kept}) {
      ASSERT_EQ(s->size(), all.size());
      for (std::size_t i = 0; i < all.size(); i += 37) ASSERT_EQ(s->at(i), all[i]) << i;
      ASSERT_EQ(s->at(x.size()), all.back());
      // Windows starting and ending on and off the kept sums, empty ones, and the whole series.
      for (auto [b, e] : std::vector<std::pair<std::size_t, std::size_t>>{{0, 5000},
                                                                          {0, 0},
                                                                          {64, 64},
                                                                          {63, 65},
                                                                          {128, 1280},
                                                                          {5, 4999},
                                                                          {1000, 1003},
                                                                          {300, 300 + 4 * 64},
                                                                          {301, 301 + 9 * 64 + 3},
                                                                          {4999, 5000},
                                                                          {2, 700}}) {
        const auto got = s->fill(b, e, out);
        ASSERT_EQ(got.size(), e - b + 1);
        for (std::size_t i = b; i <= e; ++i)
          ASSERT_EQ(got[i - b], all[i])
              << "stride " << stride << " [" << b << ", " << e << "] " << i;
      }
    }
  }
}

TEST(SparsePrefixSums, PiecesCoverTheWindowOnceInOrder) {
  const auto x = readings(3000, 0.3, 2);
  const batch_correlogram full(x);
  const sparse_prefix_sums s(x, full.mean(), full.prefix_sums(), 64);
  std::size_t next = 17;
  s.for_each_chunk(17, 2900, 500, [&](std::size_t first, std::span<const double> sums) {
    ASSERT_EQ(first, next);
    ASSERT_LE(sums.size(), 500u);
    for (std::size_t i = 0; i < sums.size(); ++i) ASSERT_EQ(sums[i], full.prefix_sum(first + i));
    next += sums.size();
  });
  EXPECT_EQ(next, 2901u);
}

TEST(SparsePrefixSums, PairedCorrelationsAreThoseOfPrefixLag1) {
  for (double rho : {0.0, 0.5, 0.95}) {
    const auto x = readings(20000, rho, 3);
    const batch_correlogram full(x);
    const sparse_prefix_sums s(x, full.mean(), full.prefix_sums(), 64);
    for (auto [b, e] : std::vector<std::pair<std::size_t, std::size_t>>{
             {0, 20000}, {130, 19001}, {6000, 9000}, {6700, 8600}, {1, 40}}) {
      const auto slice = full.prefix_sums().subspan(b, e - b + 1);
      // noise 0 and a noise large enough that the constant stretch's batches count as equal
      for (double noise : {0.0, 1e-6}) {
        const std::size_t last = std::min<std::size_t>(600, (e - b) / 2 + 3);
        const auto got = streamed_lag1(s, b, e, 1, last, lag1_arithmetic::paired, noise);
        ASSERT_EQ(got.size(), last);
        for (std::size_t q = 1; q <= last; ++q)
          expect_same(got[q - 1], prefix_lag1(slice, q, noise), q);
      }
    }
  }
}

TEST(SparsePrefixSums, PooledCorrelationsAreThoseOfTheCorrelogram) {
  for (double rho : {0.0, 0.6, 0.97}) {
    const auto x = readings(30011, rho, 4);
    const batch_correlogram full(x);
    const sparse_prefix_sums s(x, full.mean(), 64);
    for (auto [first, last] : std::vector<std::pair<std::size_t, std::size_t>>{
             {1, 2}, {3, 11}, {12, 47}, {900, 1100}, {15000, 15010}}) {
      const auto got = streamed_lag1(s, 0, x.size(), first, last, lag1_arithmetic::pooled);
      for (std::size_t q = first; q <= last; ++q) expect_same(got[q - first], full.lag1(q), q);
    }
  }
  // The pooled form is about the series' own start.
  const auto x = readings(100, 0.1, 5);
  const sparse_prefix_sums s(x, mean(x), 8);
  EXPECT_THROW(streamed_lag1(s, 1, 100, 1, 2, lag1_arithmetic::pooled), std::invalid_argument);
}

// choose_subsession searches a long series in groups over kept sums, a short one over full
// sums: the two must choose the same q with the same correlation, including a q far out.
TEST(SparsePrefixSums, ChooseSubsessionOnALongSeriesMatchesTheFullSearch) {
  for (double rho : {0.0, 0.5, 0.9, 0.995}) {
    const auto x = readings(std::size_t{1} << 17, rho, 6);
    const auto streamed = choose_subsession(x, 0.2);
    const auto whole = choose_subsession(batch_correlogram(x), 0.2);
    ASSERT_EQ(streamed.has_value(), whole.has_value()) << rho;
    if (!whole) continue;
    EXPECT_EQ(streamed->size, whole->size) << rho;
    EXPECT_EQ(streamed->count, whole->count) << rho;
    EXPECT_EQ(streamed->autocorrelation, whole->autocorrelation) << rho;
    if (rho == 0.995) EXPECT_GT(whole->size, 50u);  // a later group, not the first
  }
  const std::vector<double> constant(std::size_t{1} << 17, 3.5);
  const auto c = choose_subsession(constant, 0.2);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->size, 1u);
  EXPECT_EQ(c->autocorrelation, 0.0);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
