#pragma once
// Configures a model as a config would: its declared defaults first, then each given value,
// checked by its parameter's declaration; then declares it again (the quantities follow the
// configuration). Shared by the unit tests' model helpers and the validation studies.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mcpilot/model.hpp"
#include "mcpilot/validate.hpp"

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
  return configure_with(m, values);
}

// A model and the spec it declared once configured; held by pointer, since models do not move.
template <class Model>
struct configured {
  Model model;
  model_spec spec;
};

template <class Model>
std::unique_ptr<configured<Model>> make_configured(const std::vector<named_value>& values) {
  auto c = std::make_unique<configured<Model>>();
  c->spec = configure_model(c->model, values);
  return c;
}

// The same from values as a test writes them: {{"disks", 8}, {"design", "fano"}}.
template <class Model>
std::unique_ptr<configured<Model>> make_configured(
    std::initializer_list<std::pair<const char*, value>> values) {
  std::vector<named_value> named;
  for (const auto& [name, v] : values) named.emplace_back(name, v.v);
  return make_configured<Model>(named);
}

}  // namespace mcpilot::test
