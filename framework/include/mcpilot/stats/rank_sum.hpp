#pragma once
// The rank-sum test of Wilcoxon and of Mann and Whitney, with its exact null distribution.
//
// For samples a (k values) and b (m values) let U = #{(i, j) : a_i > b_j}; this is the sum of the
// ranks of a less its least possible value k(k+1)/2, and R's statistic W of wilcox.test(a, b).
// If a and b come from one continuous distribution, every choice of k ranks among k + m is
// equally likely, and the number of choices with U = u is the coefficient of x^u in the
// Gaussian binomial coefficient
//
//   [k+m choose k]_x = prod_{i=1..k} (1 - x^{m+i}) / (1 - x^i),
//   P(U <= u) = (1 / C(k+m, k)) sum_{j=0..u} [x^j] [k+m choose k]_x.
//
// The coefficients are found by multiplying the factors in one at a time, each step keeping the
// polynomial divided by its value at x = 1 (the distribution of U for i and m), so every stored
// number is a probability in [1/C(k+m,k), 1], with no cancellation in the lower half where the
// p-value is read. Cached sizes (k m <= 2^16, so C(k+m,k) <= C(512,256) ~ 4.7e152) are held in
// double, larger ones in long double (C(k+m, k) up to 1e4900 stays in range). The two-sided p-value
// is R's wilcox.test(exact = TRUE): min(1, 2 P(U <= min(u, km - u))). It is never approximated:
// the least p that k values among k + m can give is 2 / C(k+m, k) (3 among 100: 1.24e-5), which a
// normal or t approximation does not respect.
//
// Cost and caching, by size (k <= m after swapping; U has one distribution for (k, m) and (m, k)):
// - m <= 32: one table of every such pair, built on first use by the recurrence on the largest
//   value, P(U_{k,m} <= u) = k/(k+m) P(U_{k-1,m} <= u-m) + m/(k+m) P(U_{k,m-1} <= u): O(1) per
//   entry, 65,536 doubles (0.5 MB), well under a millisecond once; then O(1) per lookup.
// - k m <= rank_sum_cached_cells: the lower half of the distribution (u <= km/2) by the product
//   above, O(k * k m / 2) time, of which the cells from 5 standard deviations below km/2 up are
//   kept (three fifths of them at the sizes a change-point search uses; a u further out is
//   summed when asked, O(k u), to the same double), per pair in a process-wide cache
//   guarded by a mutex (safe from several threads; a table is built outside the lock, so two
//   threads may occasionally build the same one). The cache holds at most the largest
//   rank_sum_options::cache_cells any call has asked for (rank_sum_default_cache_cells unless a
//   caller asks for more), dropping the least recently used tables. Then O(1) per lookup.
// - larger: computed up to the observed u only, O(k * u) time, O(u) memory, not kept.

#include <cstddef>
#include <cstdint>
#include <span>

namespace mcpilot {

inline constexpr std::uint64_t rank_sum_cached_cells = 1u << 16;
inline constexpr std::uint64_t rank_sum_default_cache_cells = std::uint64_t{1} << 18;  // 2 MB

// P(U <= u) for k and m values without ties. Exact (up to long double rounding). k or m == 0 gives
// 1. Throws std::length_error when the work min(k,m) * min(u, km-u) exceeds 4e9 operations.
double rank_sum_cdf(std::size_t k, std::size_t m, std::uint64_t u);

// Two-sided exact p-value of an observed U: min(1, 2 P(U <= min(u, km - u))).
double rank_sum_p(std::size_t k, std::size_t m, std::uint64_t u);

// The least two-sided p-value k values among k + m can have, 2 / C(k+m, k) (capped at 1).
double rank_sum_p_floor(std::size_t k, std::size_t m);

enum class rank_sum_method {
  exact,                   // no ties: exact distribution of U
  exact_least_favourable,  // few ties: exact distribution, tied ranks dealt to favour no difference
  fisher_classes,          // many ties: Fisher's exact test on the lower and higher classes
  degenerate,              // an empty sample, or every value equal: p = 1
};

struct rank_sum_options {
  // Ties shrink the variance of the rank sum by the factor 1 - sum_g (t_g^3 - t_g) / (N^3 - N)
  // (t_g the size of tie group g, N = k + m). At or above this limit the ties are few, and the
  // tied ranks are dealt between the samples in the way least in favour of a difference: U is
  // taken as the achievable value nearest km/2, whose exact p is not less than that of any way of
  // ordering the tied values. Below it (e.g. 0/1 readings) the values are split into a lower and a
  // higher class at the cut that makes the classes most equal in size, and Fisher's exact test
  // compares the two samples' counts in the classes. Neither rule uses random numbers.
  double tie_factor_limit = 0.99;
  // The table cache's budget, in numbers, that this caller wants: a long change-point search
  // revisits many pairs and is faster with more. The cache keeps the largest budget asked for
  // so far in the process. Memory and speed only; the p-values do not depend on it.
  std::uint64_t cache_cells = rank_sum_default_cache_cells;
};

struct rank_sum_result {
  double p = 1;  // two-sided
  rank_sum_method method = rank_sum_method::degenerate;
  std::uint64_t u = 0;      // the U the exact p was computed from
  std::uint64_t u_min = 0;  // with ties, U ranges over [u_min, u_max] as tied values are ordered
  std::uint64_t u_max = 0;
  double tie_factor = 1;
  // fisher_classes: the 2x2 table (a in lower class, a in higher, b in lower, b in higher)
  std::uint64_t a_lower = 0, a_higher = 0, b_lower = 0, b_higher = 0;
};

// 1 - sum_g (t_g^3 - t_g) / (N^3 - N) over the tie groups of the pooled values (1 without ties,
// 0 when all are equal or N < 2). It depends only on the pooled values, not on which sample each
// came from, so a choice made on it leaves the tests' null distributions as they are. O(N) when
// at most 1024 distinct values occur (they are counted, and only they are sorted), O(N log N)
// otherwise.
double rank_sum_tie_factor(std::span<const double> a, std::span<const double> b);

// rank_sum_tie_factor(a, b) < limit, usually without sorting: the factor can be below the limit
// only if some value occurs more than t* = sqrt((1 - limit)(N^2 - 1) + 1) times (since
// sum (t^3 - t) <= (t_max^2 - 1) N), and one pass of Misra and Gries' frequent-items count with
// ceil(N / t*) counters finds every such value. O(N) at a fixed limit (the counters are hashed);
// O(N log N) only when a frequent value exists.
bool rank_sum_mostly_tied(std::span<const double> a, std::span<const double> b, double limit);

// Compares a against b. O(N log N) for the ranks plus the distribution lookup above.
rank_sum_result rank_sum_test(std::span<const double> a, std::span<const double> b,
                              const rank_sum_options& options = {});

// The same test on values it may reorder (it sorts each sample): no copies and no allocation,
// for a caller that runs thousands of small tests on its own buffers (the change-point search).
rank_sum_result rank_sum_test_in_place(std::span<double> a, std::span<double> b,
                                       const rank_sum_options& options = {});

}  // namespace mcpilot
