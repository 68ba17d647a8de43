#include "storage/duration_parameters.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "mcpilot/number_text.hpp"

namespace mcpilot::storage {

namespace {

using kind = duration_law::kind;

kind kind_of(const std::string& name) {
  if (name == "exponential") return kind::exponential;
  if (name == "weibull") return kind::weibull;
  if (name == "deterministic") return kind::deterministic;
  if (name == "lognormal") return kind::lognormal;
  return kind::none;
}

// A parameter that only some distributions use must not be given with the others: it would be
// silently ignored, and the user would believe it mattered.
void only_with(const parameters& p, const std::string& field, const std::string& law_field,
               const std::string& law, const std::string& users) {
  if (p.has(field))
    throw parameter_error(field,
                          field + " applies to " + law_field + " = " + users + " only, not " + law);
}

}  // namespace

void declare_lifetime_parameters(model_spec& s) {
  s.choice("lifetime.distribution", "exponential", {"exponential", "weibull"},
           "law of a device's time to failure");
  s.number("lifetime.mean_hours", 1e6, "mean time to failure (exponential)").positive();
  s.optional_number("lifetime.shape",
                    "Weibull shape (weibull; 1.12 in Elerath and Pecht's field data)")
      .positive();
  s.optional_number("lifetime.scale_hours",
                    "Weibull scale, hours (weibull; 461,386 in Elerath and Pecht)")
      .positive();
  s.number("lifetime.location_hours", 0, "Weibull location: no failure before this age (weibull)")
      .at_least(0);
}

void declare_repair_parameters(model_spec& s) {
  s.choice("repair.distribution", "exponential",
           {"exponential", "deterministic", "lognormal", "weibull", "none"},
           "law of a failed device's repair time; none: failed devices are never replaced");
  s.number("repair.mean_hours", 24, "mean repair time (exponential, deterministic, lognormal)")
      .positive();
  s.optional_number("repair.shape",
                    "Weibull shape (weibull), or sigma of ln(repair time) (lognormal; 0.5 "
                    "when absent)")
      .positive();
  s.optional_number("repair.scale_hours", "Weibull scale, hours (weibull)").positive();
  s.number("repair.location_hours", 0, "Weibull location: shortest repair, hours (weibull)")
      .at_least(0);
}

duration_law read_lifetime(const parameters& p) {
  duration_law d;
  const std::string& law = p.string("lifetime.distribution");
  d.type = kind_of(law);
  if (d.type == kind::exponential) {
    d.mean = p.number("lifetime.mean_hours");
    only_with(p, "lifetime.shape", "lifetime.distribution", law, "weibull");
    only_with(p, "lifetime.scale_hours", "lifetime.distribution", law, "weibull");
    if (p.number("lifetime.location_hours") != 0)
      throw parameter_error("lifetime.location_hours",
                            "lifetime.location_hours applies to lifetime.distribution = weibull "
                            "only, not exponential");
  } else {
    for (const char* f : {"lifetime.shape", "lifetime.scale_hours"})
      if (!p.has(f))
        throw parameter_error(f, std::string("lifetime.distribution = weibull needs ") + f);
    d.shape = p.number("lifetime.shape");
    d.scale = p.number("lifetime.scale_hours");
    d.location = p.number("lifetime.location_hours");
  }
  return d;
}

duration_law read_repair(const parameters& p) {
  duration_law d;
  const std::string& law = p.string("repair.distribution");
  d.type = kind_of(law);
  const bool weibull = d.type == kind::weibull;
  if (!weibull) {
    only_with(p, "repair.scale_hours", "repair.distribution", law, "weibull");
    if (p.number("repair.location_hours") != 0)
      throw parameter_error("repair.location_hours",
                            "repair.location_hours applies to repair.distribution = weibull "
                            "only, not " +
                                law);
    if (d.type != kind::lognormal)
      only_with(p, "repair.shape", "repair.distribution", law, "weibull or lognormal");
  }
  switch (d.type) {
    case kind::exponential:
    case kind::deterministic:
      d.mean = p.number("repair.mean_hours");
      break;
    case kind::lognormal:
      d.mean = p.number("repair.mean_hours");
      d.sigma = p.has("repair.shape") ? p.number("repair.shape") : default_lognormal_sigma;
      break;
    case kind::weibull:
      for (const char* f : {"repair.shape", "repair.scale_hours"})
        if (!p.has(f))
          throw parameter_error(f, std::string("repair.distribution = weibull needs ") + f);
      d.shape = p.number("repair.shape");
      d.scale = p.number("repair.scale_hours");
      d.location = p.number("repair.location_hours");
      break;
    case kind::none:
      break;
  }
  return d;
}

void check_laws(const duration_law& lifetime, const duration_law& repair, double horizon) {
  for (const auto& [law, field] : {std::pair{&lifetime, "lifetime"}, {&repair, "repair"}})
    if (const auto problem = check_law(*law, field, horizon))
      throw parameter_error(problem->field, problem->message);
}

void check_mission_failures(const duration_law& lifetime, double devices, double mission) {
  const double failures = devices * mission / std::max(lifetime.expected(), 1e-300);
  if (!(failures <= max_failures_per_mission))
    throw parameter_error("mission_hours",
                          "one replication would simulate about " + number_text(failures) +
                              " disk failures (devices x mission_hours / mean lifetime " +
                              lifetime.describe() + "); at most " +
                              number_text(max_failures_per_mission) +
                              " keep a replication within seconds");
}

}  // namespace mcpilot::storage
