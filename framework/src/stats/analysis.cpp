#include "mcpilot/stats/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "mcpilot/error.hpp"
#include "mcpilot/number_text.hpp"
#include "mcpilot/stats/adjusted_interval.hpp"
#include "mcpilot/stats/autocorrelation.hpp"
#include "mcpilot/stats/changepoint.hpp"
#include "mcpilot/stats/interval.hpp"
#include "mcpilot/stats/magnitude.hpp"
#include "mcpilot/stats/proportion.hpp"
#include "mcpilot/stats/rate.hpp"
#include "mcpilot/stats/sample_size.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "mcpilot/stats/summary.hpp"
#include "stream_phase.hpp"

namespace mcpilot {

namespace {

double back_to_unit(double v, quantity_kind kind) {
  return kind == quantity_kind::rate ? 1.0 / v : v;
}

// q subsessions of h: nullopt (unreachable) when the product does not fit in std::size_t, as a
// min_samples near its 10^15 bound times a large q can.
std::optional<std::size_t> readings_needed(std::size_t q, std::size_t h) {
  if (h != 0 && q > std::numeric_limits<std::size_t>::max() / h) return std::nullopt;
  return q * h;
}

std::size_t saturating_product(std::size_t q, std::size_t h) {
  return readings_needed(q, h).value_or(std::numeric_limits<std::size_t>::max());
}

constexpr const char* no_stable_phase =
    "no stable phase: no segment between change-points holds more than half of the readings";
constexpr const char* no_subsession =
    "not enough data: no subsession size q <= n/3 brings the batch means' lag-1 autocorrelation "
    "within the limit";

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
  if (const auto hstar = required_batches(need.sd, need.target, req.confidence))
    a.required_samples = readings_needed(q, std::max(*hstar, req.min_samples));
  if (opt.kind == quantity_kind::proportion && q == 1 && opt.wilson) {
    // Convergence is judged on Wilson's width here, so the readings needed must be Wilson's too.
    const auto n = wilson_trials_needed(*a.mean, a.target_width, req.confidence);
    a.required_samples = n ? std::optional(std::max(*n, req.min_samples)) : std::nullopt;
  }
  a.converged = a.ci_width && *a.ci_width <= a.target_width && h >= req.min_samples;
  // The floor on stable readings (analysis_options::min_readings): a stop before it would rest on
  // a stretch too short to have met the disturbances it is meant to include.
  if (opt.min_readings > 0) {
    const std::size_t stable = a.n_used + a.remainder;
    if (a.required_samples) a.required_samples = std::max(*a.required_samples, opt.min_readings);
    if (stable < opt.min_readings) a.converged = false;
  }
  if (a.converged) {
    a.status = "converged";
  } else if (!a.required_samples) {
    a.unreachable = true;
    a.status =
        "the required width cannot be reached: relative to a mean of 0, or beyond 10^15 "
        "subsessions";
  } else {
    a.status = "needs more readings";
  }
}

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

analysis start(std::size_t n, const analysis_options& opt) {
  validate(opt.requirements);
  analysis a;
  a.kind = opt.kind;
  a.confidence = opt.requirements.confidence;
  a.n = n;
  return a;
}

}  // namespace

std::span<const double> analysed_scale(std::span<const double> x, quantity_kind kind,
                                       std::vector<double>& storage) {
  std::span<const double> y = x;
  if (kind == quantity_kind::rate) {
    storage = reciprocals(x);
    y = storage;
  } else {
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!std::isfinite(x[i]))
        throw reading_error(i, "a reading must be a finite number, got " + number_text(x[i]));
    if (kind == quantity_kind::proportion) check_binary(x);
  }
  if (const auto i = first_unanalysable(y))
    throw reading_error(*i, unanalysable_message(x[*i], kind == quantity_kind::rate));
  return y;
}

analysis analyze(std::span<const double> readings, const analysis_options& opt) {
  analysis a = start(readings.size(), opt);
  std::vector<double> storage;
  const std::span<const double> y = analysed_scale(readings, opt.kind, storage);
  std::span<const double> stable;
  stable_phase(y, opt, a.warmup, stable, &a.phase);
  if (stable.empty()) {
    a.status = "no readings";
    return a;
  }
  a.mean = back_to_unit(mean(stable), opt.kind);
  const double limit = opt.requirements.autocorrelation_limit;
  std::optional<subsession_choice> choice;
  const bool decay = opt.subsessions == analysis_options::grouping::decay;
  if (stable.size() >= 2) {
    // The raw lag-1 is rho_1(1). When it is within the limit, Pilot's rule takes q = 1 without
    // prefix sums. The decay rule looks at every lag: a small lag 1 can hide a long memory.
    const double rho1 = autocorrelation(stable);
    a.autocorrelation = rho1;
    if (!decay && stable.size() >= 3 && std::abs(rho1) <= limit)
      choice = subsession_choice{1, stable.size(), rho1};
  }
  if (decay && stable.size() >= 3) choice = subsession_from_decay(stable, limit, a);
  if (!choice) choice = choose_subsession(stable, limit);
  if (!choice) {
    a.status =
        stable.size() < 3 ? "not enough data: at least 3 readings are needed" : no_subsession;
    return a;
  }
  a.n_used = choice->size * choice->count;
  a.remainder = stable.size() - a.n_used;
  a.subsession_autocorrelation = choice->autocorrelation;
  if (choice->size == 1) {
    conclude(a, stable.first(a.n_used), 1, opt);  // batches of one are the readings
  } else {
    const std::vector<double> batches = batch_means(stable.first(a.n_used), choice->size);
    conclude(a, batches, choice->size, opt);
  }
  if (a.phase.latest) {
    // An interval to show, not a verdict: on a stream whose load comes and goes, the latest
    // segment is often a quiet one, and stopping on it missed the long-run mean in twice as
    // many sessions (docs/statistics.md, "A stop at the minimum"). The session goes on, as
    // Pilot's does without a stable phase, and a user it ends for still gets this interval.
    a.converged = false;
    a.status = std::string(no_stable_phase) + "; the interval is of the latest phase, readings " +
               std::to_string(a.phase.begin) + "-" + std::to_string(a.phase.end) +
               ", and is not a verdict";
  }
  return a;
}

analysis analyze_streams(std::span<const std::span<const double>> streams,
                         const analysis_options& opt) {
  std::size_t n = 0;
  for (const auto& s : streams) n += s.size();
  analysis a = start(n, opt);

  std::vector<std::vector<double>> storage(streams.size());
  std::vector<std::span<const double>> stable;
  std::size_t rejected = 0;
  for (std::size_t k = 0; k < streams.size(); ++k) {
    const std::span<const double> y = analysed_scale(streams[k], opt.kind, storage[k]);
    std::span<const double> st;
    if (stable_phase(y, opt, a.warmup, st))
      stable.push_back(st);
    else
      ++rejected;
  }
  a.warmup.accepted = rejected == 0;
  if (rejected > 0) {
    a.status = std::string(no_stable_phase) + " (in " + std::to_string(rejected) + " of " +
               std::to_string(streams.size()) + " streams)";
    return a;
  }
  std::vector<batch_correlogram> correlograms;
  std::size_t n_stable = 0;
  double sum = 0, rho_sum = 0;
  for (const auto& st : stable) {
    correlograms.emplace_back(st);
    n_stable += st.size();
    if (!st.empty()) sum += correlograms.back().mean() * static_cast<double>(st.size());
    if (st.size() >= 2) rho_sum += correlograms.back().lag1(1).value_or(0.0);
  }
  if (n_stable == 0) {
    a.status = "no readings";
    return a;
  }
  a.mean = back_to_unit(sum / static_cast<double>(n_stable), opt.kind);
  a.autocorrelation = rho_sum / static_cast<double>(stable.size());
  // One q for all streams, chosen on the pooled lag-1 of their batch means: the streams are
  // copies of one steady state, so their batches can share the estimate, and pooling makes it
  // steadier than any one stream's (taking the largest per-stream q instead still left the worst
  // stream's rho_1 above the limit on average). Every stream keeps at least 3 batches.
  std::size_t shortest = correlograms.front().size();
  for (const auto& c : correlograms) shortest = std::min(shortest, c.size());
  std::optional<std::size_t> q;
  double rho_q = 0;
  for (std::size_t c = 1; c <= shortest / 3; ++c) {
    rho_q = pooled_lag1(correlograms, c).value_or(0.0);
    if (std::abs(rho_q) <= opt.requirements.autocorrelation_limit) {
      q = c;
      break;
    }
  }
  if (!q) {
    a.status = no_subsession;
    return a;
  }
  std::vector<double> batches;
  for (const auto& st : stable) {
    const std::size_t h = st.size() / *q;
    const auto b = batch_means(st, *q);
    batches.insert(batches.end(), b.begin(), b.end());
    a.n_used += *q * h;
    a.remainder += st.size() - *q * h;
  }
  a.subsession_autocorrelation = rho_q;
  conclude(a, batches, *q, opt);
  return a;
}

analysis analyze_derived(std::span<const std::span<const double>> inputs,
                         const std::function<double(std::span<const double>)>& g,
                         const analysis_options& options) {
  analysis_options opt = options;
  opt.kind = quantity_kind::ordinary;
  opt.remove_warmup = false;
  const std::size_t n = inputs.empty() ? 0 : inputs.front().size();
  analysis a = start(n, opt);
  for (const auto& in : inputs)
    if (in.size() != n) throw std::invalid_argument("derived inputs differ in length");

  std::size_t q = 1;
  for (const auto& in : inputs) {
    for (std::size_t i = 0; i < in.size(); ++i)
      if (!std::isfinite(in[i]))
        throw reading_error(i, "a reading must be a finite number, got " + std::to_string(in[i]));
    const auto c = choose_subsession(in, opt.requirements.autocorrelation_limit);
    if (!c) {
      a.status = n < 3 ? "not enough data: at least 3 readings are needed" : no_subsession;
      return a;
    }
    q = std::max(q, c->size);
  }
  const std::size_t h = n / q;
  a.n_used = q * h;
  a.remainder = n - a.n_used;

  std::vector<std::vector<double>> y;
  std::vector<double> m;
  for (const auto& in : inputs) {
    y.push_back(batch_means(in.first(a.n_used), q));
    m.push_back(mean(y.back()));
  }
  const double value = g(m);
  if (!std::isfinite(value)) {
    a.status =
        "the derived value is not finite at the current means (e.g. a ratio over a mean "
        "of 0)";
    return a;
  }
  std::vector<double> grad(m.size());
  for (std::size_t k = 0; k < m.size(); ++k) {
    const double step = m[k] != 0 ? 1e-6 * std::abs(m[k]) : 1e-9;
    std::vector<double> up = m, down = m;
    up[k] += step;
    down[k] -= step;
    grad[k] = (g(up) - g(down)) / (2 * step);
  }
  std::vector<double> z(h, value);
  for (std::size_t j = 0; j < h; ++j)
    for (std::size_t k = 0; k < m.size(); ++k) z[j] += grad[k] * (y[k][j] - m[k]);
  a.autocorrelation = autocorrelation(z);
  a.subsession_autocorrelation = a.autocorrelation;
  conclude(a, z, q, opt);
  return a;
}

}  // namespace mcpilot
