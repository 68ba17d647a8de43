#include "mcpilot/parameters.hpp"

#include <cmath>
#include <sstream>

#include "mcpilot/join.hpp"

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

double parameters::number(const std::string& name) const {
  const param_value& v = get(name);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  throw parameter_error(name, name + " is not a number");
}

std::int64_t parameters::integer(const std::string& name) const {
  if (const auto* i = std::get_if<std::int64_t>(&get(name))) return *i;
  throw parameter_error(name, name + " is not an integer");
}

bool parameters::boolean(const std::string& name) const {
  if (const auto* b = std::get_if<bool>(&get(name))) return *b;
  throw parameter_error(name, name + " is not a bool");
}

const std::string& parameters::string(const std::string& name) const {
  if (const auto* s = std::get_if<std::string>(&get(name))) return *s;
  throw parameter_error(name, name + " is not a string");
}

std::optional<double> parameters::optional_number(const std::string& name) const {
  if (!has(name)) return std::nullopt;
  return number(name);
}

}  // namespace mcpilot
