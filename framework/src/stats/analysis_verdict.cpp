#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

#include "analysis_parts.hpp"
#include "mcpilot/stats/adjusted_interval.hpp"
#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/interval.hpp"
#include "mcpilot/stats/proportion.hpp"
#include "mcpilot/stats/rate.hpp"
#include "mcpilot/stats/sample_size.hpp"
#include "mcpilot/stats/summary.hpp"
#include "mcpilot/stats/variance_growth.hpp"

// The verdict on a quantity's batch means, once their size is chosen: the interval on the
// kind's scale (mean, harmonic mean, binomial, a constant's zero-events bound), the width target,
// the readings still needed, and converged or not. Apart from analysis.cpp, which finds the stable
// phase and the subsession size, because every way of reading a quantity (one series, streams,
// a derived function) ends here the same way.

namespace mcpilot {

namespace {

// q subsessions of h: nullopt (unreachable) when the product does not fit in std::size_t, as a
// min_samples near its 10^15 bound times a large q can.
std::optional<std::size_t> readings_needed(std::size_t q, std::size_t h) {
  if (h != 0 && q > std::numeric_limits<std::size_t>::max() / h) return std::nullopt;
  return q * h;
}

std::string format_ratio(double r) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", r);
  return text;
}

std::size_t saturating_product(std::size_t q, std::size_t h) {
  return readings_needed(q, h).value_or(std::numeric_limits<std::size_t>::max());
}

// What sizes the sample once the kind has mapped the interval to its unit: the batch means' sd
// and the whole width they must reach, both on the analysed scale (reciprocals for a rate).
struct scale_need {
  double sd = 0;
  double target = 0;
};

// The t interval of the mean, as it is. O(1).
scale_need ordinary_interval(analysis& a, const t_interval& iv, const precision& req) {
  a.mean = iv.mean;
  a.ci_low = iv.low();
  a.ci_high = iv.high();
  a.target_width = req.ci_abs ? *req.ci_abs : req.ci_perc * std::abs(iv.mean);
  return {iv.sd * iv.width_factor, a.target_width};
}

// The harmonic mean: the interval of the reciprocals' mean carried back, and the width target
// carried to the reciprocals. O(1).
scale_need rate_interval_of(analysis& a, const t_interval& iv, const precision& req) {
  const rate_bounds rb = rate_interval(iv.centre(), iv.half_width);
  a.mean = 1.0 / iv.mean;
  a.ci_low = rb.low;
  a.ci_high = rb.high;
  a.target_width = req.ci_abs ? *req.ci_abs : req.ci_perc * *a.mean;
  return {iv.sd * iv.width_factor, req.ci_abs ? reciprocal_absolute_width(*req.ci_abs, iv.mean)
                                              : reciprocal_relative_width(req.ci_perc) * iv.mean};
}

// A proportion of 0 or 1: a two-sided interval would have zero width and claim certainty, so the
// exact one-sided bound from the n_used trials, and the verdict on it. O(1).
void one_sided_proportion(analysis& a, double p, std::size_t q, std::size_t h,
                          const precision& req) {
  a.one_sided = true;
  const double bound = zero_events_upper_bound(a.n_used, req.confidence);
  a.ci_low = p == 0 ? 0.0 : 1 - bound;
  a.ci_high = p == 0 ? bound : 1.0;
  a.ci_width = bound;
  if (p == 1) a.ci_width_rel = bound;
  if (req.ci_abs) {
    a.required_samples = std::max(zero_events_trials_needed(*req.ci_abs, req.confidence),
                                  saturating_product(q, req.min_samples));
    a.converged = bound <= *req.ci_abs && h >= req.min_samples;
  } else if (p == 0) {
    // p may be anything up to the bound. Since the trials a relative width needs fall as p
    // grows, those it needs at p = bound are a lower bound on what it needs at the true p: a rare
    // event gets sampled for, and the engine can tell when no budget suffices.
    if (const auto hstar =
            required_batches(std::sqrt(bound * (1 - bound)), req.ci_perc * bound, req.confidence))
      a.required_samples = readings_needed(q, std::max(*hstar, req.min_samples));
    a.status = "no events yet: one-sided upper bound; a width relative to p needs events";
    return;
  } else {
    // All events: the bound on 1 - p must fall to the width, as for no events.
    a.required_samples = std::max(zero_events_trials_needed(a.target_width, req.confidence),
                                  saturating_product(q, req.min_samples));
    a.converged = bound <= a.target_width && h >= req.min_samples;
  }
  a.status = a.converged ? "converged (one-sided bound)" : "needs more readings";
}

// A proportion strictly between 0 and 1: the binomial interval for independent trials (q = 1),
// the batch means' interval clipped to [0, 1] for correlated ones. None when p is 0 or 1, whose
// one-sided bound has given the verdict already. O(1).
std::optional<scale_need> proportion_interval(analysis& a, const t_interval& iv, std::size_t q,
                                              std::size_t h, const analysis_options& opt) {
  const precision& req = opt.requirements;
  const double p = iv.mean;
  a.mean = p;
  a.target_width = req.ci_abs ? *req.ci_abs : req.ci_perc * p;
  if (p == 0 || p == 1) {
    one_sided_proportion(a, p, q, h, req);
    return std::nullopt;
  }
  if (q > 1) {
    // Correlated trials: the batch means carry the correlation, the binomial formula not.
    a.ci_low = std::max(0.0, iv.low());
    a.ci_high = std::min(1.0, iv.high());
    return scale_need{iv.sd * iv.width_factor, a.target_width};
  }
  // Independent trials: the binomial formulas, which carry no correlation or skewness
  // adjustment.
  a.variance_inflation = 1;
  a.subsession_skewness.reset();
  a.interval_shift = 0;
  const proportion_bounds b =
      opt.wilson ? wilson_interval(p, h, req.confidence) : wald_interval(p, h, req.confidence);
  a.ci_low = b.low;
  a.ci_high = b.high;
  return scale_need{std::sqrt(p * (1 - p)), a.target_width};
}

// Every one of the n readings is c != 0 (issue 36: a constant required quantity sampled to 10^7
// replications). A zero-width interval would claim certainty; instead the exact one-sided bound p
// on the chance that a reading differs at all (no such reading in n: 1 - (1 - conf)^(1/n), about
// 3/n), and the interval c +- p |c|, which holds the mean whenever a reading that differs lies
// within |c| of c (a time capped at the mission, a count that is rarely one less). Zero has no
// such scale: all-zero readings (no rare event yet) keep no interval. O(1).
void constant_readings(analysis& a, double c, std::size_t h, const analysis_options& opt) {
  const precision& req = opt.requirements;
  const double p = zero_events_upper_bound(a.n_used, req.confidence);
  a.constant = true;
  a.variance_inflation = 1;
  a.subsession_skewness.reset();
  a.mean = c;  // not the summed mean, which rounding moves by ulps off c (79.365..., say)
  a.target_width = req.ci_abs ? *req.ci_abs : req.ci_perc * std::abs(c);
  a.interval_shift = 0;
  a.ci_low = c - p * std::abs(c);
  a.ci_high = c + p * std::abs(c);
  a.ci_width = 2 * p * std::abs(c);
  a.ci_width_rel = 2 * p;
  a.required_samples =
      std::max(zero_events_trials_needed(a.target_width / (2 * std::abs(c)), req.confidence),
               std::max(req.min_samples, opt.min_readings));
  a.converged = *a.ci_width <= a.target_width && h >= req.min_samples &&
                a.n_used + a.remainder >= opt.min_readings;
  a.status = std::string(a.converged ? "converged (constant readings)" : "needs more readings") +
             ": every one of the " + std::to_string(a.n_used) +
             " readings is the same; the interval assumes a reading that differs would lie within "
             "|mean| of it";
}

// A verdict waits for a small skewness adjustment (docs/statistics.md): beta = B / (6 sqrt(h))
// falls as 1 / sqrt(h) for batch means of a fixed skewness B, so the sides come within
// req.max_side_ratio of each other at h = (B / (6 beta_v))^2 batch means, which the readings
// still needed then include. Only where the interval carries the adjustment (not the binomial
// one of independent trials, nor Pilot's). True when it holds the verdict back. O(1).
bool skew_holds_back(analysis& a, std::size_t h, std::size_t q, const precision& req) {
  if (!a.subsession_skewness || !std::isfinite(*a.subsession_skewness) ||
      !std::isfinite(req.max_side_ratio) || h < 2)
    return false;
  const double hh = static_cast<double>(h);
  const double beta_v = side_ratio_beta(t_critical(hh - 1, req.confidence), req.max_side_ratio);
  const double b = std::abs(*a.subsession_skewness);
  if (b / (6 * std::sqrt(hh)) <= beta_v) return false;
  a.converged = false;
  const double hv = std::ceil(b * b / (36 * beta_v * beta_v));
  if (a.required_samples) {
    const auto n = hv < static_cast<double>(max_min_samples)
                       ? readings_needed(q, static_cast<std::size_t>(hv))
                       : std::nullopt;
    a.required_samples = n ? std::optional(std::max(*a.required_samples, *n)) : std::nullopt;
  }
  return true;
}

// Held back by skew_holds_back, the interval is reported as its symmetric envelope,
// [mean - L, mean + L] with L its longer side, and a verdict may still rest on it. The envelope
// holds both the adjusted interval and the symmetric t interval, so it claims no shape from an
// adjustment too large to trust and covers at least as often as either: a session that stops at
// its limit no longer prints sides 2x apart (a shell loop at 60 s: -35.8%, +70.2%, issue 35,
// "never print an interval wider on one side than its method is valid for"). Where the envelope
// meets the width the verdict is given; otherwise the readings it would need (its width falling
// as 1 / sqrt(h)) cap those still needed. Without it a steady but skewed program (a 10-ms sleep
// on a loaded machine: -0.22%, +0.34% after 3,993 runs, against +-5% asked) never converged. Not
// where the envelope leaves the kind's range (a rate's at or below 0, a proportion's outside
// [0, 1]): the adjusted interval stays, and the status says why. O(1).
void symmetric_envelope(analysis& a, std::size_t h, std::size_t q, const analysis_options& opt) {
  if (!a.mean || !a.ci_low || !a.ci_high) return;
  const double m = *a.mean;
  const double side = std::max(m - *a.ci_low, *a.ci_high - m);
  if (!(side > 0) || !(a.target_width > 0)) return;
  if (opt.kind == quantity_kind::rate && !(m - side > 0)) return;
  if (opt.kind == quantity_kind::proportion && (m - side < 0 || m + side > 1)) return;
  const double width = 2 * side;
  const double grow = width / a.target_width;
  const double h_needed = std::ceil(static_cast<double>(h) * grow * grow);
  if (a.required_samples && h_needed < static_cast<double>(max_min_samples)) {
    const auto n = readings_needed(
        q, std::max(static_cast<std::size_t>(h_needed), opt.requirements.min_samples));
    if (n) a.required_samples = std::min(*a.required_samples, *n);
  }
  a.ci_low = m - side;
  a.ci_high = m + side;
  a.ci_width = width;
  if (m != 0) a.ci_width_rel = width / std::abs(m);
  a.symmetric_envelope = true;
  a.converged = width <= a.target_width && h >= opt.requirements.min_samples;
}

// The tail every kind shares: no interval when the batch means have not varied, else the width,
// the readings still needed and the verdict. O(h).
void verdict(analysis& a, std::span<const double> batches, std::size_t q, const scale_need& need,
             const analysis_options& opt) {
  const precision& req = opt.requirements;
  const std::size_t h = batches.size();
  // Equal batch means whose value is not a dyadic fraction (79.365..., say) still give sd > 0
  // from the rounding of their sum, and with it a zero-width interval that misses the value by a
  // few ulps: compare the batch means themselves.
  const bool constant =
      std::all_of(batches.begin(), batches.end(), [&](double b) { return b == batches[0]; });
  if (constant && q == 1 && opt.kind == quantity_kind::ordinary && batches[0] != 0 &&
      std::isfinite(batches[0])) {
    constant_readings(a, batches[0], h, opt);
    return;
  }
  if (need.sd == 0 || constant) {
    // Every batch mean is the same: a zero-width interval would claim certainty from readings that
    // simply have not varied yet (all zeros until a rare event, say). No interval, no verdict.
    // Proportions too: alternating 0/1 readings give q = 2 and every batch mean 0.5.
    a.ci_low.reset();
    a.ci_high.reset();
    // sd is also 0 when the batch means differ by so little that their squared deviations
    // underflow (rates near 1e308, whose reciprocals are near 1e-308): say which it is.
    a.status = constant
                   ? (q == 1 ? "no variation yet: every reading used is the same, so there is no "
                               "interval"
                             : "no variation yet: every subsession mean is the same, so there is "
                               "no interval")
                   : "the readings' variation underflows double arithmetic (squared "
                     "deviations round to 0): rescale the readings (e.g. another unit)";
    return;
  }
  if (a.ci_high) {  // a rate's interval may have no upper end (rate_bounds)
    a.ci_width = *a.ci_high - *a.ci_low;
    if (*a.mean != 0) a.ci_width_rel = *a.ci_width / std::abs(*a.mean);
  }
  if (const auto hstar = required_batches(need.sd, need.target, req.confidence)) {
    // On heavy-tailed batch means the sd so far is more often below the true one than above it,
    // and a run of the plain size falls short of the width most of the time (lognormal(1.5): 38%
    // reached it); grow it by the variance's own growth (variance_growth.hpp). Not for 0/1 means,
    // whose variance p(1 - p) is known from p.
    const std::size_t grown =
        opt.kind == quantity_kind::proportion
            ? *hstar
            : grown_batches_needed(*hstar, h, variance_growth_exponent(batches));
    a.required_samples = readings_needed(q, std::max(grown, req.min_samples));
  }
  if (opt.kind == quantity_kind::proportion && q == 1 && opt.wilson) {
    // Convergence is judged on Wilson's width here, so the readings needed must be Wilson's too.
    const auto n = wilson_trials_needed(*a.mean, a.target_width, req.confidence);
    a.required_samples = n ? std::optional(std::max(*n, req.min_samples)) : std::nullopt;
  }
  a.converged = a.ci_width && *a.ci_width <= a.target_width && h >= req.min_samples;
  const bool skew_too_large = skew_holds_back(a, h, q, req);
  if (skew_too_large) symmetric_envelope(a, h, q, opt);
  // The floor on stable readings (analysis_options::min_readings): a stop before it would rest on
  // a stretch too short to have met the disturbances it is meant to include.
  if (opt.min_readings > 0) {
    const std::size_t stable = a.n_used + a.remainder;
    if (a.required_samples) a.required_samples = std::max(*a.required_samples, opt.min_readings);
    if (stable < opt.min_readings) a.converged = false;
  }
  if (a.converged && a.symmetric_envelope) {
    a.status = "converged on the symmetric envelope: the interval's sides differed by more than " +
               format_ratio(req.max_side_ratio) +
               "x (skewed readings), so both are its longer side";
  } else if (a.converged) {
    a.status = "converged";
  } else if (skew_too_large && a.required_samples) {
    a.status = "needs more readings: the interval's sides differ by more than " +
               format_ratio(req.max_side_ratio) +
               "x (skewed readings), so its skewness adjustment is not yet a small correction" +
               (a.symmetric_envelope ? "; the interval shown is its symmetric envelope, both "
                                       "sides its longer one"
                                     : "");
  } else if (!a.required_samples) {
    a.unreachable = true;
    a.status =
        "the required width cannot be reached: relative to a mean of 0, or beyond 10^15 "
        "subsessions";
  } else {
    a.status = "needs more readings";
  }
}

}  // namespace

namespace detail {

// Everything after the subsession size is known: the interval on the batch means, mapped to the
// kind's scale, the width target, the readings still needed, and the verdict. `a.n_used` must
// hold the number of readings behind the batches, and `a.subsession_autocorrelation` their lag-1
// (the adjusted interval's inflation comes from it). O(h).
void conclude(analysis& a, std::span<const double> batches, std::size_t q,
              const analysis_options& opt) {
  const precision& req = opt.requirements;
  const std::size_t h = batches.size();
  a.subsession_size = q;
  a.subsession_count = h;
  a.interval = req.interval.value_or(interval_method::adjusted);
  const double lag1 = a.subsession_autocorrelation.value_or(0.0);
  if (a.interval == interval_method::adjusted) {
    a.variance_inflation = correlation_inflation(lag1, h);
    a.subsession_skewness = skewness(batches);
  }
  const t_interval iv =
      a.interval == interval_method::adjusted
          ? adjusted_mean_interval(batches, lag1, *a.subsession_skewness, req.confidence)
          : mean_interval(batches, req.confidence);
  if (iv.half_width > 0)
    a.interval_shift = (opt.kind == quantity_kind::rate ? -iv.shift : iv.shift) / iv.half_width;

  std::optional<scale_need> need;
  switch (opt.kind) {
    case quantity_kind::ordinary:
      need = ordinary_interval(a, iv, req);
      break;
    case quantity_kind::rate:
      need = rate_interval_of(a, iv, req);
      break;
    case quantity_kind::proportion:
      need = proportion_interval(a, iv, q, h, opt);
      break;
  }
  if (need) verdict(a, batches, q, *need, opt);
}

}  // namespace detail

}  // namespace mcpilot
