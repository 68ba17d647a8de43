// The exact loss probability of a group without repair, which the rare-event tests of
// storage.group check importance sampling against: more than m of n independent disks with
// Weibull(shape, scale) lifetimes failed by time t,
//   sum_{j>m} C(n,j) F^j (1-F)^(n-j),  F(t) = 1 - exp(-(t/scale)^shape).
// Used by tests/unit/storage_rare_test.cpp (which checks it against the rare-event issue's values,
// also computed in Python with exact binomial coefficients) and
// tests/validation/storage_rare.cpp. O(n).
#pragma once

#include <cmath>

namespace mcpilot::test {

inline double weibull_binomial_tail(int n, int m, double t, double shape, double scale) {
  const double f = -std::expm1(-std::pow(t / scale, shape));
  double p = 0;
  for (int j = m + 1; j <= n; ++j)
    p += std::exp(std::lgamma(n + 1.0) - std::lgamma(j + 1.0) - std::lgamma(n - j + 1.0)) *
         std::pow(f, j) * std::pow(1 - f, n - j);
  return p;
}

}  // namespace mcpilot::test
