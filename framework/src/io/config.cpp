#include "mcpilot/io/config.hpp"

#include <toml++/toml.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "../sweep/reader.hpp"
#include "config_support.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/analysis_json.hpp"

namespace mcpilot {

namespace {

using namespace config_detail;

// A parameter_error's message may or may not start with the field's name; say it once.
std::string with_field(const std::string& field, const std::string& message) {
  if (field.empty() || message.rfind(field, 0) == 0) return message;
  return field + ": " + message;
}

// --- typed fields -----------------------------------------------------------------------------

struct field_context {
  const locator& loc;
  std::string section;  // "[experiment]", "[model]", "[[quantity]] mttdl"
  std::string prefix;   // dotted path of the table, for --set origins: "experiment"
};

std::string where_of(const field_context& c, const toml::node& n, std::string_view field) {
  return c.loc.where(n.source(), c.prefix + "." + std::string(field));
}

double get_number(const field_context& c, const toml::node& n, std::string_view field) {
  if (n.is_integer()) return static_cast<double>(n.as_integer()->get());
  if (n.is_floating_point()) return n.as_floating_point()->get();
  fail(where_of(c, n, field), c.section, field,
       std::string("expected a number, got ") + describe_type(n));
}

std::int64_t get_integer(const field_context& c, const toml::node& n, std::string_view field) {
  if (n.is_integer()) return n.as_integer()->get();
  fail(where_of(c, n, field), c.section, field,
       std::string("expected an integer, got ") + describe_type(n));
}

bool get_bool(const field_context& c, const toml::node& n, std::string_view field) {
  if (n.is_boolean()) return n.as_boolean()->get();
  fail(where_of(c, n, field), c.section, field,
       std::string("expected true or false, got ") + describe_type(n));
}

std::string get_string(const field_context& c, const toml::node& n, std::string_view field) {
  if (n.is_string()) return n.as_string()->get();
  fail(where_of(c, n, field), c.section, field,
       std::string("expected a string, got ") + describe_type(n));
}

std::string fmt(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

// The precision fields shared by [experiment] and [[quantity]], each checked where it stands so
// that the message can name the line.
bool read_precision_field(const field_context& c, std::string_view key, const toml::node& n,
                          precision_override& out) {
  auto bad = [&](const std::string& msg) { fail(where_of(c, n, key), c.section, key, msg); };
  if (key == "confidence") {
    const double v = get_number(c, n, key);
    if (!(v > 0 && v < 1)) bad("must lie in (0, 1), got " + fmt(v));
    out.confidence = v;
  } else if (key == "ac") {
    const double v = get_number(c, n, key);
    if (!(v > 0 && v < 1)) bad("autocorrelation limit must lie in (0, 1), got " + fmt(v));
    out.autocorrelation_limit = v;
  } else if (key == "ci_perc") {
    const double v = get_number(c, n, key);
    if (!(v > 0) || !std::isfinite(v))
      bad("whole interval width as a fraction of the mean must be > 0, got " + fmt(v));
    out.ci_perc = v;
  } else if (key == "ci") {
    const double v = get_number(c, n, key);
    if (!(v > 0) || !std::isfinite(v))
      bad("whole interval width in the quantity's unit must be > 0, got " + fmt(v));
    out.ci_abs = v;
  } else if (key == "min_samples") {
    const std::int64_t v = get_integer(c, n, key);
    if (v < 2) bad("must be at least 2, got " + std::to_string(v));
    out.min_samples = static_cast<std::size_t>(v);
  } else {
    return false;
  }
  return true;
}

// --- the sections -----------------------------------------------------------------------------

constexpr std::string_view experiment_keys =
    "name, seed, preset, confidence, ac, ci_perc, ci, min_samples, threads, max_replications, "
    "max_seconds, streams";
constexpr std::string_view quantity_keys =
    "name, ci_perc, ci, confidence, ac, min_samples, required";

void read_experiment(const toml::table* table, const locator& loc, experiment_config& cfg) {
  cfg.preset = "normal";
  precision_override session;
  if (table) {
    const field_context c{loc, "[experiment]", "experiment"};
    for (auto&& [k, v] : *table) {
      const std::string key(k.str());
      auto bad = [&](const std::string& msg) { fail(where_of(c, v, key), c.section, key, msg); };
      if (read_precision_field(c, key, v, session)) continue;
      if (key == "name") {
        cfg.name = get_string(c, v, key);
      } else if (key == "seed") {
        const auto s = get_integer(c, v, key);
        if (s < 0) bad("must be >= 0, got " + std::to_string(s));
        cfg.settings.seed = static_cast<std::uint64_t>(s);
      } else if (key == "preset") {
        cfg.preset = get_string(c, v, key);
        if (!preset(cfg.preset))
          bad("unknown preset \"" + cfg.preset + "\" (known: quick, normal, strict)");
      } else if (key == "threads") {
        const auto t = get_integer(c, v, key);
        if (t < 0 || t > std::numeric_limits<int>::max())
          bad("must be >= 0 (0 = all cores), got " + std::to_string(t));
        cfg.settings.threads = static_cast<unsigned>(t);
      } else if (key == "max_replications") {
        const auto m = get_integer(c, v, key);
        if (m < 1) bad("must be >= 1, got " + std::to_string(m));
        cfg.settings.max_replications = static_cast<std::uint64_t>(m);
      } else if (key == "max_seconds") {
        const double s = get_number(c, v, key);
        if (!(s > 0)) bad("must be > 0, got " + fmt(s));
        cfg.settings.max_seconds = s;
      } else if (key == "streams") {
        const auto s = get_integer(c, v, key);
        if (s < 1) bad("must be >= 1, got " + std::to_string(s));
        cfg.settings.engine.streams = static_cast<std::size_t>(s);
      } else {
        fail(loc.where(k.source(), "experiment." + key), c.section, key,
             "unknown key (known: " + std::string(experiment_keys) + ")");
      }
    }
  }
  // The preset first, whatever the order in the file, then the fields given.
  cfg.settings.engine.session_precision = session.apply(*preset(cfg.preset));
  try {
    validate(cfg.settings.engine.session_precision);
  } catch (const input_error& e) {
    throw input_error(loc.source() + ": [experiment] " + e.what());
  }
}

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
  } catch (const parameter_error& e) {
    const std::string& field = e.field();
    if (auto it = given.find(field); it != given.end())
      throw input_error(it->second.where + ": [model] " + with_field(field, e.what()));
    if (cfg.spec.find_parameter(field)) {
      const auto& values = cfg.params.values();
      const auto v = values.find(field);
      throw input_error(loc.source() + ": [model] " + field + " (default" +
                        (v != values.end() ? " " + to_string(v->second) : std::string()) +
                        "): " + with_field(field, e.what()));
    }
    throw input_error(model_where + ": [model] " + with_field(field, e.what()));
  } catch (const input_error& e) {
    throw input_error(model_where + ": [model] " + e.what());
  }
  // A model's quantities may follow its configuration (a method, an optional mission time), so
  // it declares again now that it is configured; its parameters are the same either way.
  model_spec configured;
  cfg.instance->declare(configured);
  cfg.spec = std::move(configured);
}

void read_quantities(const toml::node* node, const locator& loc, experiment_config& cfg) {
  if (!node) return;
  const toml::array& entries = *node->as_array();
  std::set<std::string> seen;
  std::vector<std::string> known;
  for (const auto& q : cfg.spec.quantities()) known.push_back(q.name);
  for (const auto& entry : entries) {
    const toml::table& t = *entry.as_table();
    const std::string entry_where = loc.where(entry.source(), "quantity");
    const toml::node* name_node = t.get("name");
    if (!name_node) fail(entry_where, "[[quantity]]", "name", "missing: which quantity");
    const field_context named{loc, "[[quantity]]", "quantity"};
    quantity_override o;
    o.name = get_string(named, *name_node, "name");
    const field_context c{loc, "[[quantity]] " + o.name, "quantity." + o.name};
    const int index = cfg.spec.quantity_index(o.name);
    if (index < 0)
      fail(where_of(c, *name_node, "name"), "[[quantity]]", "name",
           "unknown quantity \"" + o.name + "\" of " + cfg.model_name +
               (known.empty() ? "" : " (known: " + join(known) + ")"));
    if (!seen.insert(o.name).second)
      fail(where_of(c, *name_node, "name"), "[[quantity]]", "name",
           "\"" + o.name + "\" appears twice; merge the entries");
    for (auto&& [k, v] : t) {
      const std::string key(k.str());
      if (key == "name" || read_precision_field(c, key, v, o.precision)) continue;
      if (key == "required") {
        o.required = get_bool(c, v, key);
      } else {
        fail(loc.where(k.source(), c.prefix + "." + key), c.section, key,
             "unknown key (known: " + std::string(quantity_keys) + ")");
      }
    }
    // The config's overrides refine the model's own declared ones.
    quantity_spec& q = cfg.spec.quantities()[static_cast<std::size_t>(index)];
    const auto& p = o.precision;
    if (p.autocorrelation_limit) q.precision.autocorrelation_limit = p.autocorrelation_limit;
    if (p.ci_perc) q.precision.ci_perc = p.ci_perc;
    if (p.ci_abs) q.precision.ci_abs = p.ci_abs;
    if (p.confidence) q.precision.confidence = p.confidence;
    if (p.min_samples) q.precision.min_samples = p.min_samples;
    if (o.required) q.required = *o.required;
    try {
      validate(q.precision.apply(cfg.settings.engine.session_precision));
    } catch (const input_error& e) {
      throw input_error(entry_where + ": " + c.section + ": " + e.what());
    }
    cfg.quantity_overrides.push_back(std::move(o));
  }
}

}  // namespace

experiment_config parse_config(std::string_view text, const std::string& source,
                               const model_registry& models, const config_overrides& overrides) {
  locator loc(source);
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw input_error(source + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) +
                      ": " + std::string(e.description()));
  }
  for (const auto& s : overrides.sets) apply_set(root, s, "", loc);
  for (const auto& p : overrides.point) apply_set(root, p.assignment, p.origin, loc);

  for (auto&& [k, v] : root) {
    const std::string key(k.str());
    const std::string where = loc.where(k.source(), key);
    if (key == "experiment" || key == "model") {
      if (!v.is_table())
        fail(where, "[" + key + "]", "", std::string("expected a table, got ") + describe_type(v));
    } else if (key == "sweep") {
      continue;  // read below, once the model's parameters are known
    } else if (key == "quantity") {
      const auto* a = v.as_array();
      bool ok = a != nullptr;
      if (a)
        for (const auto& e : *a) ok = ok && e.is_table();
      if (!ok)
        fail(where, "[[quantity]]", "",
             "expected an array of tables ([[quantity]] entries), got " +
                 std::string(describe_type(v)));
    } else {
      fail(where, "top level", key,
           "unknown section (known: [experiment], [model], [[quantity]], [sweep])");
    }
  }

  experiment_config cfg;
  cfg.path = source;
  read_experiment(root.get_as<toml::table>("experiment"), loc, cfg);
  if (cfg.name.empty()) cfg.name = std::filesystem::path(source).stem().string();
  if (overrides.seed) cfg.settings.seed = *overrides.seed;
  if (overrides.threads) cfg.settings.threads = *overrides.threads;
  read_model(root.get("model"), loc, models, cfg);
  read_quantities(root.get("quantity"), loc, cfg);
  if (const toml::node* sweep = root.get("sweep")) {
    cfg.sweep = read_sweep(*sweep, source);
    check_sweep_keys(*cfg.sweep, cfg.spec, cfg.model_name, overrides.sets);
  }
  cfg.resolved = resolve(cfg, overrides);
  return cfg;
}

std::string read_config_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(path + ": cannot read the config file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw input_error(path + ": cannot read the config file");
  return text.str();
}

experiment_config load_config(const std::string& path, const model_registry& models,
                              const config_overrides& overrides) {
  return parse_config(read_config_file(path), path, models, overrides);
}

}  // namespace mcpilot
