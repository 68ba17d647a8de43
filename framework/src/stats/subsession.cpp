#include "mcpilot/stats/subsession.hpp"

#include <cmath>
#include <limits>

#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

namespace {

// Prefix sums of the readings less their overall mean. Centering first keeps the batch sums
// small, so differences of prefix sums lose no digits even for 10^6 readings with a large offset.
struct centered_prefix {
  double center = 0;
  std::vector<long double> sum;  // sum[i] = sum_{j<i} (x_j - center)

  explicit centered_prefix(std::span<const double> x) : center(mean(x)), sum(x.size() + 1, 0) {
    for (std::size_t i = 0; i < x.size(); ++i) sum[i + 1] = sum[i] + (x[i] - center);
  }

  // rho_1(q) about the mean of the h q readings used. O(h).
  double batch_autocorrelation(std::size_t q) const {
    const std::size_t h = (sum.size() - 1) / q;
    if (h < 2) return std::numeric_limits<double>::quiet_NaN();
    const long double qq = static_cast<long double>(q);
    const long double used_mean = sum[h * q] / (qq * static_cast<long double>(h));
    long double num = 0, den = 0, prev = 0;
    for (std::size_t j = 0; j < h; ++j) {
      const long double y = (sum[(j + 1) * q] - sum[j * q]) / qq - used_mean;
      den += y * y;
      if (j > 0) num += prev * y;
      prev = y;
    }
    if (den == 0) return 0;
    return static_cast<double>(num / den);
  }
};

}  // namespace

std::vector<double> batch_means(std::span<const double> x, std::size_t q) {
  std::vector<double> out;
  if (q == 0) return out;
  const std::size_t h = x.size() / q;
  out.reserve(h);
  for (std::size_t j = 0; j < h; ++j) out.push_back(mean(x.subspan(j * q, q)));
  return out;
}

double batch_autocorrelation(std::span<const double> x, std::size_t q) {
  if (q == 0 || x.size() / q < 2) return std::numeric_limits<double>::quiet_NaN();
  return centered_prefix(x).batch_autocorrelation(q);
}

std::optional<subsession_choice> choose_subsession(std::span<const double> x, double limit) {
  const std::size_t n = x.size();
  if (n < 3) return std::nullopt;
  const centered_prefix prefix(x);
  for (std::size_t q = 1; q <= n / 3; ++q) {
    const double rho = prefix.batch_autocorrelation(q);
    if (std::abs(rho) <= limit) return subsession_choice{q, n / q, rho};
  }
  return std::nullopt;
}

}  // namespace mcpilot
