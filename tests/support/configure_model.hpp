#pragma once
// Configures a model as a config would: its declared defaults first, then each given value,
// checked by its parameter's declaration; then declares it again (the quantities follow the
// configuration). Shared by the unit tests' model helpers and the validation studies.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mcpilot/model.hpp"

namespace mcpilot::test {

using named_value = std::pair<std::string, param_value>;

// A parameter value as a test writes it: 3, 0.5, true or "fano" (an int is a TOML integer).
struct value {
  param_value v;
  value(int x) : v(std::int64_t{x}) {}
  value(double x) : v(x) {}
  value(bool x) : v(x) {}
  value(const char* x) : v(std::string(x)) {}
  value(const std::string& x) : v(x) {}
};

// Throws std::logic_error for a parameter the model does not declare, and parameter_error as
// check() and configure() do. Returns the spec declared after configuring.
inline model_spec configure_model(model& m, const std::vector<named_value>& values) {
  model_spec base;
  m.declare(base);
  parameters p;
  for (const auto& s : base.parameter_specs())
    if (s.default_value) p.set(s.name, *s.default_value);
  for (const auto& [name, v] : values) {
    const auto* s = base.find_parameter(name);
    if (!s) throw std::logic_error("no parameter " + name);
    p.set(name, s->check(v));
  }
  m.configure(p);
  model_spec spec;
  m.declare(spec);
  return spec;
}

}  // namespace mcpilot::test
