#include "reader.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <variant>

#include "../io/config_support.hpp"
#include "mcpilot/error.hpp"

namespace mcpilot::config_detail {

namespace {

struct located_value {
  std::string key;
  const toml::node* value;
  toml::source_region at;  // the key's
};

bool before(const toml::source_region& a, const toml::source_region& b) {
  if (a.begin.line != b.begin.line) return a.begin.line < b.begin.line;
  return a.begin.column < b.begin.column;
}

// Quoted keys ("model.disks" = ...) arrive whole; unquoted ones (model.disks = ...) arrive as
// nested tables: both flatten to the dotted path. A table holding `geometric` is a generator.
void flatten(const toml::table& t, const std::string& prefix, std::vector<located_value>& out) {
  for (auto&& [k, v] : t) {
    const std::string key =
        prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const auto* sub = v.as_table(); sub && !sub->contains("geometric")) {
      flatten(*sub, key, out);
      continue;
    }
    out.push_back({key, &v, k.source()});
  }
}

double number_of(const toml::node& n, const std::string& where, const std::string& field) {
  if (n.is_integer()) return static_cast<double>(n.as_integer()->get());
  if (n.is_floating_point()) return n.as_floating_point()->get();
  fail(where, "[sweep]", field, std::string("expected a number, got ") + describe_type(n));
}

sweep_axis read_list(const std::string& key, const toml::array& list, const std::string& where,
                     const std::string& source) {
  sweep_axis axis{key, {}, false, where};
  if (list.empty()) fail(where, "[sweep]", key, "empty list: give at least one value");
  for (const auto& e : list) {
    if (e.is_integer())
      axis.values.emplace_back(e.as_integer()->get());
    else if (e.is_floating_point())
      axis.values.emplace_back(e.as_floating_point()->get());
    else if (e.is_boolean())
      axis.values.emplace_back(e.as_boolean()->get());
    else if (e.is_string())
      axis.values.emplace_back(e.as_string()->get());
    else
      fail(position(source, e.source()), "[sweep]", key,
           std::string("a value must be a number, string or boolean, got ") + describe_type(e));
  }
  return axis;
}

sweep_axis read_geometric(const std::string& key, const toml::table& g, const std::string& where,
                          const std::string& source) {
  sweep_axis axis{key, {}, true, where};
  for (auto&& [k, v] : g) {
    const std::string f(k.str());
    if (f != "geometric" && f != "factor" && f != "round")
      fail(position(source, k.source()), "[sweep]", key + "." + f,
           "unknown key of a geometric range (known: geometric, factor, round)");
  }
  const toml::node& range = *g.get("geometric");
  const std::string range_where = position(source, range.source());
  const auto* bounds = range.as_array();
  if (!bounds || bounds->size() != 2)
    fail(range_where, "[sweep]", key + ".geometric", "expected [lo, hi], two numbers");
  const double lo = number_of(*bounds->get(0), range_where, key + ".geometric");
  const double hi = number_of(*bounds->get(1), range_where, key + ".geometric");
  if (!(lo > 0) || !std::isfinite(hi))
    fail(range_where, "[sweep]", key + ".geometric",
         "lo must be > 0 and hi finite for a geometric range, got [" + toml_text(lo) + ", " +
             toml_text(hi) + "]");
  if (lo > hi)
    fail(range_where, "[sweep]", key + ".geometric",
         "wrong order: lo " + toml_text(lo) + " > hi " + toml_text(hi) + "; write [lo, hi]");
  const toml::node* factor_node = g.get("factor");
  if (!factor_node)
    fail(where, "[sweep]", key + ".factor", "missing: the ratio of one value to the previous");
  const std::string factor_where = position(source, factor_node->source());
  const double factor = number_of(*factor_node, factor_where, key + ".factor");
  if (!(factor > 1) || !std::isfinite(factor))
    fail(factor_where, "[sweep]", key + ".factor",
         "must be > 1 (each value the previous times factor), got " + toml_text(factor));
  bool round_integer = false;
  if (const toml::node* r = g.get("round")) {
    if (!r->is_string() || r->as_string()->get() != "integer")
      fail(position(source, r->source()), "[sweep]", key + ".round",
           "the only rounding is \"integer\"");
    round_integer = true;
  }
  if (std::log(hi / lo) / std::log(factor) > static_cast<double>(max_sweep_points))
    fail(factor_where, "[sweep]", key, "more than " + std::to_string(max_sweep_points) + " values");
  axis.values = geometric_values(lo, hi, factor, bounds->get(0)->is_integer(),
                                 factor_node->is_integer(), round_integer);
  return axis;
}

}  // namespace

sweep_plan read_sweep(const toml::node& node, const std::string& source) {
  sweep_plan plan;
  plan.where = position(source, node.source());
  const toml::table* table = node.as_table();
  if (!table)
    fail(plan.where, "[sweep]", "", std::string("expected a table, got ") + describe_type(node));
  std::vector<located_value> entries;
  flatten(*table, "", entries);
  // toml++ keeps keys sorted; the points nest in the order the user wrote them.
  std::sort(entries.begin(), entries.end(),
            [](const located_value& a, const located_value& b) { return before(a.at, b.at); });
  for (const auto& e : entries) {
    const std::string where = position(source, e.at);
    if (e.key == "mode") {
      const std::string mode = e.value->is_string() ? e.value->as_string()->get() : "";
      if (mode == "product")
        plan.mode = sweep_mode::product;
      else if (mode == "zip")
        plan.mode = sweep_mode::zip;
      else
        fail(where, "[sweep]", "mode",
             "unknown mode " +
                 (e.value->is_string() ? "\"" + mode + "\"" : describe_type(*e.value)) +
                 " (known: \"product\", every combination; \"zip\", the k-th value of every key)");
      continue;
    }
    if (const auto* list = e.value->as_array())
      plan.axes.push_back(read_list(e.key, *list, where, source));
    else if (const auto* g = e.value->as_table())
      plan.axes.push_back(read_geometric(e.key, *g, where, source));
    else
      fail(where, "[sweep]", e.key,
           std::string("expected a list of values or { geometric = [lo, hi], factor = F }, got ") +
               describe_type(*e.value));
  }
  if (plan.axes.empty()) fail(plan.where, "[sweep]", "", "no keys: nothing to sweep");
  if (plan.mode == sweep_mode::zip) {
    const sweep_axis& first = plan.axes.front();
    for (const auto& a : plan.axes)
      if (a.values.size() != first.values.size())
        fail(a.where, "[sweep]", a.key,
             "zip needs lists of the same length: " + a.key + " has " +
                 std::to_string(a.values.size()) + " values, " + first.key + " has " +
                 std::to_string(first.values.size()));
  } else {
    double n = 1;
    for (const auto& a : plan.axes) n *= static_cast<double>(a.values.size());
    if (n > static_cast<double>(max_sweep_points))
      fail(plan.where, "[sweep]", "", "more than " + std::to_string(max_sweep_points) + " points");
  }
  return plan;
}

void check_sweep_keys(const sweep_plan& plan, const model_spec& spec, const std::string& model_name,
                      const std::vector<std::string>& sets) {
  static const std::set<std::string> experiment_fields = {
      "preset",      "confidence",       "ac",          "ci_perc", "ci",
      "min_samples", "max_replications", "max_seconds", "streams"};
  static const std::set<std::string> quantity_fields = {"ci_perc", "ci",          "confidence",
                                                        "ac",      "min_samples", "required"};
  std::set<std::string> seen;
  for (const auto& a : plan.axes) {
    if (!seen.insert(a.key).second) fail(a.where, "[sweep]", a.key, "appears twice");
    const auto parts = split_dots(a.key);
    auto refuse = [&](const std::string& why) { fail(a.where, "[sweep]", a.key, why); };
    const std::string rest = a.key.substr(a.key.find('.') + 1);
    if (parts.size() >= 2 && parts.front() == "model") {
      if (rest == "name") refuse("the model cannot be swept; write one config per model");
      const parameter_spec* p = spec.find_parameter(rest);
      if (!p) {
        std::vector<std::string> known;
        for (const auto& s : spec.parameter_specs()) known.push_back("model." + s.name);
        refuse("not a parameter of " + model_name +
               (known.empty() ? " (it takes none)" : " (known: " + join(known) + ")"));
      }
      // A geometric range's values were not written by the user: say how to make them integers.
      if (p->type == param_type::integer && a.geometric &&
          std::holds_alternative<double>(a.values.front()))
        refuse(
            "an integer parameter, and this range gives floating-point values; add "
            "round = \"integer\"");
    } else if (parts.size() == 2 && parts.front() == "experiment") {
      if (rest == "seed")
        refuse(
            "each point's seed is derived from experiment.seed and the point's index; "
            "sweep something else");
      if (!experiment_fields.contains(rest))
        refuse("not a field a sweep can set (known: experiment." +
               join(std::vector<std::string>(experiment_fields.begin(), experiment_fields.end()),
                    ", experiment.") +
               ")");
    } else if (parts.size() >= 3 && parts.front() == "quantity") {
      const std::string name =
          join(std::vector<std::string>(parts.begin() + 1, parts.end() - 1), ".");
      if (spec.quantity_index(name) < 0)
        refuse("\"" + name + "\" is not a quantity of " + model_name);
      if (!quantity_fields.contains(parts.back()))
        refuse(
            "not a field of [[quantity]] (known: ci_perc, ci, confidence, ac, min_samples, "
            "required)");
    } else {
      refuse(
          "not a parameter: a sweep key is model.PARAM, experiment.FIELD or "
          "quantity.NAME.FIELD");
    }
  }
  for (const auto& s : sets) {
    const std::string key = trim(std::string_view(s).substr(0, s.find('=')));
    for (const auto& a : plan.axes)
      if (key == a.key)
        throw input_error("--set " + key + ": the key is swept (" + a.where +
                          "); change the [sweep] list instead");
  }
}

}  // namespace mcpilot::config_detail
