// Fisher's exact test by its definition, every table of the support weighed: R's dnhyper,
// normalised by the largest log-weight, and R's two-sided rule (the tables at most 1 + 1e-7 times
// as likely as the observed one). The log-factorials are lgamma's, as the library's are (its
// table holds lgamma's own values), so the library's sums can be checked against these bit for
// bit (tests/unit/fisher_exact_test.cpp) and timed against them (tests/perf/rank_test_parts.cpp).
// O(support).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "mcpilot/stats/fisher_exact.hpp"

namespace mcpilot::test {

inline fisher_exact_result fisher_whole_support(std::uint64_t a, std::uint64_t b, std::uint64_t c,
                                                std::uint64_t d) {
  const std::uint64_t row1 = a + b, row2 = c + d, col1 = a + c;
  auto lf = [](std::uint64_t i) { return std::lgamma(static_cast<double>(i) + 1); };
  auto lc = [&](std::uint64_t n, std::uint64_t k) { return lf(n) - lf(k) - lf(n - k); };
  const std::uint64_t lo = col1 > row2 ? col1 - row2 : 0, hi = std::min(row1, col1);
  fisher_exact_result r;
  if (lo == hi) return r;
  std::vector<double> w;
  double top = -INFINITY;
  for (std::uint64_t x = lo; x <= hi; ++x) {
    w.push_back(lc(row1, x) + lc(row2, col1 - x));
    top = std::max(top, w.back());
  }
  double total = 0;
  for (double& v : w) total += v = std::exp(v - top);
  for (double& v : w) v /= total;
  const double cutoff = w[a - lo] * (1 + 1e-7);
  double two = 0, less = 0, greater = 0;
  for (std::uint64_t x = lo; x <= hi; ++x) {
    const double v = w[x - lo];
    if (v <= cutoff) two += v;
    if (x <= a) less += v;
    if (x >= a) greater += v;
  }
  r.p_two_sided = std::min(1.0, two);
  r.p_less = std::min(1.0, less);
  r.p_greater = std::min(1.0, greater);
  return r;
}

}  // namespace mcpilot::test
