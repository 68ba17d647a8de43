#include "mcpilot/stats/analysis.hpp"

#include <cmath>
#include <string>

#include "mcpilot/error.hpp"
#include "mcpilot/stats/autocorrelation.hpp"
#include "mcpilot/stats/changepoint.hpp"
#include "mcpilot/stats/interval.hpp"
#include "mcpilot/stats/proportion.hpp"
#include "mcpilot/stats/rate.hpp"
#include "mcpilot/stats/sample_size.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

namespace {

// The readings on the scale the interval is built on: reciprocals for rates, the readings
// themselves otherwise. Rejects what the kind cannot accept, naming the reading.
std::vector<double> analysed_scale(std::span<const double> x, quantity_kind kind) {
  if (kind == quantity_kind::rate) return reciprocals(x);
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i]))
      throw reading_error(i, "a reading must be a finite number, got " + std::to_string(x[i]));
  if (kind == quantity_kind::proportion) check_binary(x);
  return {x.begin(), x.end()};
}

double back_to_unit(double v, quantity_kind kind) {
  return kind == quantity_kind::rate ? 1.0 / v : v;
}

// Warm-up and cool-down removal needs two minimal segments to say anything.
constexpr std::size_t min_readings_for_detection = 60;

void finish_required(analysis& a, std::optional<std::size_t> batches, std::size_t q,
                     std::size_t min_samples) {
  if (!batches) {
    a.required_samples.reset();
    return;
  }
  a.required_samples = q * std::max(*batches, min_samples);
}

}  // namespace

analysis analyze(std::span<const double> readings, const analysis_options& opt) {
  const precision& req = opt.requirements;
  validate(req);
  analysis a;
  a.kind = opt.kind;
  a.confidence = req.confidence;
  a.n = readings.size();
  const std::vector<double> y = analysed_scale(readings, opt.kind);

  std::span<const double> stable(y);
  if (opt.remove_warmup && y.size() >= min_readings_for_detection) {
    changepoint_options co;
    co.autocorrelation_limit = req.autocorrelation_limit;
    const changepoint_result cp = detect_changepoints(y, co);
    a.warmup.applied = true;
    a.warmup.accepted = cp.accepted;
    a.warmup.changepoints = cp.changepoints;
    a.warmup.p_values = cp.p_values;
    if (!cp.accepted) {
      a.mean = back_to_unit(mean(y), opt.kind);
      a.status = "no stable phase: no segment between change-points holds more than half of the "
                 "readings";
      return a;
    }
    a.warmup.removed_begin = cp.stable_begin;
    a.warmup.removed_end = y.size() - cp.stable_end;
    stable = stable.subspan(cp.stable_begin, cp.stable_end - cp.stable_begin);
  }

  if (stable.empty()) {
    a.status = "no readings";
    return a;
  }
  a.mean = back_to_unit(mean(stable), opt.kind);
  if (stable.size() >= 2) a.autocorrelation = autocorrelation(stable);

  const auto choice = choose_subsession(stable, req.autocorrelation_limit);
  if (!choice) {
    a.status = stable.size() < 3
                   ? "not enough data: at least 3 readings are needed"
                   : "not enough data: no subsession size q <= n/3 brings the batch means' lag-1 "
                     "autocorrelation within the limit";
    return a;
  }
  const std::size_t q = choice->size, h = choice->count;
  a.subsession_size = q;
  a.subsession_count = h;
  a.subsession_autocorrelation = choice->autocorrelation;
  a.n_used = q * h;
  a.remainder = stable.size() - a.n_used;
  const std::vector<double> batches = batch_means(stable.first(a.n_used), q);
  const t_interval iv = mean_interval(batches, req.confidence);

  // sd and width on the analysed scale, for the required sample size.
  double sd = iv.sd;
  double scale_target = 0;
  switch (opt.kind) {
    case quantity_kind::ordinary: {
      a.mean = iv.mean;
      a.ci_low = iv.low();
      a.ci_high = iv.high();
      a.target_width = req.ci_abs ? *req.ci_abs : req.ci_perc * std::abs(iv.mean);
      scale_target = a.target_width;
      break;
    }
    case quantity_kind::rate: {
      const rate_bounds rb = rate_interval(iv.mean, iv.half_width);
      a.mean = 1.0 / iv.mean;
      a.ci_low = rb.low;
      a.ci_high = rb.high;
      a.target_width = req.ci_abs ? *req.ci_abs : req.ci_perc * *a.mean;
      scale_target = req.ci_abs ? reciprocal_absolute_width(*req.ci_abs, iv.mean)
                                : reciprocal_relative_width(req.ci_perc) * iv.mean;
      break;
    }
    case quantity_kind::proportion: {
      const double p = iv.mean;
      a.mean = p;
      a.target_width = req.ci_abs ? *req.ci_abs : req.ci_perc * p;
      scale_target = a.target_width;
      if (p == 0 || p == 1) {
        // No variation: a two-sided interval would have zero width and claim certainty. Report
        // the exact one-sided bound from the trials instead.
        a.one_sided = true;
        const double bound = zero_events_upper_bound(a.n_used, req.confidence);
        a.ci_low = p == 0 ? 0.0 : 1 - bound;
        a.ci_high = p == 0 ? bound : 1.0;
        a.ci_width = bound;
        a.ci_width_rel = p == 0 ? std::nullopt : std::optional<double>(bound);
        if (req.ci_abs) {
          a.required_samples = std::max(zero_events_trials_needed(*req.ci_abs, req.confidence),
                                        q * req.min_samples);
          a.converged = bound <= *req.ci_abs && h >= req.min_samples;
          a.status = a.converged ? "converged (one-sided bound)" : "needs more readings";
        } else if (p == 0) {
          a.status = "no events observed: one-sided upper bound; a width relative to a mean of 0 "
                     "cannot be reached (set an absolute width with ci)";
        } else {
          // All events: the bound on 1 - p must fall to the width, as for no events.
          a.required_samples = std::max(zero_events_trials_needed(a.target_width, req.confidence),
                                        q * req.min_samples);
          a.converged = bound <= a.target_width && h >= req.min_samples;
          a.status = a.converged ? "converged (one-sided bound)" : "needs more readings";
        }
        return a;
      }
      if (q == 1) {
        sd = std::sqrt(p * (1 - p));
        const proportion_bounds b = opt.wilson ? wilson_interval(p, h, req.confidence)
                                               : wald_interval(p, h, req.confidence);
        a.ci_low = b.low;
        a.ci_high = b.high;
      } else {
        // Correlated trials: the batch means carry the correlation, the binomial formula not.
        a.ci_low = std::max(0.0, iv.low());
        a.ci_high = std::min(1.0, iv.high());
      }
      break;
    }
  }

  if (a.ci_high) {
    a.ci_width = *a.ci_high - *a.ci_low;
    if (*a.mean != 0) a.ci_width_rel = *a.ci_width / std::abs(*a.mean);
  }
  finish_required(a, required_batches(sd, scale_target, req.confidence), q, req.min_samples);
  a.converged = a.ci_width && *a.ci_width <= a.target_width && h >= req.min_samples;
  if (a.converged)
    a.status = "converged";
  else if (!a.required_samples)
    a.status = "the required width cannot be reached: relative to a mean of 0, or beyond 10^15 "
               "subsessions";
  else
    a.status = "needs more readings";
  return a;
}

}  // namespace mcpilot
