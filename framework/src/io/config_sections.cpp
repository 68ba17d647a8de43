// The [experiment] and [[quantity]] sections of a config.
#include <limits>
#include <set>

#include "config_support.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/measure/measurement.hpp"
#include "mcpilot/memory.hpp"

namespace mcpilot::config_detail {

namespace {

constexpr std::string_view experiment_keys =
    "name, seed, preset, confidence, ac, ci_perc, ci, min_samples, interval, max_side_ratio, "
    "threads, max_replications, max_seconds, streams, cpu, counters, min_reading_ms";
constexpr std::string_view quantity_keys =
    "name, ci_perc, ci, confidence, ac, min_samples, interval, max_side_ratio, required";

// Measurement models only (docs/writing-a-model.md, "Measurement mode"): the core to pin to, and
// the perf counters to read over each timed region.
void read_measurement_field(const field_context& c, const std::string& key, const toml::node& v,
                            measurement_settings& out) {
  const std::string where = where_of(c, v, key);
  if (key == "cpu") {
    const auto cpu = get_integer(c, v, key);
    if (cpu < 0 || cpu > std::numeric_limits<int>::max())
      fail(where, c.section, key, "must be a CPU number >= 0, got " + std::to_string(cpu));
    check_cpu_allowed(static_cast<int>(cpu), where + ": [experiment] cpu");
    out.cpu = static_cast<int>(cpu);
    return;
  }
  if (key == "min_reading_ms") {
    const double ms = get_number(c, v, key);
    // Up to a minute: a longer reading is a typo for seconds, not a protocol.
    if (!(ms >= 0 && ms <= 60000))
      fail(where, c.section, key, "must be between 0 and 60000 ms, got " + fmt(ms));
    out.min_reading_ms = ms;
    return;
  }
  const auto* a = v.as_array();
  if (!a)
    fail(where, c.section, key,
         std::string("expected a list of counter names, got ") + describe_type(v));
  out.counters.clear();
  for (const auto& e : *a) {
    if (!e.is_string()) fail(where, c.section, key, "expected counter names (strings)");
    out.counters.push_back(e.as_string()->get());
  }
  check_counter_names(out.counters, where + ": [experiment] counters");
}

}  // namespace

void read_experiment(const toml::table* table, const locator& loc, experiment_config& cfg) {
  cfg.preset = "normal";
  precision_override session;
  if (table) {
    const field_context c{loc, "[experiment]", "experiment"};
    for (auto&& [k, v] : *table) {
      const std::string key(k.str());
      // Not [&] alone: clang 14 (the fuzz build) cannot capture a structured binding.
      auto bad = [&, &node = v](const std::string& msg) {
        fail(where_of(c, node, key), c.section, key, msg);
      };
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
        if (t < 0 || t > static_cast<std::int64_t>(max_threads))
          bad("must be in [0, " + std::to_string(max_threads) + "] (0 = all cores), got " +
              std::to_string(t));
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
        if (s < 1 || s > max_streams)
          bad("must be in [1, " + std::to_string(max_streams) + "], got " + std::to_string(s));
        cfg.settings.engine.streams = static_cast<std::size_t>(s);
      } else if (key == "cpu" || key == "counters" || key == "min_reading_ms") {
        read_measurement_field(c, key, v, cfg.settings.measurement);
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
    if (index < 0) {
      if (const std::string* why = cfg.spec.why_not_estimated(o.name))
        fail(where_of(c, *name_node, "name"), "[[quantity]]", "name",
             "\"" + o.name + "\" is not estimated by " + cfg.model_name +
                 " with these settings: " + *why);
      fail(where_of(c, *name_node, "name"), "[[quantity]]", "name",
           "unknown quantity \"" + o.name + "\" of " + cfg.model_name +
               (known.empty() ? "" : " (known: " + join(known) + ")"));
    }
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
    q.precision.refine(o.precision);
    if (o.required) q.required = *o.required;
    try {
      validate(q.precision.apply(cfg.settings.engine.session_precision));
    } catch (const input_error& e) {
      throw input_error(entry_where + ": " + c.section + ": " + e.what());
    }
    cfg.quantity_overrides.push_back(std::move(o));
  }
}

}  // namespace mcpilot::config_detail
