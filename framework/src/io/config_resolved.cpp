// The resolved config as JSON (experiment_config::resolved): every default filled in, model
// parameters nested back into tables as a user would write them.
#include <variant>

#include "config_support.hpp"
#include "mcpilot/io/analysis_json.hpp"
#include "mcpilot/io/config.hpp"

namespace mcpilot::config_detail {

namespace {

nlohmann::ordered_json to_json(const param_value& v) {
  return std::visit([](const auto& x) { return nlohmann::ordered_json(x); }, v);
}

// Parameters nested back into tables, as a user would write them.
nlohmann::ordered_json nested_parameters(const experiment_config& cfg) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  out["name"] = cfg.model_name;
  for (const auto& p : cfg.spec.parameter_specs()) {
    const auto& values = cfg.params.values();
    const auto v = values.find(p.name);
    nlohmann::ordered_json value =
        v == values.end() ? nlohmann::ordered_json(nullptr) : to_json(v->second);
    nlohmann::ordered_json* at = &out;
    const auto parts = split_dots(p.name);
    bool flat = false;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      auto& child = (*at)[parts[i]];
      if (child.is_null()) child = nlohmann::ordered_json::object();
      if (!child.is_object()) {
        flat = true;
        break;
      }
      at = &child;
    }
    if (flat)
      out[p.name] = std::move(value);
    else
      (*at)[parts.back()] = std::move(value);
  }
  return out;
}

}  // namespace

nlohmann::ordered_json resolve(const experiment_config& cfg, const config_overrides& overrides) {
  const auto& s = cfg.settings;
  nlohmann::ordered_json experiment = {
      {"name", cfg.name},
      {"seed", s.seed},
      {"preset", cfg.preset},
      {"threads", s.threads},
      {"max_replications", s.max_replications},
      {"max_seconds", s.max_seconds},
      {"streams", s.engine.streams},
  };
  if (cfg.spec.is_measurement()) {
    // A measurement runs one stream on one pinned thread, whatever threads and streams say.
    experiment["threads"] = 1;
    experiment["streams"] = 1;
    experiment["cpu"] = s.measurement.cpu ? nlohmann::ordered_json(*s.measurement.cpu)
                                          : nlohmann::ordered_json("where the session starts");
    experiment["counters"] = s.measurement.counters;
    experiment["min_reading_ms"] = s.measurement.min_reading_ms.value_or(default_min_reading_ms);
  }
  experiment.update(to_json(s.engine.session_precision));
  nlohmann::ordered_json quantities = nlohmann::ordered_json::array();
  for (const auto& q : cfg.spec.quantities()) {
    nlohmann::ordered_json j = {{"name", q.name},
                                {"unit", q.unit},
                                {"kind", std::string(to_string(q.kind))},
                                {"required", q.required},
                                {"derived", q.derived()}};
    j.update(to_json(q.precision.apply(s.engine.session_precision)));
    quantities.push_back(std::move(j));
  }
  nlohmann::ordered_json sets = overrides.sets;
  return {{"path", cfg.path},
          {"experiment", std::move(experiment)},
          {"model", nested_parameters(cfg)},
          {"quantity", std::move(quantities)},
          {"overrides", std::move(sets)}};
}

}  // namespace mcpilot::config_detail
