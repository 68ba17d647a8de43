#include "mcpilot/stats/wps.hpp"

#include <cmath>
#include <stdexcept>

#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

std::optional<wps_fit> fit_wps(std::span<const double> work, std::span<const double> duration,
                               double confidence) {
  if (work.size() != duration.size())
    throw std::invalid_argument("work and duration need the same number of rounds");
  const std::size_t h = work.size();
  if (h < 3) return std::nullopt;
  const double wbar = mean(work), tbar = mean(duration);
  long double sww = 0, swt = 0, sum_w = 0, sum_t = 0;
  for (std::size_t j = 0; j < h; ++j) {
    sww += (work[j] - wbar) * (work[j] - wbar);
    swt += (work[j] - wbar) * (duration[j] - tbar);
    sum_w += work[j];
    sum_t += duration[j];
  }
  if (!(sww > 0)) return std::nullopt;  // one work amount: the slope is not identified
  wps_fit f;
  f.rounds = h;
  f.beta = static_cast<double>(swt / sww);
  f.alpha = tbar - f.beta * wbar;
  long double rss = 0;
  for (std::size_t j = 0; j < h; ++j) {
    const double r = duration[j] - f.alpha - f.beta * work[j];
    rss += r * r;
  }
  const double sigma2 = static_cast<double>(rss / static_cast<long double>(h - 2));
  f.residual_sd = std::sqrt(sigma2);
  const double se = std::sqrt(sigma2 / static_cast<double>(sww));
  f.beta_half_width = t_critical(static_cast<double>(h - 2), confidence) * se;
  f.rate = 1.0 / f.beta;
  if (f.beta + f.beta_half_width > 0) f.rate_low = 1.0 / (f.beta + f.beta_half_width);
  if (f.beta - f.beta_half_width > 0) f.rate_high = 1.0 / (f.beta - f.beta_half_width);
  f.naive_rate = static_cast<double>(sum_w / sum_t);
  return f;
}

}  // namespace mcpilot
