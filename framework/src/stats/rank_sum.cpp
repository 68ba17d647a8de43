// The rank-sum test on two samples (rank_sum.hpp): U found by searching or, with ties, by their
// groups; Fisher's test on two classes when the pooled values are mostly tied; and the tie factor.
// The exact p comes from the null distribution's tables (rank_sum_distribution.cpp).
#include "mcpilot/stats/rank_sum.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "mcpilot/stats/fisher_exact.hpp"
#include "rank_sum_parts.hpp"
#include "sort_values.hpp"
#include "tie_screen.hpp"

namespace mcpilot {

namespace {

// Calls f(t) with the size of each tie group of the pooled values, in increasing order of value.
// Values that repeat a lot (quantised readings, where the tie factor is asked for most) are
// counted in a small hash table, and only the distinct values are sorted: the change-point
// search of 10^6 readings quantised to a quarter of their sd spent a fifth of its time sorting
// copies of its batch means here. Past distinct_cap distinct values, or at a NaN, all the
// values are sorted instead, as before. Either way the groups come in the same order, so a sum
// over them rounds the same. O(N) with few distinct values, O(N log N) otherwise.
template <class F>
void for_each_tie_group(std::span<const double> a, std::span<const double> b, F&& f) {
  constexpr std::size_t distinct_cap = 1024;
  constexpr std::uint32_t empty = std::numeric_limits<std::uint32_t>::max();
  const std::size_t n = a.size() + b.size();
  const std::size_t slots = std::bit_ceil(std::min(2 * n, 2 * distinct_cap));
  const auto shift = static_cast<unsigned>(64 - std::countr_zero(slots));
  std::vector<std::uint32_t> slot(slots, empty);
  std::vector<std::pair<double, std::uint64_t>> groups;  // value, count
  bool counted = true;
  for (const std::span<const double> side : {a, b}) {
    for (const double v : side) {
      if (std::isnan(v) || groups.size() > distinct_cap) {
        counted = false;
        break;
      }
      const double key = v == 0 ? 0.0 : v;
      std::size_t i = tie_screen::home(key, shift, slots - 1);
      while (slot[i] != empty && groups[slot[i]].first != key) i = (i + 1) & (slots - 1);
      if (slot[i] == empty) {
        slot[i] = static_cast<std::uint32_t>(groups.size());
        groups.emplace_back(key, 1);
      } else {
        ++groups[slot[i]].second;
      }
    }
    if (!counted) break;
  }
  if (counted && groups.size() <= distinct_cap) {
    std::sort(groups.begin(), groups.end());
    for (const auto& g : groups) f(g.second);
    return;
  }
  std::vector<double> v(a.begin(), a.end());
  v.insert(v.end(), b.begin(), b.end());
  std::sort(v.begin(), v.end());
  for (std::size_t s = 0; s < n;) {
    std::size_t e = s;
    while (e < n && v[e] == v[s]) ++e;
    f(static_cast<std::uint64_t>(e - s));
    s = e;
  }
}

// The tie groups of two samples that hold few distinct values (0/1 batch means, coarsely
// quantised readings), counted in a small hash table instead of found by sorting: on 10^6
// Bernoulli readings the change-point search spent a fifth of its time sorting such means.
// Fills g with each value's count in a and in b, in increasing order of value (-0 and +0 as one),
// and returns true; returns false as soon as a (cap + 1)th distinct value turns up. The same
// hash as for_each_tie_group's, which counts the pooled values alone and up to 1024 of them.
// O(N + cap log cap).
struct counted_groups {
  static constexpr std::size_t cap = 64;
  struct group {
    double value;
    std::uint64_t na, nb;
  };
  std::array<group, cap> g;
  std::size_t size = 0;

  bool count(std::span<const double> a, std::span<const double> b) {
    constexpr std::size_t slots = 2 * cap;
    constexpr auto shift = static_cast<unsigned>(64 - std::countr_zero(slots));
    std::array<std::uint8_t, slots> slot{};  // a group's index + 1; 0 is empty
    size = 0;
    auto tally = [&](std::span<const double> side, std::uint64_t group::*count) {
      for (const double v : side) {
        const double key = v + 0.0;  // -0 + 0 is +0
        std::size_t i = tie_screen::home(key, shift, slots - 1);
        while (slot[i] != 0 && g[slot[i] - 1].value != key) i = (i + 1) & (slots - 1);
        if (slot[i] == 0) [[unlikely]] {
          if (size == cap) return false;
          g[size] = {key, 0, 0};
          slot[i] = static_cast<std::uint8_t>(++size);
        }
        ++(g[slot[i] - 1].*count);
      }
      return true;
    };
    if (!tally(a, &group::na) || !tally(b, &group::nb)) return false;
    std::sort(g.begin(), g.begin() + static_cast<std::ptrdiff_t>(size),
              [](const group& x, const group& y) { return x.value < y.value; });
    return true;
  }

  // Writes each sample back in order, as sorting would have left it.
  void write_sorted(std::span<double> a, std::span<double> b) const {
    std::size_t i = 0, j = 0;
    for (std::size_t h = 0; h < size; ++h) {
      std::fill_n(a.begin() + static_cast<std::ptrdiff_t>(i), g[h].na, g[h].value);
      std::fill_n(b.begin() + static_cast<std::ptrdiff_t>(j), g[h].nb, g[h].value);
      i += g[h].na;
      j += g[h].nb;
    }
  }
};

// Whether a value repeats among the first four of a sample: nearly always for 0/1 or quantised
// means, never for a continuous quantity, whose tests then pay six comparisons and no attempt at
// counting.
bool repeats_early(std::span<const double> v) {
  const std::size_t n = std::min<std::size_t>(v.size(), 4);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (v[i] == v[j]) return true;
  return false;
}

}  // namespace

double rank_sum_tie_factor(std::span<const double> a, std::span<const double> b) {
  const std::size_t n = a.size() + b.size();
  if (n < 2) return 0;
  double tie_sum = 0;
  for_each_tie_group(a, b, [&](std::uint64_t count) {
    const double t = static_cast<double>(count);
    tie_sum += t * t * t - t;
  });
  const double nn = static_cast<double>(n);
  return 1 - tie_sum / (nn * nn * nn - nn);
}

bool rank_sum_mostly_tied(std::span<const double> a, std::span<const double> b, double limit) {
  const std::size_t n = a.size() + b.size();
  if (n < 2) return 0 < limit;
  tie_screen screen(n, limit);
  screen.offer(a);
  screen.offer(b);
  return screen.mostly_tied(a, b);
}

rank_sum_result rank_sum_test(std::span<const double> a, std::span<const double> b,
                              const rank_sum_options& options) {
  std::vector<double> sa(a.begin(), a.end()), sb(b.begin(), b.end());
  return rank_sum_test_in_place(sa, sb, options);
}

rank_sum_result rank_sum_test_in_place(std::span<double> sa, std::span<double> sb,
                                       const rank_sum_options& options) {
  rank_sum_result r;
  const std::size_t k = sa.size(), m = sb.size(), n = k + m;
  if (k == 0 || m == 0) return r;

  // Sort each sample and merge: each tie group of the pooled values is the run of one value in
  // both sorted samples.
  for (double x : sa)
    if (std::isnan(x)) throw std::invalid_argument("rank_sum_test: NaN value");
  for (double x : sb)
    if (std::isnan(x)) throw std::invalid_argument("rank_sum_test: NaN value");
  // Few distinct values among many: the groups by counting, and no search for U without ties.
  counted_groups counted;
  const bool by_count = (repeats_early(sa) || repeats_early(sb)) && counted.count(sa, sb);
  if (by_count) {
    counted.write_sorted(sa, sb);
  } else {
    detail::sort_values(sa);
    detail::sort_values(sb);
  }

  // Without ties (the usual case for a continuous quantity), U is the sum over a's values of the
  // b values below each, found by a binary search of b without branches on the data. The
  // searches are independent of each other, so they overlap; a merge would step on each
  // comparison in turn (a branch mispredicted about every other value, or a chain of dependent
  // loads). Any tie, within a sample or across, takes the general path below. O(k log m).
  {
    // A tie within a sample shows at once in heavily tied data (0/1 readings), and the search
    // is skipped.
    bool tied = by_count || std::adjacent_find(sa.begin(), sa.end()) != sa.end() ||
                std::adjacent_find(sb.begin(), sb.end()) != sb.end();
    std::uint64_t u = 0;
    const double* b = sb.data();
    for (std::size_t i = 0; i < k && !tied; ++i) {
      const double x = sa[i];
      const double* base = b;
      for (std::size_t len = m; len > 1;) {
        const std::size_t half = len / 2;
        base = base[half] < x ? base + half : base;
        len -= half;
      }
      const std::size_t below = static_cast<std::size_t>(base - b) + (*base < x);
      u += below;
      tied |= below < m && b[below] == x;
    }
    if (!tied && !(1 < options.tie_factor_limit)) {  // a tie factor of 1 is never below it
      r.u_min = r.u_max = r.u = u;
      r.tie_factor = 1;
      r.method = rank_sum_method::exact;
      r.p = detail::rank_sum_p_cached(k, m, u, options.cache_cells);
      return r;
    }
  }

  // Calls f(na, nb) for each tie group, in increasing order of value.
  auto for_each_group = [&](auto&& f) {
    if (by_count) {
      for (std::size_t h = 0; h < counted.size; ++h) f(counted.g[h].na, counted.g[h].nb);
      return;
    }
    for (std::size_t i = 0, j = 0; i < k || j < m;) {
      const double v = j == m || (i < k && sa[i] < sb[j]) ? sa[i] : sb[j];
      std::uint64_t na = 0, nb = 0;
      while (i < k && sa[i] == v) ++i, ++na;
      while (j < m && sb[j] == v) ++j, ++nb;
      f(na, nb);
    }
  };
  std::uint64_t b_below = 0, tie_pairs = 0, groups = 0;
  double tie_sum = 0;
  for_each_group([&](std::uint64_t na, std::uint64_t nb) {
    const std::uint64_t t = na + nb;
    r.u_min += na * b_below;
    b_below += nb;
    tie_pairs += na * nb;
    tie_sum += static_cast<double>(t) * t * t - static_cast<double>(t);
    ++groups;
  });
  r.u_max = r.u_min + tie_pairs;
  if (groups == 1) return r;  // every value equal: no evidence either way

  const double nn = static_cast<double>(n);
  r.tie_factor = 1 - tie_sum / (nn * nn * nn - nn);
  if (r.tie_factor < options.tie_factor_limit) {
    // The cut after group g puts L = (values in groups 0..g) in the lower class; take the cut
    // with L nearest n/2 (the first such; the last group cannot be cut after).
    std::uint64_t best_lower = 0, best_a = 0, lower = 0, a_lower = 0, g = 0;
    std::uint64_t best_gap = std::numeric_limits<std::uint64_t>::max();
    for_each_group([&](std::uint64_t na, std::uint64_t nb) {
      if (++g == groups) return;
      lower += na + nb;
      a_lower += na;
      const std::uint64_t gap = 2 * lower > n ? 2 * lower - n : n - 2 * lower;
      if (gap < best_gap) {
        best_gap = gap;
        best_lower = lower;
        best_a = a_lower;
      }
    });
    r.method = rank_sum_method::fisher_classes;
    r.a_lower = best_a;
    r.a_higher = k - best_a;
    r.b_lower = best_lower - best_a;
    r.b_higher = m - r.b_lower;
    r.p = fisher_exact(r.a_lower, r.a_higher, r.b_lower, r.b_higher).p_two_sided;
    return r;
  }

  // Least favourable ordering of the tied values: the achievable U nearest km/2. Every integer
  // in [u_min, u_max] is achievable, since a tie group with na and nb values can contribute any
  // number of inversions from 0 to na nb.
  const std::uint64_t middle = static_cast<std::uint64_t>(k) * m / 2;
  r.u = std::clamp(middle, r.u_min, r.u_max);
  r.method = r.u_min == r.u_max ? rank_sum_method::exact : rank_sum_method::exact_least_favourable;
  r.p = detail::rank_sum_p_cached(k, m, r.u, options.cache_cells);
  return r;
}

}  // namespace mcpilot
