#include "mcpilot/parameters.hpp"

#include <cmath>
#include <sstream>

#include "mcpilot/join.hpp"
#include "parameter_read_error.hpp"

namespace mcpilot {

std::string_view to_string(param_type t) {
  switch (t) {
    case param_type::number:
      return "number";
    case param_type::integer:
      return "integer";
    case param_type::boolean:
      return "bool";
    case param_type::string:
      return "string";
    case param_type::choice:
      return "choice";
  }
  return "?";
}

std::string to_string(const param_value& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return '"' + x + '"';
        } else {
          std::ostringstream os;
          os.precision(15);
          os << x;
          return os.str();
        }
      },
      v);
}

namespace {

std::string type_of(const param_value& v) {
  switch (v.index()) {
    case 0:
      return "a bool";
    case 1:
      return "an integer";
    case 2:
      return "a number";
    default:
      return "a string";
  }
}

void check_bounds(const parameter_spec& s, double x) {
  if (s.min && (s.min_exclusive ? !(x > *s.min) : !(x >= *s.min))) {
    std::ostringstream os;
    os << s.name << " must be " << (s.min_exclusive ? "> " : ">= ") << *s.min << ", got " << x;
    throw parameter_error(s.name, os.str());
  }
  if (s.max && !(x <= *s.max)) {
    std::ostringstream os;
    os << s.name << " must be <= " << *s.max << ", got " << x;
    throw parameter_error(s.name, os.str());
  }
}

}  // namespace

param_value parameter_spec::check(const param_value& v) const {
  auto wrong = [&](const char* wanted) {
    throw parameter_error(
        name, name + " must be " + wanted + ", got " + type_of(v) + " (" + to_string(v) + ")");
  };
  switch (type) {
    case param_type::number: {
      double x = 0;
      if (const auto* d = std::get_if<double>(&v))
        x = *d;
      else if (const auto* i = std::get_if<std::int64_t>(&v))
        x = static_cast<double>(*i);
      else
        wrong("a number");
      if (!std::isfinite(x)) throw parameter_error(name, name + " must be a finite number");
      check_bounds(*this, x);
      return x;
    }
    case param_type::integer: {
      const auto* i = std::get_if<std::int64_t>(&v);
      if (!i) wrong("an integer");
      check_bounds(*this, static_cast<double>(*i));
      return *i;
    }
    case param_type::boolean:
      if (!std::holds_alternative<bool>(v)) wrong("true or false");
      return v;
    case param_type::string:
      if (!std::holds_alternative<std::string>(v)) wrong("a string");
      return v;
    case param_type::choice: {
      const auto* s = std::get_if<std::string>(&v);
      if (!s) wrong("a string");
      for (const auto& c : choices)
        if (c == *s) return v;
      throw parameter_error(name,
                            name + " must be one of " + join(choices) + ", got \"" + *s + "\"");
    }
  }
  return v;
}

const param_value& parameters::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw parameter_error(name, "parameter " + name + " is not set");
  return it->second;
}

namespace {

// What the model's spec declared, from the value it holds (checked against the spec when set).
std::string_view declared_as(const param_value& v) {
  switch (v.index()) {
    case 0:
      return "a bool (s.boolean)";
    case 1:
      return "an integer (s.integer)";
    case 2:
      return "a number (s.number)";
    default:
      return "a string (s.string or s.choice)";
  }
}

[[noreturn]] void read_as_other_type(const std::string& name, const param_value& v,
                                     std::string_view call) {
  throw parameter_read_error("the model's configure() read " + name + " with p." +
                             std::string(call) + "(), but the model's declare() declares it " +
                             std::string(declared_as(v)) +
                             ": read it with the p. call of its declared type (docs/"
                             "writing-a-model.md, \"Parameters\")");
}

}  // namespace

double parameters::number(const std::string& name) const {
  const param_value& v = get(name);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  read_as_other_type(name, v, "number");
}

std::int64_t parameters::integer(const std::string& name) const {
  const param_value& v = get(name);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
  read_as_other_type(name, v, "integer");
}

bool parameters::boolean(const std::string& name) const {
  const param_value& v = get(name);
  if (const auto* b = std::get_if<bool>(&v)) return *b;
  read_as_other_type(name, v, "boolean");
}

const std::string& parameters::string(const std::string& name) const {
  const param_value& v = get(name);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  read_as_other_type(name, v, "string");
}

std::optional<double> parameters::optional_number(const std::string& name) const {
  if (!has(name)) return std::nullopt;
  return number(name);
}

}  // namespace mcpilot
