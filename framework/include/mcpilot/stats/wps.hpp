#pragma once
// Workloads that report only a total: fit duration T against work w by ordinary least squares,
// T = alpha + beta w. The stable rate is v = 1/beta; the intercept absorbs set-up, warm-up and
// cool-down.

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace mcpilot {

// What the slope's interval beta +- delta says about the rate.
enum class wps_verdict {
  bounded,              // beta - delta > 0: the rate lies in [1/(beta + delta), 1/(beta - delta)]
  slope_contains_zero,  // beta - delta <= 0 < beta + delta: no interval (the seed's rule)
  no_growth,            // beta + delta <= 0: duration does not grow with work
};
std::string_view to_string(wps_verdict v);

struct wps_fit {
  double alpha = 0;                 // intercept, in the duration's unit
  double beta = 0;                  // slope, time per unit of work
  double beta_half_width = 0;       // delta = t*_{h-2} SE(beta)
  double rate = 0;                  // 1/beta (meaningless when beta <= 0: see verdict)
  std::optional<double> rate_low;   // 1/(beta + delta); only when verdict is bounded
  std::optional<double> rate_high;  // 1/(beta - delta); only when verdict is bounded
  wps_verdict verdict = wps_verdict::bounded;
  double residual_sd = 0;
  double naive_rate = 0;            // sum w / sum T, biased low whenever alpha > 0
  std::size_t rounds = 0;           // rounds behind the fit: subsession_size * subsessions
  std::size_t subsession_size = 1;  // consecutive rounds averaged into one point of the fit
  std::size_t subsessions = 0;      // points regressed (h); the t interval has h - 2 df
  std::optional<double> residual_autocorrelation;  // lag-1 of the raw rounds' residuals
};

// OLS on the given points. Needs >= 3 points and at least two distinct work amounts; nullopt
// otherwise ("not enough data"). Throws std::invalid_argument when the spans differ in length.
// O(h).
std::optional<wps_fit> fit_wps(std::span<const double> work, std::span<const double> duration,
                               double confidence);

// The seed's procedure for rounds that may be autocorrelated (a machine that stays slow for a
// while): fit the raw rounds, choose the smallest subsession size q whose batch means of the
// residuals have |lag-1 autocorrelation| <= autocorrelation_limit (q <= rounds / 3), and fit the
// means of q consecutive rounds' work and duration. The line holds for the means too, and the
// means' errors are nearly independent, so the slope's t interval keeps its confidence where the
// raw fit's is too narrow. nullopt when the raw fit is impossible, no q qualifies, or the
// subsessions' work amounts are all equal. O(h log h).
std::optional<wps_fit> fit_wps_subsessions(std::span<const double> work,
                                           std::span<const double> duration, double confidence,
                                           double autocorrelation_limit);

}  // namespace mcpilot
