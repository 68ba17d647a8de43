#pragma once
// What a model measures: each output quantity, its kind and the precision it needs.

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mcpilot/stats/precision.hpp"

namespace mcpilot {

// Per-quantity overrides of the session's preset; unset fields follow the preset.
struct precision_override {
  std::optional<double> autocorrelation_limit;
  std::optional<double> ci_perc;
  std::optional<double> ci_abs;
  std::optional<double> confidence;
  std::optional<std::size_t> min_samples;
  std::optional<interval_method> interval;
  std::optional<double> max_side_ratio;

  precision apply(precision p) const;
  // Every field `over` sets replaces this one's (a config's override of a model's declared one).
  void refine(const precision_override& over);
};

// g(means of the inputs): its value and interval come from the delta method.
using derived_function = std::function<double(std::span<const double> input_means)>;

struct quantity_spec {
  std::string name;
  std::string unit;
  quantity_kind kind = quantity_kind::ordinary;
  bool required = true;  // the session runs until this one converges
  precision_override precision;
  std::string description;

  // Derived quantities only: the quantities whose means g takes, by name, in order.
  std::vector<std::string> inputs;
  derived_function function;
  bool derived() const { return static_cast<bool>(function); }

  quantity_spec& with_unit(std::string u) {
    unit = std::move(u);
    return *this;
  }
  quantity_spec& as(quantity_kind k) {
    kind = k;
    return *this;
  }
  quantity_spec& optional() {
    required = false;
    return *this;
  }
  quantity_spec& describe(std::string d) {
    description = std::move(d);
    return *this;
  }
  quantity_spec& ci_perc(double v) {
    precision.ci_perc = v;
    return *this;
  }
  quantity_spec& ci_abs(double v) {
    precision.ci_abs = v;
    return *this;
  }
};

}  // namespace mcpilot
