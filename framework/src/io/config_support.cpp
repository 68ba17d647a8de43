#include "config_support.hpp"

#include "mcpilot/error.hpp"

namespace mcpilot::config_detail {

const char* describe_type(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a floating-point number";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

std::vector<std::string> split_dots(std::string_view key) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const auto dot = key.find('.', start);
    parts.emplace_back(key.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::string position(const std::string& source, const toml::source_region& r) {
  if (r.begin.line == 0) return source;
  return source + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
}

std::string locator::where(const toml::source_region& r, std::string_view dotted) const {
  std::string key(dotted);
  for (;;) {
    if (auto it = origins_.find(key); it != origins_.end()) return it->second;
    const auto dot = key.rfind('.');
    if (dot == std::string::npos) break;
    key.resize(dot);
  }
  return position(source_, r);
}

void fail(const std::string& where, std::string_view section, std::string_view field,
          const std::string& message) {
  // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on " " + std::string.
  std::string text = where + ": " + std::string(section);
  if (!field.empty()) {
    text += ' ';
    text += field;
  }
  text += ": ";
  text += message;
  throw input_error(text);
}

}  // namespace mcpilot::config_detail
