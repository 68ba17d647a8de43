#include "mcpilot/stats/welch.hpp"

#include <cmath>
#include <stdexcept>

#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

sample_moments moments(std::span<const double> x) {
  return {mean(x), variance(x), static_cast<double>(x.size())};
}

welch_result welch_test(const sample_moments& a, const sample_moments& b, double confidence) {
  if (a.count < 2 || b.count < 2)
    throw std::invalid_argument("Welch's test needs at least 2 values on each side");
  const double va = a.variance / a.count, vb = b.variance / b.count;
  welch_result r;
  r.diff = a.mean - b.mean;
  r.se = std::sqrt(va + vb);
  if (!(r.se > 0)) throw std::invalid_argument("Welch's test needs some variation in the values");
  r.t = r.diff / r.se;
  r.df = (va + vb) * (va + vb) / (va * va / (a.count - 1) + vb * vb / (b.count - 1));
  r.p = 2 * t_cdf(r.df, -std::abs(r.t));
  const double half = t_critical(r.df, confidence) * r.se;
  r.diff_low = r.diff - half;
  r.diff_high = r.diff + half;
  return r;
}

ratio_interval welch_ratio(const sample_moments& a, const sample_moments& b,
                           const welch_result& w) {
  const double tstar = w.se > 0 ? (w.diff_high - w.diff) / w.se : 0;
  const double rel_se = std::sqrt(a.variance / (a.count * a.mean * a.mean) +
                                  b.variance / (b.count * b.mean * b.mean));
  const double ratio = b.mean / a.mean;
  return {ratio, ratio * (1 - tstar * rel_se), ratio * (1 + tstar * rel_se)};
}

bool separated(const sample_moments& a, const sample_moments& b, double level) {
  const welch_result w = welch_test(a, b, 1 - level);
  const ratio_interval r = welch_ratio(a, b, w);
  return w.p <= level && (r.low > 1 || r.high < 1);
}

std::optional<double> required_b(const sample_moments& a, const sample_moments& b,
                                 double confidence, double power) {
  const welch_result w = welch_test(a, b, confidence);
  double t_star = t_critical(w.df, confidence);
  if (power > 0) t_star += normal_quantile(power);
  const double denom = std::pow(w.diff / t_star, 2) - a.variance / a.count;
  if (!(denom > 0)) return std::nullopt;
  return std::ceil(b.variance / denom);
}

}  // namespace mcpilot
