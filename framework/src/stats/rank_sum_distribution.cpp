// The exact null distribution of the rank-sum statistic U (rank_sum.hpp): the product of
// factors, the small tables built once by recurrence, and the per-pair tables kept in a cache.
// Apart from the test itself (rank_sum.cpp) because it knows nothing of samples or ties: it maps
// k, m and u to a probability, read by the test and by the public rank_sum_cdf and rank_sum_p.
#include "mcpilot/stats/rank_sum.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <list>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "rank_sum_parts.hpp"

namespace mcpilot {

namespace {

// A cached table: P(U <= u) for u = first .. floor(km/2). The cells below `first`, the far lower
// tail, are not kept: see first_kept.
struct table {
  std::uint64_t first = 0;
  std::vector<double> cdf;
  std::size_t size() const { return cdf.size(); }
};

// dst[t] = scale (dst[t] - src[t]) and dst[t] += src[t] over ranges that do not overlap, so the
// compiler may vectorise them.
template <class real>
[[gnu::always_inline]] inline void scaled_difference(real* __restrict dst,
                                                     const real* __restrict src, std::size_t len,
                                                     real scale) {
  for (std::size_t t = 0; t < len; ++t) dst[t] = scale * (dst[t] - src[t]);
}
template <class real>
[[gnu::always_inline]] inline void accumulate(real* __restrict dst, const real* __restrict src,
                                              std::size_t len) {
  for (std::size_t t = 0; t < len; ++t) dst[t] += src[t];
}

// P(U = u) for u = 0 .. umax, for k <= m values. Step i multiplies in the factor
// (1 - x^{m+i}) / (1 - x^i) and the normalisation i / (m + i) = C(m+i-1, i-1) / C(m+i, i), so after
// step i the array holds the distribution of U for i and m values. Truncating a power series
// product or quotient at x^umax leaves its first umax+1 coefficients exact. O(k * umax).
template <class real>
[[gnu::always_inline]] inline std::vector<real> lower_pmf(std::size_t k, std::size_t m,
                                                          std::uint64_t umax) {
  std::vector<real> v(umax + 1, real{0});
  real* c = v.data();
  c[0] = 1;
  for (std::size_t i = 1; i <= k; ++i) {
    const real scale = static_cast<real>(i) / static_cast<real>(m + i);
    const std::uint64_t s = m + i;
    // Times (1 - x^s), scaled: c[j] = scale (c[j] - c[j-s]). Taken downward in blocks of s, so
    // each block reads only coefficients below it that are still the old ones.
    for (std::uint64_t hi = umax; hi >= s;) {
      const std::uint64_t lo = std::max(s, hi + 1 - std::min(hi + 1, s));
      scaled_difference(c + lo, c + lo - s, hi - lo + 1, scale);
      if (lo == s) break;
      hi = lo - 1;
    }
    const std::uint64_t low_end = std::min<std::uint64_t>(umax, s - 1);
    for (std::uint64_t j = 0; j <= low_end; ++j) c[j] *= scale;
    // Divided by (1 - x^i): c[j] += c[j - i], upward in blocks of i, each reading the block
    // before it, already final.
    for (std::uint64_t b = i; b <= umax; b += i)
      accumulate(c + b, c + b - i, std::min<std::uint64_t>(i, umax + 1 - b));
  }
  return v;
}

// The loader picks a target_clones function's clone by calling a resolver while it relocates
// the program, before a sanitizer's runtime has started: under TSan that crashes, so sanitized
// builds, which test the arithmetic and not the speed, compile one clone.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define MCPILOT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer) || \
    __has_feature(memory_sanitizer)
#define MCPILOT_SANITIZED 1
#endif
#endif
#ifdef MCPILOT_SANITIZED
#define MCPILOT_AVX2_CLONE
#else
#define MCPILOT_AVX2_CLONE __attribute__((target_clones("avx2", "default")))
#endif

// lower_pmf<double>, compiled twice: building the cached tables is a sixth of a change-point
// search of 10^6 readings, all of it in the two loops above, and AVX2 runs them on four doubles
// at a time instead of two. The clone is picked once, at load time, by the CPU; without FMA
// (not part of "avx2") every operation and its rounding is the default clone's, so the tables
// are bit-identical on any machine.
MCPILOT_AVX2_CLONE std::vector<double> lower_pmf_double(std::size_t k, std::size_t m,
                                                        std::uint64_t umax) {
  return lower_pmf<double>(k, m, umax);
}

// The first u a cached table keeps: 5 standard deviations of U below its mean km/2. The tests of
// a change-point search land below that in 1 of 200 lookups at 10^6 AR(1) readings and 1 of 20
// on the M/M/1 example's streams with their warm-up (their batch means are not quite
// independent, so U strays further than the null distribution says). The cells there were 41%
// of what the tables held (1.9e6 numbers, 15 MB, at 10^6 readings), and computing them when
// asked costs nothing measurable; 4.5 standard deviations kept 5% fewer cells and cost 3% of a
// search. O(1).
std::uint64_t first_kept(std::size_t k, std::size_t m) {
  const double kk = static_cast<double>(k), mm = static_cast<double>(m);
  const double lo = kk * mm / 2 - 5.0 * std::sqrt(kk * mm * (kk + mm + 1) / 12);
  return lo > 0 ? static_cast<std::uint64_t>(lo) : 0;
}

// P(U <= u) for u = 0 .. umax, summed in order from the probabilities P(U = u). A table and a
// lookup below its first kept cell both come from here, so they agree to the last bit: lower_pmf's
// first umax + 1 terms do not depend on where it truncates. O(k umax).
std::vector<double> lower_cdf_upto(std::size_t k, std::size_t m, std::uint64_t umax) {
  // k m <= rank_sum_cached_cells = 2^16 bounds C(k+m, k) by C(512, 256) ~ 4.7e152, so the least
  // probability, 1 / C(k+m, k), is far inside the range of double, whose 53 bits suffice here.
  std::vector<double> v = lower_pmf_double(k, m, umax);
  double acc = 0;
  for (double& p : v) p = std::min(acc += p, 1.0);
  return v;
}

// The cumulative distribution P(U <= u) for u = first_kept .. floor(km/2).
std::shared_ptr<const table> build_half_table(std::size_t k, std::size_t m) {
  const std::uint64_t half = static_cast<std::uint64_t>(k) * m / 2;
  const std::vector<double> cdf = lower_cdf_upto(k, m, half);
  auto t = std::make_shared<table>();
  t->first = first_kept(k, m);
  t->cdf.assign(cdf.begin() + static_cast<std::ptrdiff_t>(t->first), cdf.end());
  return t;
}

// Every half table for 1 <= k <= m <= small_side, by the recurrence on the largest of the k + m
// values (from a with probability k/(k+m), then it exceeds all m values of b):
//   P(U_{k,m} <= u) = k/(k+m) P(U_{k-1,m} <= u - m) + m/(k+m) P(U_{k,m-1} <= u),
// which costs O(1) per entry, all terms positive: about small_side^4 / 16 = 65,536 entries
// (0.5 MB), built once on first use in well under a millisecond. Entries above km/2 are read
// through the symmetry P(U <= u) = 1 - P(U <= km - u - 1).
//
// The side was 64 (8 MB, every pair up to 64 built on first use even for a series of 100
// readings). That one table put `mcpilot analyze` of 10^5 readings above Pilot's peak memory;
// pairs from 33 to 64 now go through the cache of per-pair tables below, which builds only the
// pairs a series needs.
constexpr std::size_t small_side = 32;

class small_tables {
 public:
  small_tables() {
    offset_.assign((small_side + 1) * (small_side + 1), 0);
    std::size_t total = 0;
    for (std::size_t m = 1; m <= small_side; ++m)
      for (std::size_t k = 1; k <= m; ++k) {
        offset_[k * (small_side + 1) + m] = total;
        total += k * m / 2 + 1;
      }
    cdf_.resize(total);
    for (std::size_t m = 1; m <= small_side; ++m)
      for (std::size_t k = 1; k <= m; ++k) {
        const double wa = static_cast<double>(k) / static_cast<double>(k + m);
        const double wb = static_cast<double>(m) / static_cast<double>(k + m);
        double* t = table(k, m);
        const std::size_t half = k * m / 2;
        // P(U_{k-1,m} <= u - m): u - m <= (k-1) m / 2, inside the stored half (k = 1: it is 1).
        for (std::size_t u = 0; u <= half; ++u)
          t[u] = u < m ? 0.0 : wa * (k == 1 ? 1.0 : table(k - 1, m)[u - m]);
        // P(U_{k,m-1} <= u), stored as (min, max) of the sizes; past its half by symmetry.
        const std::size_t bk = std::min(k, m - 1), bm = std::max(k, m - 1);
        const std::size_t btotal = bk * bm, bhalf = btotal / 2;
        const double* b = bk == 0 ? nullptr : table(bk, bm);
        for (std::size_t u = 0; u <= half; ++u) {
          const double fb = bk == 0 || u >= btotal ? 1.0
                            : u <= bhalf           ? b[u]
                                                   : 1 - b[btotal - u - 1];
          t[u] += wb * fb;
        }
      }
  }

  // P(U_{k,m} <= u) for k, m <= small_side, any u.
  double at(std::size_t k, std::size_t m, std::int64_t u) const {
    if (k > m) std::swap(k, m);
    if (u < 0) return 0;
    const std::int64_t total = static_cast<std::int64_t>(k * m);
    if (k == 0 || u >= total) return 1;
    const double* t = cdf_.data() + offset_[k * (small_side + 1) + m];
    return u <= total / 2 ? t[u] : 1 - t[total - u - 1];
  }

 private:
  double* table(std::size_t k, std::size_t m) {
    return cdf_.data() + offset_[k * (small_side + 1) + m];
  }

  std::vector<std::size_t> offset_;
  std::vector<double> cdf_;
};

const small_tables& small() {
  static const small_tables tables;  // thread-safe initialisation
  return tables;
}

// The per-pair tables, least recently used first out. A change-point search revisits most of the
// pairs it needs (about 1.1e6 numbers' worth at 10^5 readings, 1.9e6 at 10^6); emptying the whole
// cache when it filled (as before) rebuilt them all, and a fixed budget large enough for 10^6
// readings let a series of 10^5 keep 9 MB. The budget is the largest any caller has asked for
// (rank_sum_options::cache_cells), so a process that analyses only short series stays small.
struct table_cache {
  using entry = std::pair<std::uint64_t, std::shared_ptr<const table>>;
  std::mutex mutex;
  std::list<entry> order;  // most recently used first
  std::unordered_map<std::uint64_t, std::list<entry>::iterator> where;
  std::uint64_t cells = 0;
  std::uint64_t budget = rank_sum_default_cache_cells;
};

table_cache& cache() {
  static table_cache c;
  return c;
}

std::shared_ptr<const table> half_table(std::size_t k, std::size_t m, std::uint64_t budget) {
  const std::uint64_t key = (static_cast<std::uint64_t>(k) << 32) | m;
  table_cache& c = cache();
  {
    std::lock_guard lock(c.mutex);
    c.budget = std::max(c.budget, budget);
    if (auto it = c.where.find(key); it != c.where.end()) {
      c.order.splice(c.order.begin(), c.order, it->second);
      return it->second->second;
    }
  }
  auto t = build_half_table(k, m);  // outside the lock: other threads keep reading
  std::lock_guard lock(c.mutex);
  if (auto it = c.where.find(key); it != c.where.end()) return it->second->second;
  // Readers hold shared_ptrs, so dropping an entry under them is safe.
  while (!c.order.empty() && c.cells + t->size() > c.budget) {
    c.cells -= c.order.back().second->size();
    c.where.erase(c.order.back().first);
    c.order.pop_back();
  }
  c.order.emplace_front(key, t);
  c.where.emplace(key, c.order.begin());
  c.cells += t->size();
  return t;
}

// P(U <= v) for k <= m and v <= km/2.
double lower_cdf(std::size_t k, std::size_t m, std::uint64_t v, std::uint64_t budget) {
  if (m <= small_side) return small().at(k, m, static_cast<std::int64_t>(v));
  const std::uint64_t cells = static_cast<std::uint64_t>(k) * m;
  if (cells <= rank_sum_cached_cells) {
    const auto t = half_table(k, m, budget);
    return v >= t->first ? t->cdf[v - t->first] : lower_cdf_upto(k, m, v).back();
  }
  if (static_cast<long double>(k) * static_cast<long double>(v + 1) > 4e9L)
    throw std::length_error("rank_sum: exact distribution for " + std::to_string(k) + " and " +
                            std::to_string(m) + " values at U = " + std::to_string(v) +
                            " is too costly; merge the values into fewer subsession means");
  const std::vector<long double> pmf = lower_pmf<long double>(k, m, v);
  long double acc = 0;
  for (long double p : pmf) acc += p;
  return static_cast<double>(std::min(acc, 1.0L));
}

std::pair<std::size_t, std::size_t> ordered(std::size_t k, std::size_t m) {
  return k <= m ? std::pair{k, m} : std::pair{m, k};
}

std::uint64_t cells_of(std::size_t k, std::size_t m) {
  if (k != 0 && m > std::numeric_limits<std::uint64_t>::max() / k)
    throw std::length_error("rank_sum: k m overflows");
  return static_cast<std::uint64_t>(k) * m;
}

}  // namespace

double rank_sum_cdf(std::size_t k0, std::size_t m0, std::uint64_t u) {
  const auto [k, m] = ordered(k0, m0);  // U for (k, m) and for (m, k) have one distribution
  if (k == 0) return 1;
  const std::uint64_t total = cells_of(k, m);
  if (u >= total) return 1;
  const std::uint64_t half = total / 2;
  const std::uint64_t budget = rank_sum_default_cache_cells;
  if (u <= half) return lower_cdf(k, m, u, budget);
  // P(U <= u) = 1 - P(U >= u + 1) = 1 - P(U <= total - u - 1) by the symmetry U <-> km - U
  return 1 - lower_cdf(k, m, total - u - 1, budget);
}

namespace detail {

double rank_sum_p_cached(std::size_t k0, std::size_t m0, std::uint64_t u, std::uint64_t budget) {
  const auto [k, m] = ordered(k0, m0);
  if (k == 0) return 1;
  const std::uint64_t total = cells_of(k, m);
  if (u > total) throw std::invalid_argument("rank_sum_p: U exceeds k m");
  const std::uint64_t v = std::min(u, total - u);
  return std::min(1.0, 2 * lower_cdf(k, m, v, budget));
}

}  // namespace detail

double rank_sum_p(std::size_t k, std::size_t m, std::uint64_t u) {
  return detail::rank_sum_p_cached(k, m, u, rank_sum_default_cache_cells);
}

double rank_sum_p_floor(std::size_t k0, std::size_t m0) {
  const auto [k, m] = ordered(k0, m0);
  // C(k+m, k) = prod_{i=1..k} (m+i)/i, in logs so that no size overflows
  long double log_c = 0;
  for (std::size_t i = 1; i <= k; ++i)
    log_c += std::log(static_cast<long double>(m + i) / static_cast<long double>(i));
  return static_cast<double>(std::min(1.0L, 2 * std::exp(-log_c)));
}

}  // namespace mcpilot
