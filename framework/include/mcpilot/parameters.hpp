#pragma once
// A model's parameters: their declarations (type, default, description, validation) and the
// resolved values a configured model reads. Nested TOML tables are flattened to dotted names, so
// `lifetime = { shape = 1.12 }` is the parameter "lifetime.shape".

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "mcpilot/error.hpp"

namespace mcpilot {

using param_value = std::variant<bool, std::int64_t, double, std::string>;

enum class param_type { number, integer, boolean, string, choice };

std::string_view to_string(param_type t);
std::string to_string(const param_value& v);

// A problem with one parameter's value. The config layer adds the file and line of the field.
class parameter_error : public input_error {
 public:
  parameter_error(std::string field, const std::string& what)
      : input_error(what), field_(std::move(field)) {}
  const std::string& field() const noexcept { return field_; }

 private:
  std::string field_;
};

// A value this machine cannot hold (n keys that do not fit in memory): the config layer reports it
// as a resource_error at the field's place.
class parameter_resource_error : public parameter_error {
 public:
  using parameter_error::parameter_error;
};

struct parameter_spec {
  std::string name;
  param_type type = param_type::number;
  std::optional<param_value> default_value;  // none: optional, absent unless given
  std::string description;
  std::vector<std::string> choices;  // for param_type::choice
  std::optional<double> min, max;    // inclusive bounds for numbers and integers
  bool min_exclusive = false;

  // Fluent refinements, so a declaration reads as one line.
  parameter_spec& at_least(double v) {
    min = v;
    min_exclusive = false;
    return *this;
  }
  parameter_spec& positive() {
    min = 0;
    min_exclusive = true;
    return *this;
  }
  parameter_spec& at_most(double v) {
    max = v;
    return *this;
  }
  parameter_spec& in_range(double lo, double hi) {
    min = lo;
    max = hi;
    return *this;
  }

  // Converts and checks one value (an integer is accepted for a number; nothing else is coerced).
  // Throws parameter_error naming this parameter.
  param_value check(const param_value& v) const;
};

// The resolved values, read by the model in configure().
class parameters {
 public:
  bool has(const std::string& name) const { return values_.contains(name); }
  double number(const std::string& name) const;
  std::int64_t integer(const std::string& name) const;
  bool boolean(const std::string& name) const;
  const std::string& string(const std::string& name) const;  // also choices
  std::optional<double> optional_number(const std::string& name) const;

  void set(const std::string& name, param_value v) { values_[name] = std::move(v); }
  const std::map<std::string, param_value>& values() const { return values_; }

 private:
  const param_value& get(const std::string& name) const;
  std::map<std::string, param_value> values_;
};

}  // namespace mcpilot
