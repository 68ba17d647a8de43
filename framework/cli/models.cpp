// `mcpilot models` lists what the executable knows; `mcpilot describe MODEL` shows one model's
// parameters (type, default, range, description), its quantities, and a [model] section to start
// a config from.

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/join.hpp"
#include "mcpilot/measure/measurement.hpp"
#include "mcpilot/model.hpp"
#include "mcpilot/number_text.hpp"

namespace mcpilot::cli {

namespace {

std::string range_text(const parameter_spec& p) {
  if (p.type == param_type::choice) return join(p.choices, " | ");
  if (!p.min && !p.max) return "";
  std::string s = p.min ? std::string(p.min_exclusive ? "(" : "[") + number_text(*p.min) : "(-inf";
  s += ", ";
  s += p.max ? number_text(*p.max) + "]" : "inf)";
  return s;
}

std::string known_models(const model_registry& models) {
  const auto names = models.names();
  return names.empty() ? "no models are registered" : "known: " + join(names, ", ");
}

model_spec declared(const model_registry& models, const std::string& name) {
  auto m = models.create(name);
  if (!m) throw input_error("unknown model \"" + name + "\" (" + known_models(models) + ")");
  model_spec spec;
  m->declare(spec);
  return spec;
}

// The first sentence of a description: `models` lists one line per model.
std::string first_sentence(const std::string& text) {
  const auto end = text.find(". ");
  return end == std::string::npos ? text : text.substr(0, end + 1);
}

int list_models(const model_registry& models) {
  const auto names = models.names();
  if (names.empty()) {
    std::cout << "no models are registered in this executable\n";
    return exit_ok;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& name : names)
    rows.push_back({name, first_sentence(declared(models, name).description())});
  write_columns(std::cout, rows, {true, true}, 2);
  std::cout << "\n`describe MODEL` shows a model's parameters and quantities.\n";
  return exit_ok;
}

// A model's quantities may follow its configuration, so they are shown for the defaults: the
// model is configured with them and declares again. A model whose defaults alone do not configure
// (a required combination) keeps its first declaration.
model_spec declared_with_defaults(const model_registry& models, const std::string& name,
                                  const model_spec& first) {
  auto m = models.create(name);
  parameters defaults;
  for (const auto& p : first.parameter_specs())
    if (p.default_value) defaults.set(p.name, *p.default_value);
  try {
    m->configure(defaults);
    model_spec again;
    m->declare(again);
    // Measurement models: the time quantities the session adds (counters come from the config).
    if (again.is_measurement()) declare_measurement_quantities(again, {});
    return again;
  } catch (const std::exception&) {
    return first;
  }
}

int describe_model(const model_registry& models, const std::string& name) {
  const model_spec spec = declared(models, name);
  const model_spec configured = declared_with_defaults(models, name, spec);
  std::ostream& out = std::cout;
  out << name;
  if (!spec.description().empty()) out << ": " << spec.description();
  out << "\nstyle: "
      << (spec.is_measurement()
              ? "measurement (timed batches on one pinned thread, one stream in time order)"
          : spec.is_stream_style()
              ? "stream (steady state: long autocorrelated runs, warm-up removed per stream)"
              : "replication (independent replications, one reading per quantity each)")
      << "\n\nparameters:\n";
  if (spec.parameter_specs().empty()) {
    out << "  none\n";
  } else {
    std::vector<std::vector<std::string>> rows = {
        {"name", "type", "default", "range", "description"}};
    for (const auto& p : spec.parameter_specs())
      rows.push_back({p.name, std::string(to_string(p.type)),
                      p.default_value ? to_string(*p.default_value) : "(none: optional)",
                      range_text(p), p.description});
    write_columns(out, rows, {true, true, true, true, true}, 2);
  }

  out << "\nquantities (with the default parameters):\n";
  std::vector<std::vector<std::string>> rows = {
      {"name", "unit", "kind", "required", "description"}};
  for (const auto& q : configured.quantities()) {
    std::string kind(to_string(q.kind));
    if (q.derived()) kind = "derived from " + join(q.inputs, ", ");
    rows.push_back(
        {q.name, q.unit.empty() ? "-" : q.unit, kind, q.required ? "yes" : "no", q.description});
  }
  write_columns(out, rows, {true, true, true, true, true}, 2);

  // Ready to paste into a config: every parameter at its default.
  out << "\nconfig section with the defaults:\n\n[model]\nname = \"" << name << "\"\n";
  for (const auto& p : spec.parameter_specs()) {
    if (p.default_value)
      out << p.name << " = " << to_string(*p.default_value) << '\n';
    else
      out << "# " << p.name << " = (optional number)\n";
  }
  return exit_ok;
}

}  // namespace

void add_models_commands(CLI::App& app, context& ctx) {
  app.add_subcommand("models", "List the models this executable knows")->callback([&ctx] {
    ctx.result = list_models(*ctx.models);
  });
  auto name = std::make_shared<std::string>();
  CLI::App* describe =
      app.add_subcommand("describe", "Show a model's parameters, defaults and quantities");
  describe->add_option("model", *name, "model name (see `models`)")->required();
  describe->callback([name, &ctx] { ctx.result = describe_model(*ctx.models, *name); });
}

}  // namespace mcpilot::cli
