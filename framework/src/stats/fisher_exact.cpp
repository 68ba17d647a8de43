#include "mcpilot/stats/fisher_exact.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace mcpilot {

namespace {

// lgamma(i + 1) = log i!. lgamma keeps ~1e-15 relative accuracy in the differences that matter
// after the largest log-probability is subtracted. The change-point search runs this test
// thousands of times on 0/1 means, each over a support of up to thousands of tables, and lgamma
// took a fifth of its time on such readings; so the first 2^16 values are kept in a table (512 KB,
// built at the first call). It holds lgamma's own values: the p-values are the same to the last
// bit either way.
double log_factorial(std::uint64_t i) {
  static const std::vector<double> table = [] {
    std::vector<double> t(std::size_t{1} << 16);
    for (std::size_t j = 0; j < t.size(); ++j) t[j] = std::lgamma(static_cast<double>(j) + 1);
    return t;
  }();
  return i < table.size() ? table[i] : std::lgamma(static_cast<double>(i) + 1);
}

// log C(n, k), n >= k, for the hypergeometric weights, as lgamma(n + 1) - lgamma(k + 1) -
// lgamma(n - k + 1) in that order.
double log_choose(std::uint64_t n, std::uint64_t k) {
  return log_factorial(n) - log_factorial(k) - log_factorial(n - k);
}

}  // namespace

fisher_exact_result fisher_exact(std::uint64_t a, std::uint64_t b, std::uint64_t c,
                                 std::uint64_t d) {
  const std::uint64_t row1 = a + b, row2 = c + d, col1 = a + c, n = row1 + row2;
  fisher_exact_result r;
  if (n == 0) return r;
  const std::uint64_t lo = col1 > row2 ? col1 - row2 : 0;
  const std::uint64_t hi = std::min(row1, col1);
  if (lo == hi) return r;  // margins fix the table: every p is 1

  // Only the tables near the mode carry weight: exp(logp - top) is exactly 0 below -745.2, and
  // a test on the 0/1 means of a long segment has a support of thousands of tables, four
  // log-factorials each (lgamma past the table), of which a few hundred are not 0. The weights
  // fall away from the mode on both sides (the hypergeometric is log-concave; rounding moves
  // logp by far less than 1), so the walk out from the mode stops where logp is `far` below the
  // largest seen, and every table beyond would have weighed exactly 0. The sums below add the
  // same non-zero terms in the same order, so the p-values are those of summing the whole
  // support, to the last bit. O(width of the weighty range), at most O(support).
  constexpr double far = 760;
  auto log_weight = [&](std::uint64_t x) {
    return log_choose(row1, x) + log_choose(row2, col1 - x);
  };
  const auto mode =
      std::clamp<std::uint64_t>(static_cast<std::uint64_t>((static_cast<long double>(row1) + 1) *
                                                           (static_cast<long double>(col1) + 1) /
                                                           (static_cast<long double>(n) + 2)),
                                lo, hi);
  // logp from the walk down (in decreasing x, reversed after), the mode, then the walk up; the
  // probabilities are computed over it in place.
  const double at_mode = log_weight(mode);
  double top = at_mode;
  std::vector<double> logp;
  for (std::uint64_t x = mode; x > lo;) {
    const double v = log_weight(--x);
    logp.push_back(v);
    top = std::max(top, v);
    if (v < top - far) break;
  }
  const std::uint64_t first = mode - logp.size();
  std::reverse(logp.begin(), logp.end());
  logp.push_back(at_mode);
  for (std::uint64_t x = mode; x < hi;) {
    const double v = log_weight(++x);
    logp.push_back(v);
    top = std::max(top, v);
    if (v < top - far) break;
  }

  // Normalise as R's dnhyper does, so that the tolerance compares like with like.
  std::vector<double>& prob = logp;
  double total = 0;
  for (double& v : prob) total += v = std::exp(v - top);
  for (double& v : prob) v /= total;

  // The observed table may lie beyond the range, where its weight is 0.
  const std::uint64_t last = first + prob.size() - 1;
  const double p_obs = a < first || a > last ? 0.0 : prob[a - first];
  const double cutoff = p_obs * (1 + 1e-7);
  double two = 0, less = 0, greater = 0;
  for (std::size_t i = 0; i < prob.size(); ++i) {
    if (prob[i] <= cutoff) two += prob[i];
    if (first + i <= a) less += prob[i];
    if (first + i >= a) greater += prob[i];
  }
  r.p_two_sided = std::min(1.0, two);
  r.p_less = std::min(1.0, less);
  r.p_greater = std::min(1.0, greater);
  return r;
}

}  // namespace mcpilot
