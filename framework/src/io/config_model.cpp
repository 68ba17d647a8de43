// The [model] section: the model by name, its parameters (nested tables flattened to dotted
// names, each converted to its declared type and checked), then configure() with errors mapped
// back to the field's line.
#include <map>

#include "../parameter_read_error.hpp"
#include "config_support.hpp"
#include "mcpilot/error.hpp"

namespace mcpilot::config_detail {

namespace {

// Converts one leaf of [model] to the declared parameter's type, or says why it cannot.
param_value to_param(const parameter_spec& p, const toml::node& n, const std::string& where) {
  auto wrong = [&](const std::string& expected) -> param_value {
    fail(where, "[model]", p.name, "expected " + expected + ", got " + describe_type(n));
  };
  switch (p.type) {
    case param_type::number:
      if (n.is_integer()) return n.as_integer()->get();
      if (n.is_floating_point()) return n.as_floating_point()->get();
      return wrong("a number");
    case param_type::integer:
      if (n.is_integer()) return n.as_integer()->get();
      return wrong("an integer");
    case param_type::boolean:
      if (n.is_boolean()) return n.as_boolean()->get();
      return wrong("true or false");
    case param_type::string:
      if (n.is_string()) return n.as_string()->get();
      // An array (mojette.layout's projections = [[1, 1], [-1, 1]]) reaches the model as its
      // TOML text, which the model parses and checks.
      if (n.is_array()) {
        std::ostringstream os;
        os << *n.as_array();
        return os.str();
      }
      return wrong("a string");
    case param_type::choice:
      if (n.is_string()) return n.as_string()->get();
      return wrong("one of " + join(p.choices, " | "));
  }
  return wrong("a value");
}

struct given_parameter {
  std::string where;
};

void flatten_model(const toml::table& table, const std::string& prefix, const locator& loc,
                   const model_spec& spec, const std::string& model_name, parameters& params,
                   std::map<std::string, given_parameter>& given) {
  for (auto&& [k, v] : table) {
    const std::string name =
        prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (prefix.empty() && name == "name") continue;
    const std::string where = loc.where(v.source(), "model." + name);
    const parameter_spec* p = spec.find_parameter(name);
    if (v.is_table() && !p) {
      flatten_model(*v.as_table(), name, loc, spec, model_name, params, given);
      continue;
    }
    if (!p) {
      std::vector<std::string> known;
      for (const auto& s : spec.parameter_specs()) known.push_back(s.name);
      fail(loc.where(k.source(), "model." + name), "[model]", name,
           "unknown parameter of " + model_name +
               (known.empty() ? " (it takes none)" : " (known: " + join(known) + ")"));
    }
    param_value value = to_param(*p, v, where);
    try {
      value = p->check(value);
    } catch (const parameter_error& e) {
      throw input_error(where + ": [model] " + with_field(name, e.what()));
    } catch (const input_error& e) {
      throw input_error(where + ": [model] " + with_field(name, e.what()));
    }
    params.set(name, std::move(value));
    given[name] = {where};
  }
}

}  // namespace

void read_model(const toml::node* node, const locator& loc, const model_registry& models,
                experiment_config& cfg) {
  if (!node) throw input_error(loc.source() + ": no [model] section (it names the model to run)");
  const toml::table& table = *node->as_table();
  const std::string model_where = loc.where(node->source(), "model");
  const toml::node* name_node = table.get("name");
  const auto known_models = [&] {
    const auto names = models.names();
    return names.empty() ? std::string("none are registered") : "known: " + join(names);
  };
  if (!name_node)
    fail(model_where, "[model]", "name", "missing: which model to run (" + known_models() + ")");
  const field_context c{loc, "[model]", "model"};
  cfg.model_name = get_string(c, *name_node, "name");
  cfg.instance = models.create(cfg.model_name);
  if (!cfg.instance)
    fail(where_of(c, *name_node, "name"), "[model]", "name",
         "unknown model \"" + cfg.model_name + "\" (" + known_models() + ")");
  cfg.instance->declare(cfg.spec);

  std::map<std::string, given_parameter> given;
  flatten_model(table, "", loc, cfg.spec, cfg.model_name, cfg.params, given);
  for (const auto& p : cfg.spec.parameter_specs())
    if (!given.contains(p.name) && p.default_value) cfg.params.set(p.name, *p.default_value);

  try {
    cfg.instance->configure(cfg.params);
  } catch (const parameter_read_error& e) {
    // The model's code, not the config: no line of the config is to blame.
    throw input_error("model " + cfg.model_name + ": " + e.what());
  } catch (const parameter_error& e) {
    const std::string& field = e.field();
    std::string message;
    if (auto it = given.find(field); it != given.end()) {
      message = it->second.where + ": [model] " + with_field(field, e.what());
    } else if (cfg.spec.find_parameter(field)) {
      const auto& values = cfg.params.values();
      const auto v = values.find(field);
      message = loc.source() + ": [model] " + field + " (default" +
                (v != values.end() ? " " + to_string(v->second) : std::string()) +
                "): " + with_field(field, e.what());
    } else {
      message = model_where + ": [model] " + with_field(field, e.what());
    }
    if (dynamic_cast<const parameter_resource_error*>(&e)) throw resource_error(message);
    throw input_error(message);
  } catch (const input_error& e) {
    throw input_error(model_where + ": [model] " + e.what());
  }
  // A model's quantities may follow its configuration (a method, an optional mission time), so
  // it declares again now that it is configured; its parameters are the same either way.
  model_spec configured;
  cfg.instance->declare(configured);
  cfg.spec = std::move(configured);
}

}  // namespace mcpilot::config_detail
