#pragma once
// Shared by the placement tests: configure placement.design from a few parameter values (the rest
// take their declared defaults, each value checked by its declaration as a config would).

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>

#include "placement/placement_model.hpp"

namespace placement_test {

struct value {
  mcpilot::param_value v;
  value(int x) : v(std::int64_t{x}) {}
  value(double x) : v(x) {}
  value(bool x) : v(x) {}
  value(const char* x) : v(std::string(x)) {}
  value(const std::string& x) : v(x) {}
};

struct configured {
  mcpilot::placement::placement_model model;
  mcpilot::model_spec spec;
};

// Declares, fills defaults, checks and sets the values, configures, declares again. Throws
// parameter_error as configure() does.
inline std::unique_ptr<configured> make(
    std::initializer_list<std::pair<const char*, value>> values) {
  auto c = std::make_unique<configured>();
  mcpilot::model_spec base;
  c->model.declare(base);
  mcpilot::parameters p;
  for (const auto& s : base.parameter_specs())
    if (s.default_value) p.set(s.name, *s.default_value);
  for (const auto& [name, v] : values) {
    const auto* s = base.find_parameter(name);
    if (!s) throw std::logic_error(std::string("no parameter ") + name);
    p.set(name, s->check(v.v));
  }
  c->model.configure(p);
  c->model.declare(c->spec);
  return c;
}

// The field a configuration is rejected for, or "" when it is accepted.
inline std::string rejected_field(std::initializer_list<std::pair<const char*, value>> values) {
  try {
    make(values);
  } catch (const mcpilot::parameter_error& e) {
    return e.field();
  }
  return "";
}

inline double exact(const configured& c, const std::string& name) {
  const auto a = c.model.analytic();
  const auto it = a.find(name);
  if (it == a.end()) throw std::logic_error("no analytic value for " + name);
  return it->second;
}

}  // namespace placement_test
