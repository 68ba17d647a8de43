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
  double alpha_half_width = 0;      // t*_{h-2} SE(alpha), SE = sigma sqrt(1/h + wbar^2 / Sww)
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
  // fit_wps_stable: the rounds left out as too short to hold a stable phase, and the work amount
  // below which they were (0: none left out).
  std::size_t excluded_rounds = 0;
  double work_cutoff = 0;
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

// The seed's exclusion of rounds too short to contain a stable phase, on top of
// fit_wps_subsessions. An intercept alpha < 0 says that short rounds ran faster per unit of work
// than the stable rate: their warm-up or cool-down did work that the line does not describe.
// While the fit's alpha is below 0 with its whole interval, the rounds whose work amount has a
// fitted duration below |alpha| (w < -2 alpha / beta) are left out and the rest refitted, the
// cut-off only growing, until it excludes no more (Pilot iterates the same way on the rounds'
// measured durations; the cut is on the work amount here because choosing rounds by their
// measured duration would bias the slope, and choosing by the regressor does not). When the
// rounds above a cut cannot be fitted (too few, or no subsession size qualifies) there is no
// fit: the one that holds the short rounds is biased. Without a significant negative alpha this
// is fit_wps_subsessions. O(h log h) per refit, at most 16 refits.
std::optional<wps_fit> fit_wps_stable(std::span<const double> work,
                                      std::span<const double> duration, double confidence,
                                      double autocorrelation_limit);

}  // namespace mcpilot
