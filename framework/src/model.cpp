#include "mcpilot/model.hpp"

#include <cmath>
#include <stdexcept>

#include "mcpilot/stop_axis.hpp"

namespace mcpilot {

precision precision_override::apply(precision p) const {
  if (autocorrelation_limit) p.autocorrelation_limit = *autocorrelation_limit;
  if (ci_perc) p.ci_perc = *ci_perc;
  if (ci_abs) p.ci_abs = *ci_abs;
  if (confidence) p.confidence = *confidence;
  if (min_samples) p.min_samples = *min_samples;
  if (interval) p.interval = *interval;
  if (max_side_ratio) p.max_side_ratio = *max_side_ratio;
  return p;
}

void precision_override::refine(const precision_override& over) {
  if (over.autocorrelation_limit) autocorrelation_limit = over.autocorrelation_limit;
  if (over.ci_perc) ci_perc = over.ci_perc;
  if (over.ci_abs) ci_abs = over.ci_abs;
  if (over.confidence) confidence = over.confidence;
  if (over.min_samples) min_samples = over.min_samples;
  if (over.interval) interval = over.interval;
  if (over.max_side_ratio) max_side_ratio = over.max_side_ratio;
}

parameter_spec& model_spec::add(parameter_spec p) {
  for (const auto& q : parameters_)
    if (q.name == p.name) throw std::logic_error("parameter " + p.name + " declared twice");
  return parameters_.emplace_back(std::move(p));
}

parameter_spec& model_spec::number(std::string name, double def, std::string description) {
  return add({std::move(name), param_type::number, def, std::move(description), {}, {}, {}, false});
}

parameter_spec& model_spec::optional_number(std::string name, std::string description) {
  return add({std::move(name),
              param_type::number,
              std::nullopt,
              std::move(description),
              {},
              {},
              {},
              false});
}

parameter_spec& model_spec::integer(std::string name, std::int64_t def, std::string description) {
  return add(
      {std::move(name), param_type::integer, def, std::move(description), {}, {}, {}, false});
}

parameter_spec& model_spec::boolean(std::string name, bool def, std::string description) {
  return add(
      {std::move(name), param_type::boolean, def, std::move(description), {}, {}, {}, false});
}

parameter_spec& model_spec::string(std::string name, std::string def, std::string description) {
  return add({std::move(name),
              param_type::string,
              std::move(def),
              std::move(description),
              {},
              {},
              {},
              false});
}

parameter_spec& model_spec::choice(std::string name, std::string def,
                                   std::vector<std::string> choices, std::string description) {
  return add({std::move(name),
              param_type::choice,
              std::move(def),
              std::move(description),
              std::move(choices),
              {},
              {},
              false});
}

quantity_spec& model_spec::quantity(std::string name, quantity_kind kind) {
  if (quantity_index(name) >= 0) throw std::logic_error("quantity " + name + " declared twice");
  quantity_spec& q = quantities_.emplace_back();
  q.name = std::move(name);
  q.kind = kind;
  return q;
}

quantity_spec& model_spec::derived(std::string name, std::vector<std::string> inputs,
                                   derived_function g) {
  for (const auto& in : inputs)
    if (quantity_index(in) < 0)
      throw std::logic_error("derived quantity " + name + " uses " + in +
                             ", which is not declared before it");
  quantity_spec& q = quantity(std::move(name));
  q.inputs = std::move(inputs);
  q.function = std::move(g);
  return q;
}

const parameter_spec* model_spec::find_parameter(std::string_view name) const {
  for (const auto& p : parameters_)
    if (p.name == name) return &p;
  return nullptr;
}

int model_spec::quantity_index(std::string_view name) const {
  for (std::size_t i = 0; i < quantities_.size(); ++i)
    if (quantities_[i].name == name) return static_cast<int>(i);
  return -1;
}

namespace {

std::size_t find_recordable(const model_spec& spec, std::string_view name) {
  const int i = spec.quantity_index(name);
  if (i < 0) {
    // As a config error lists the known keys: the usual cause is a misspelt name.
    std::string known;
    for (const auto& q : spec.quantities())
      if (!q.derived()) known += (known.empty() ? "" : ", ") + q.name;
    throw std::logic_error("record: no quantity named " + std::string(name) +
                           " (declared: " + (known.empty() ? std::string("none") : known) + ")");
  }
  return static_cast<std::size_t>(i);
}

void check_recordable(const model_spec& spec, std::size_t q) {
  if (q >= spec.quantities().size())
    throw std::logic_error("record: quantity index " + std::to_string(q) + " out of range");
  if (spec.quantities()[q].derived())
    throw std::logic_error("record: " + spec.quantities()[q].name +
                           " is derived; it is computed, not recorded");
}

}  // namespace

void replication::record(std::size_t quantity, double value) {
  check_recordable(spec_, quantity);
  readings_[quantity] = value;
}

void replication::record(std::string_view name, double value) {
  record(find_recordable(spec_, name), value);
}

void stream_round::record(std::size_t quantity, double value) {
  check_recordable(spec_, quantity);
  out_[quantity].push_back(value);
}

void stream_round::record(std::string_view name, double value) {
  record(find_recordable(spec_, name), value);
}

void measurement_batch::record(std::string_view name, double value) {
  const std::size_t q = find_recordable(spec_, name);
  out_[q].push_back(value);
}

void model::replicate(replication&) const {
  throw std::logic_error("this model declares replication style but does not override replicate()");
}

std::unique_ptr<stream> model::open_stream(std::uint64_t) const {
  throw std::logic_error("this model declares stream style but does not override open_stream()");
}

std::vector<stop_axis_rule> model::stop_axis_rules() const {
  return {};
}

std::unique_ptr<workload> model::open_workload() const {
  throw std::logic_error(
      "this model declares measurement style but does not override "
      "open_workload()");
}

}  // namespace mcpilot
