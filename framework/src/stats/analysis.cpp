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

#include "analysis_parts.hpp"
namespace mcpilot {

namespace {

double back_to_unit(double v, quantity_kind kind) {
  return kind == quantity_kind::rate ? 1.0 / v : v;
}

constexpr const char* no_stable_phase =
    "no stable phase: no segment between change-points holds more than half of the readings";
constexpr const char* no_subsession =
    "not enough data: no subsession size q <= n/3 brings the batch means' lag-1 autocorrelation "
    "within the limit";

analysis start(std::size_t n, const analysis_options& opt) {
  validate(opt.requirements);
  analysis a;
  a.kind = opt.kind;
  a.confidence = opt.requirements.confidence;
  a.n = n;
  return a;
}

// The median replaces the mean for ordinary readings only: a rate's harmonic mean and a
// proportion are estimates of their own.
bool median_wanted(const analysis_options& opt) {
  return opt.requirements.statistic == summary_statistic::median &&
         opt.kind == quantity_kind::ordinary;
}

std::string latest_phase_status(const analysis& a) {
  return std::string(no_stable_phase) + "; the interval is of the latest phase, readings " +
         std::to_string(a.phase.begin) + "-" + std::to_string(a.phase.end) +
         ", and is not a verdict";
}

// An interval to show, not a verdict: on a stream whose load comes and goes, the latest segment
// is often a quiet one, and stopping on it missed the long-run mean in twice as many sessions
// (docs/statistics.md, "A stop at the minimum"). The session goes on, as Pilot's does without a
// stable phase, and a user it ends for still gets this interval.
void mark_latest_phase(analysis& a) {
  if (!a.phase.latest) return;
  a.converged = false;
  a.status = latest_phase_status(a);
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
  if (median_wanted(opt)) {
    detail::conclude_median(a, stable, opt);
    mark_latest_phase(a);
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
    detail::conclude(a, stable.first(a.n_used), 1, opt);  // batches of one are the readings
  } else {
    const std::vector<double> batches = batch_means(stable.first(a.n_used), choice->size);
    detail::conclude(a, batches, choice->size, opt);
  }
  mark_latest_phase(a);
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
  // One stream is one series: where no phase holds half of it (a load that drifts), it gets the
  // interval of its latest phase, as analyze() gives, rather than none. Several streams' latest
  // phases are different stretches of time and are not pooled.
  phase_report* latest = streams.size() == 1 ? &a.phase : nullptr;
  for (std::size_t k = 0; k < streams.size(); ++k) {
    const std::span<const double> y = analysed_scale(streams[k], opt.kind, storage[k]);
    std::span<const double> st;
    if (stable_phase(y, opt, a.warmup, st, latest))
      stable.push_back(st);
    else
      ++rejected;
  }
  a.warmup.accepted = rejected == 0 && !a.phase.latest;
  if (rejected > 0) {
    a.status = std::string(no_stable_phase) + " (in " + std::to_string(rejected) + " of " +
               std::to_string(streams.size()) + " streams)";
    return a;
  }
  if (median_wanted(opt)) {
    // The streams are copies of one steady state: their stable readings are one sample.
    std::vector<double> pooled;
    for (const auto& st : stable) pooled.insert(pooled.end(), st.begin(), st.end());
    if (pooled.empty()) {
      a.status = "no readings";
      return a;
    }
    detail::conclude_median(a, pooled, opt);
    mark_latest_phase(a);
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
  detail::conclude(a, batches, *q, opt);
  mark_latest_phase(a);
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
  detail::conclude(a, z, q, opt);
  return a;
}

}  // namespace mcpilot
