#include "mcpilot/engine.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mcpilot {

namespace {

// Smallest first round: enough readings for the minimum sample size twice over, so that the first
// evaluation has a chance to find a subsession size and a variance.
constexpr std::uint64_t min_first_round = 100;
// A round never asks for more than this multiple of what is already there: early estimates of the
// required size rest on few readings and can be wild.
constexpr std::uint64_t max_growth = 4;
// ...nor for less than this fraction of it, so that re-analysis (O(n log n)) stays small next to
// the model's work; this bounds the overshoot past the required size to about 10%.
constexpr double min_growth = 0.10;

}  // namespace

engine::engine(const model_spec& spec, engine_options options)
    : stream_style_(spec.is_stream_style()), options_(options) {
  validate(options_.session_precision);
  for (const auto& q : spec.quantities()) {
    specs_.push_back(q);
    requirements_.push_back(q.precision.apply(options_.session_precision));
    // Replications are independent by construction, so Pilot's interval is exact for them and
    // their results stay Pilot's; streams are autocorrelated, so they get the adjusted interval.
    if (!requirements_.back().interval)
      requirements_.back().interval =
          spec.is_stream_style() ? interval_method::adjusted : interval_method::pilot;
    validate(requirements_.back());
    std::vector<std::size_t> inputs;
    for (const auto& in : q.inputs) {
      const int k = spec.quantity_index(in);
      if (spec.quantities()[static_cast<std::size_t>(k)].derived())
        throw std::logic_error("derived quantity " + q.name + " uses derived " + in);
      inputs.push_back(static_cast<std::size_t>(k));
    }
    if (q.derived() && stream_style_)
      throw std::logic_error("derived quantities need replication style (" + q.name + ")");
    derived_inputs_.push_back(std::move(inputs));
  }
  if (specs_.empty()) throw std::logic_error("a model must declare at least one quantity");
  readings_.resize(specs_.size());
  if (stream_style_) {
    if (options_.streams < 1) throw input_error("streams must be at least 1");
    streams_.assign(options_.streams, std::vector<std::vector<double>>(specs_.size()));
  }
}

void engine::add_replications(std::span<const double> rows) {
  const std::size_t width = specs_.size();
  if (rows.size() % width != 0) throw std::invalid_argument("row size differs from quantities");
  const std::size_t count = rows.size() / width;
  for (std::size_t q = 0; q < width; ++q) {
    if (specs_[q].derived()) continue;
    std::vector<double>& v = readings_[q];
    if (v.capacity() < v.size() + count) v.reserve(std::max(v.size() + count, 2 * v.capacity()));
    if (width == 1) {
      v.insert(v.end(), rows.begin(), rows.end());
    } else {
      for (std::size_t i = 0; i < count; ++i) v.push_back(rows[i * width + q]);
    }
  }
}

void engine::add_stream_readings(std::size_t stream, std::size_t quantity,
                                 std::span<const double> readings) {
  auto& v = streams_.at(stream).at(quantity);
  v.insert(v.end(), readings.begin(), readings.end());
}

void engine::reserve(std::uint64_t replications) {
  for (std::size_t q = 0; q < specs_.size(); ++q)
    if (!specs_[q].derived()) readings_[q].reserve(replications);
}

std::uint64_t engine::replications() const {
  if (!stream_style_) {
    for (std::size_t q = 0; q < specs_.size(); ++q)
      if (!specs_[q].derived()) return readings_[q].size();
    return 0;
  }
  std::uint64_t n = 0;
  for (const auto& s : streams_) n += s[0].size();
  return n;
}

analysis engine::analyse_quantity(std::size_t q) const {
  analysis_options opt;
  opt.kind = specs_[q].kind;
  opt.requirements = requirements_[q];
  if (specs_[q].derived()) {
    std::vector<std::span<const double>> in;
    for (std::size_t k : derived_inputs_[q]) in.emplace_back(readings_[k]);
    return analyze_derived(in, specs_[q].function, opt);
  }
  if (!stream_style_) {
    // Replications are independent and identically distributed: no warm-up to remove.
    opt.remove_warmup = false;
    return analyze(readings_[q], opt);
  }
  opt.remove_warmup = options_.remove_warmup;
  opt.keep_excursions = options_.keep_excursions;
  std::vector<std::span<const double>> per_stream;
  for (const auto& s : streams_) per_stream.emplace_back(s[q]);
  return analyze_streams(per_stream, opt);
}

std::uint64_t engine::next_round_size() const {
  const std::uint64_t have = stream_style_ ? replications() / streams_.size() : replications();
  std::uint64_t first = options_.first_round;
  if (first == 0) {
    std::size_t m = 0;
    for (const auto& r : requirements_) m = std::max(m, r.min_samples);
    first = std::max<std::uint64_t>(min_first_round, 2 * m);
  }
  if (have == 0) return first;

  // The most any required quantity still needs, in replications (or readings per stream).
  std::uint64_t need = 0;
  for (std::size_t q = 0; q < results_.size(); ++q) {
    const quantity_result& r = results_[q];
    if (!r.required || r.stats.converged) continue;
    std::uint64_t more = have;  // no estimate yet: double
    if (r.stats.required_samples) {
      // required_samples counts readings of the stable phase that enter batches; what was cut as
      // warm-up, cool-down or remainder must be produced on top.
      const std::uint64_t wanted = *r.stats.required_samples;
      const std::uint64_t used = r.stats.n_used;
      const std::uint64_t missing = wanted > used ? wanted - used : 0;
      more = stream_style_ ? (missing + streams_.size() - 1) / streams_.size() : missing;
    }
    need = std::max(need, more);
  }
  const auto floor = static_cast<std::uint64_t>(std::ceil(min_growth * static_cast<double>(have)));
  return std::clamp<std::uint64_t>(need, std::max<std::uint64_t>(floor, 1), max_growth * have);
}

decision engine::evaluate() {
  results_.clear();
  bool all_converged = true, unreachable = false, any_readings = replications() > 0;
  if (any_readings) {
    for (std::size_t q = 0; q < specs_.size(); ++q) {
      quantity_result r;
      r.name = specs_[q].name;
      r.unit = specs_[q].unit;
      r.kind = specs_[q].derived() ? quantity_kind::ordinary : specs_[q].kind;
      r.required = specs_[q].required;
      r.derived = specs_[q].derived();
      r.requirements = requirements_[q];
      r.stats = analyse_quantity(q);
      if (r.required && !r.stats.converged && r.stats.one_sided && r.stats.required_samples &&
          options_.budget > 0 && *r.stats.required_samples > options_.budget) {
        r.stats.unreachable = true;
        r.stats.status += "; even at p = the bound it needs " +
                          std::to_string(*r.stats.required_samples) +
                          " trials, more than max_replications";
      }
      if (r.required && !r.stats.converged) {
        all_converged = false;
        if (r.stats.unreachable) unreachable = true;
      }
      results_.push_back(std::move(r));
    }
  }
  ++rounds_;
  decision d;
  if (any_readings && all_converged) {
    d.stop = true;
    d.reason = stop_reason::converged;
  } else if (unreachable) {
    d.stop = true;
    d.reason = stop_reason::unreachable;
  } else {
    d.count = next_round_size();
  }
  return d;
}

}  // namespace mcpilot
