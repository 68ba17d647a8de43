#include "mcpilot/stop_axis.hpp"

namespace mcpilot {

const param_value* axis_point::value(std::string_view key) const {
  for (const auto& [k, v] : values)
    if (k == key) return &v;
  return nullptr;
}

std::optional<double> axis_point::number(std::string_view key) const {
  const param_value* v = value(key);
  if (!v) return std::nullopt;
  if (const auto* i = std::get_if<std::int64_t>(v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(v)) return *d;
  return std::nullopt;
}

std::optional<std::string> axis_point::text(std::string_view key) const {
  const param_value* v = value(key);
  if (const auto* s = v ? std::get_if<std::string>(v) : nullptr) return *s;
  return std::nullopt;
}

const axis_point::estimate* axis_point::quantity(std::string_view name) const {
  const auto it = estimates.find(std::string(name));
  return it == estimates.end() ? nullptr : &it->second;
}

}  // namespace mcpilot
