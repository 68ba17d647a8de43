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

  std::vector<double> logp(hi - lo + 1);
  double top = -INFINITY;
  for (std::uint64_t x = lo; x <= hi; ++x) {
    const double v = log_choose(row1, x) + log_choose(row2, col1 - x);
    logp[x - lo] = v;
    top = std::max(top, v);
  }
  // Normalise as R's dnhyper does, so that the tolerance compares like with like.
  std::vector<double> prob(logp.size());
  double total = 0;
  for (std::size_t i = 0; i < prob.size(); ++i) total += prob[i] = std::exp(logp[i] - top);
  for (double& v : prob) v /= total;

  const std::size_t obs = a - lo;
  const double cutoff = prob[obs] * (1 + 1e-7);
  double two = 0, less = 0, greater = 0;
  for (std::size_t i = 0; i < prob.size(); ++i) {
    if (prob[i] <= cutoff) two += prob[i];
    if (i <= obs) less += prob[i];
    if (i >= obs) greater += prob[i];
  }
  r.p_two_sided = std::min(1.0, two);
  r.p_less = std::min(1.0, less);
  r.p_greater = std::min(1.0, greater);
  return r;
}

}  // namespace mcpilot
