#pragma once
// AR(1) readings and the study of the batch means' lag-1 autocorrelation, shared by the small
// version in the default run (tests/unit/stats_simulation_test.cpp) and the full one in the
// validation label (tests/validation/stats_coverage.cpp).

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <cstddef>
#include <random>
#include <span>
#include <vector>

#include "mcpilot/stats/subsession.hpp"

namespace mcpilot::test {

// Fills x with AR(1) readings around mu with unit marginal variance, started in the stationary
// distribution so that there is no warm-up to remove.
inline void fill_ar1(std::vector<double>& x, double rho, double mu, std::mt19937_64& gen) {
  boost::random::normal_distribution<double> normal;
  const double innovation_sd = std::sqrt(1 - rho * rho);
  double v = normal(gen);
  for (double& xi : x) {
    xi = mu + v;
    v = rho * v + innovation_sd * normal(gen);
  }
}

// Lag-1 autocorrelation of batch means of size q for AR(1) with coefficient rho, exactly:
// Cov(adjacent batch sums) / Var(batch sum) = sum_{k=1}^{2q-1} min(k, 2q-k) rho^k /
// (q + 2 sum_{k=1}^{q-1} (q-k) rho^k).
inline double ar1_batch_lag1(std::size_t q, double rho) {
  double var = static_cast<double>(q), cov = 0;
  for (std::size_t k = 1; k < q; ++k) var += 2.0 * static_cast<double>(q - k) * std::pow(rho, k);
  for (std::size_t k = 1; k < 2 * q; ++k)
    cov += static_cast<double>(std::min(k, 2 * q - k)) * std::pow(rho, k);
  return cov / var;
}

struct batch_lag1_row {
  std::size_t q = 0;
  double mean = 0;       // of rho_1(q) over the series
  double exact = 0;      // ar1_batch_lag1(q, rho)
  double tolerance = 0;  // 4 standard errors plus twice the Marriott-Pope bias (1 + 3 r) / h
  bool ok() const { return std::abs(mean - exact) <= tolerance; }
};

// The mean of rho_1(q) over m AR(1) series of n readings, for each q, against the exact value.
inline std::vector<batch_lag1_row> batch_lag1_study(std::size_t n, std::span<const std::size_t> qs,
                                                    int m, double rho, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<double> sum(qs.size(), 0), sum_sq(qs.size(), 0), x(n);
  for (int s = 0; s < m; ++s) {
    fill_ar1(x, rho, 5, gen);
    for (std::size_t j = 0; j < qs.size(); ++j) {
      const double r = batch_autocorrelation(x, qs[j]);
      sum[j] += r;
      sum_sq[j] += r * r;
    }
  }
  std::vector<batch_lag1_row> rows;
  for (std::size_t j = 0; j < qs.size(); ++j) {
    batch_lag1_row row;
    row.q = qs[j];
    row.mean = sum[j] / m;
    const double sd = std::sqrt((sum_sq[j] - m * row.mean * row.mean) / (m - 1));
    row.exact = ar1_batch_lag1(qs[j], rho);
    row.tolerance = 4 * sd / std::sqrt(static_cast<double>(m)) +
                    2 * (1 + 3 * row.exact) / static_cast<double>(n / qs[j]);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace mcpilot::test
