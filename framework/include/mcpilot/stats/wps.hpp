#pragma once
// Workloads that report only a total: fit duration T against work w by ordinary least squares,
// T = alpha + beta w. The stable rate is v = 1/beta; the intercept absorbs set-up, warm-up and
// cool-down.

#include <cstddef>
#include <optional>
#include <span>

namespace mcpilot {

struct wps_fit {
  double alpha = 0;                 // intercept, in the duration's unit
  double beta = 0;                  // slope, time per unit of work
  double beta_half_width = 0;       // delta = t*_{h-2} SE(beta)
  double rate = 0;                  // 1/beta
  std::optional<double> rate_low;   // 1/(beta + delta); none when beta + delta <= 0
  std::optional<double> rate_high;  // 1/(beta - delta); none when beta - delta <= 0
  double residual_sd = 0;
  double naive_rate = 0;  // sum w / sum T, biased low whenever alpha > 0
  std::size_t rounds = 0;
};

// Needs >= 3 rounds and at least two distinct work amounts; nullopt otherwise ("not enough
// data"). Throws std::invalid_argument when the spans differ in length. O(h).
std::optional<wps_fit> fit_wps(std::span<const double> work, std::span<const double> duration,
                               double confidence);

}  // namespace mcpilot
