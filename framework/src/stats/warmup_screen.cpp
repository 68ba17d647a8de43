#include "mcpilot/stats/warmup_screen.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "mcpilot/stats/autocorrelation_time.hpp"
#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

warmup_screen_result screen_short_warmup(std::span<const double> x,
                                         const warmup_screen_options& opt) {
  warmup_screen_result r;
  const std::size_t n = x.size();
  const std::size_t k = std::min(opt.max_length, n / std::max<std::size_t>(opt.max_share, 2));
  if (k < opt.min_length || k < 1) return r;
  const std::size_t reference =
      std::min(n - k, std::max(opt.reference_ratio * k, opt.min_reference));
  const std::span<const double> ref = x.subspan(k, reference);
  const double ref_mean = mean(ref), ref_var = variance(ref);
  if (!(ref_var > 0)) return r;
  // Below 1 (negative correlation) the bound s^2 tau / d would understate the first readings'
  // variance for small d, whose mean does not yet average the alternation away.
  r.tau = std::max(1.0, integrated_autocorrelation_time(ref).tau);
  r.reference = reference;
  const double rr = static_cast<double>(reference);
  // The reading farthest from the reference is left out of each start's mean: one descheduled
  // run among the first few moves the mean of five by a fifth of its excess, and would pass for
  // a warm-up; a real warm-up loses one of its readings and stays as far out.
  double sum = 0, best = 0, far = x[0];
  std::size_t best_d = 0;
  for (std::size_t d = 1; d <= k; ++d) {
    sum += x[d - 1];
    if (std::abs(x[d - 1] - ref_mean) > std::abs(far - ref_mean)) far = x[d - 1];
    if (d < opt.min_length) continue;
    const double dd = static_cast<double>(d - 1);
    const double z = ((sum - far) / dd - ref_mean) / std::sqrt(ref_var * r.tau * (1 / dd + 1 / rr));
    if (std::abs(z) > std::abs(best)) {
      best = z;
      best_d = d;
    }
  }
  const double tried = static_cast<double>(k - opt.min_length + 1);
  r.z = best;
  r.threshold = normal_quantile(1 - opt.alpha / (2 * tried));
  r.p_value = std::min(1.0, 2 * normal_cdf(-std::abs(best)) * tried);
  if (best_d == 0 || !(std::abs(best) > r.threshold)) return r;
  std::vector<double> sorted(ref.begin(), ref.end());
  const auto mid = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
  std::nth_element(sorted.begin(), mid, sorted.end());
  const double median = *mid;
  std::size_t same_side = 0;
  for (std::size_t i = 0; i < best_d; ++i)
    if (best > 0 ? x[i] > median : x[i] < median) ++same_side;
  if (static_cast<double>(same_side) < opt.majority * static_cast<double>(best_d)) return r;
  r.length = best_d;
  return r;
}

}  // namespace mcpilot
