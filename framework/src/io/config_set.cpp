// `--set key=value` (and a sweep point's values, which travel the same path): patches the parsed
// file before its sections are read, so an override is checked exactly as the file's own value.
#include "config_support.hpp"
#include "mcpilot/error.hpp"

namespace mcpilot::config_detail {

namespace {

// Parses the value of a --set as one TOML value, or keeps it as a string.
toml::table parse_set_value(const std::string& value, const std::string& origin) {
  try {
    toml::table t = toml::parse("x = " + value, origin);
    if (t.size() == 1 && t.contains("x")) return t;
  } catch (const toml::parse_error&) {
  }
  toml::table t;
  t.insert_or_assign("x", value);
  return t;
}

// The key's components. A quoted component (sweep."model.n") may hold dots, so such a key is read
// by the TOML parser itself; a plain one is split at its dots, which keeps our own message for an
// empty component.
std::vector<std::string> key_parts(const std::string& key, const std::string& origin) {
  if (key.find_first_of("\"'") == std::string::npos) return split_dots(key);
  toml::table probe;
  try {
    probe = toml::parse(key + " = 0", origin);
  } catch (const toml::parse_error& e) {
    throw input_error(origin + ": not a TOML key: " + std::string(e.description()));
  }
  // One key per level down to the 0 placed after it; anything else (a comment, a second
  // assignment smuggled into the key) is not one key.
  std::vector<std::string> parts;
  const toml::table* t = &probe;
  while (t) {
    if (t->size() != 1) throw input_error(origin + ": not a TOML key");
    const auto entry = t->begin();
    parts.emplace_back(entry->first.str());
    t = entry->second.as_table();
    if (!t && !entry->second.is_integer()) throw input_error(origin + ": not a TOML key");
  }
  return parts;
}

}  // namespace

void apply_set(toml::table& root, const std::string& assignment, const std::string& origin_label,
               locator& loc) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos)
    throw input_error("--set " + assignment + ": expected key=value (e.g. --set model.disks=8)");
  const std::string key = trim(std::string_view(assignment).substr(0, eq));
  const std::string value = trim(std::string_view(assignment).substr(eq + 1));
  const std::string origin = origin_label.empty() ? "--set " + key : origin_label;
  const auto parts = key_parts(key, origin);
  for (const auto& p : parts)
    if (p.empty()) throw input_error(origin + ": empty component in the key");
  toml::table parsed = parse_set_value(value, origin);
  toml::node& node = *parsed.get("x");

  if (parts.front() == "quantity") {
    // quantity.NAME.FIELD: the [[quantity]] entry of that name, added when there is none.
    if (parts.size() < 3)
      throw input_error(origin + ": expected quantity.NAME.FIELD (e.g. quantity.mttdl.ci_perc)");
    const std::string name =
        join(std::vector<std::string>(parts.begin() + 1, parts.end() - 1), ".");
    const std::string& field = parts.back();
    if (!root.contains("quantity")) root.insert_or_assign("quantity", toml::array{});
    toml::array* entries = root.get("quantity")->as_array();
    if (!entries) throw input_error(origin + ": quantity in the config is not an array of tables");
    toml::table* target = nullptr;
    for (auto& e : *entries) {
      auto* t = e.as_table();
      if (!t) continue;
      const auto* n = t->get("name");
      if (n && n->is_string() && n->as_string()->get() == name) target = t;
    }
    if (!target) {
      entries->push_back(toml::table{{"name", name}});
      target = entries->back().as_table();
    }
    target->insert_or_assign(field, std::move(node));
    loc.set_origin("quantity." + name + "." + field, origin);
    return;
  }

  toml::table* t = &root;
  std::string path;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    path += (i ? "." : "") + parts[i];
    toml::node* child = t->get(parts[i]);
    if (!child) {
      t->insert_or_assign(parts[i], toml::table{});
      child = t->get(parts[i]);
      // A table only this --set created: whatever is wrong with it is the --set's doing.
      loc.set_origin(path, origin);
    }
    if (!child->is_table())
      throw input_error(origin + ": " + path + " is " + describe_type(*child) + ", not a table");
    t = child->as_table();
  }
  t->insert_or_assign(parts.back(), std::move(node));
  loc.set_origin(join(parts, "."), origin);
}

}  // namespace mcpilot::config_detail
