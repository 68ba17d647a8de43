#include "mcpilot/stats/wps.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "mcpilot/stats/autocorrelation.hpp"
#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

std::string_view to_string(wps_verdict v) {
  switch (v) {
    case wps_verdict::slope_contains_zero:
      return "the slope's interval contains 0";
    case wps_verdict::no_growth:
      return "duration does not grow with work";
    case wps_verdict::bounded:
      break;
  }
  return "bounded";
}

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
  f.subsessions = h;
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
  const double tstar = t_critical(static_cast<double>(h - 2), confidence);
  f.beta_half_width = tstar * se;
  f.alpha_half_width =
      tstar *
      std::sqrt(sigma2 * (1.0 / static_cast<double>(h) + wbar * wbar / static_cast<double>(sww)));
  f.rate = 1.0 / f.beta;
  // The seed: an interval for the rate only when beta - delta > 0. Otherwise inverting the
  // endpoints would give bounds on the wrong side of the estimate (a negative slope gave
  // "rate -418 [792, unbounded)").
  if (f.beta - f.beta_half_width > 0) {
    f.verdict = wps_verdict::bounded;
    f.rate_low = 1.0 / (f.beta + f.beta_half_width);
    f.rate_high = 1.0 / (f.beta - f.beta_half_width);
  } else {
    f.verdict =
        f.beta + f.beta_half_width > 0 ? wps_verdict::slope_contains_zero : wps_verdict::no_growth;
  }
  f.naive_rate = static_cast<double>(sum_w / sum_t);
  return f;
}

std::optional<wps_fit> fit_wps_subsessions(std::span<const double> work,
                                           std::span<const double> duration, double confidence,
                                           double autocorrelation_limit) {
  const auto raw = fit_wps(work, duration, confidence);
  if (!raw) return std::nullopt;
  std::vector<double> residuals(work.size());
  for (std::size_t j = 0; j < work.size(); ++j)
    residuals[j] = duration[j] - raw->alpha - raw->beta * work[j];
  const double rho = autocorrelation(residuals);
  const auto choice = choose_subsession(residuals, autocorrelation_limit);
  if (!choice) return std::nullopt;
  if (choice->size == 1) {
    wps_fit f = *raw;
    f.residual_autocorrelation = rho;
    return f;
  }
  const std::size_t q = choice->size;
  const std::size_t used = q * choice->count;
  const std::vector<double> w = batch_means(work.first(used), q);
  const std::vector<double> t = batch_means(duration.first(used), q);
  auto f = fit_wps(w, t, confidence);
  if (!f) return std::nullopt;
  f->subsession_size = q;
  f->rounds = used;
  f->residual_autocorrelation = rho;
  // Total work over total time of the rounds used, as for the raw fit.
  double sum_w = 0, sum_t = 0;
  for (std::size_t j = 0; j < used; ++j) {
    sum_w += work[j];
    sum_t += duration[j];
  }
  f->naive_rate = sum_w / sum_t;
  return f;
}

std::optional<wps_fit> fit_wps_stable(std::span<const double> work,
                                      std::span<const double> duration, double confidence,
                                      double autocorrelation_limit) {
  auto f = fit_wps_subsessions(work, duration, confidence, autocorrelation_limit);
  double cut = 0;
  std::size_t excluded = 0;
  std::vector<double> w, t;
  for (int refit = 0; refit < 16 && f; ++refit) {
    if (!(f->alpha + f->alpha_half_width < 0) || !(f->beta > 0)) break;
    const double c = std::max(cut, -2 * f->alpha / f->beta);
    w.clear();
    t.clear();
    for (std::size_t j = 0; j < work.size(); ++j)
      if (work[j] >= c) {
        w.push_back(work[j]);
        t.push_back(duration[j]);
      }
    if (work.size() - w.size() == excluded) break;  // the cut leaves out no more rounds
    auto g = fit_wps_subsessions(w, t, confidence, autocorrelation_limit);
    // The rounds below the cut bias the line, so the fit that holds them is no answer either:
    // none until the rounds above it can be fitted (a session runs more; 1.4% of the bench-wps
    // study's sessions had stopped on the biased fit, and every one of them missed).
    if (!g) return std::nullopt;
    f = g;
    cut = c;
    excluded = work.size() - w.size();
  }
  if (f) {
    f->excluded_rounds = excluded;
    f->work_cutoff = cut;
  }
  return f;
}

}  // namespace mcpilot
