#include "storage/outage_parameters.hpp"

#include <sstream>

#include <string>
#include "mcpilot/number_text.hpp"
#include "storage/duration_parameters.hpp"

namespace mcpilot::storage {

namespace {

using kind = duration_law::kind;

std::string hours(double h) {
  std::ostringstream o;
  o << h;
  return o.str();
}

// One outage law under `prefix`: <prefix>rate_per_hour, <prefix>distribution, <prefix>mean_hours,
// <prefix>shape (e.g. "outage." or "domains.outage_").
outage_law read_law(const parameters& p, const std::string& rate_field, const std::string& prefix,
                    std::optional<double> mission) {
  outage_law o;
  const std::string dist = prefix + "distribution", mean = prefix + "mean_hours",
                    shape = prefix + "shape";
  if (!p.has(rate_field)) {
    for (const auto& f : {mean, shape})
      if (p.has(f))
        throw parameter_error(f, f + " is given but " + rate_field +
                                     " is not: without a rate there are no outages to last");
    return o;
  }
  o.rate = p.number(rate_field);
  if (!p.has(mean))
    throw parameter_error(mean, rate_field + " is given, so " + mean +
                                    " (the mean outage duration, hours) is needed too");
  const std::string& law = p.string(dist);
  o.duration.type = law == "deterministic" ? kind::deterministic
                    : law == "lognormal"   ? kind::lognormal
                                           : kind::exponential;
  o.duration.mean = p.number(mean);
  if (o.duration.type == kind::lognormal)
    o.duration.sigma = p.has(shape) ? p.number(shape) : default_lognormal_sigma;
  else if (p.has(shape))
    throw parameter_error(shape, shape + " applies to " + dist + " = lognormal only, not " + law);
  if (mission && o.duration.mean > *mission)
    throw parameter_error(mean, mean + " = " + hours(o.duration.mean) +
                                    " h is longer than mission_hours = " + hours(*mission) +
                                    " h: an outage that outlasts the mission is a failure; model "
                                    "it with the lifetime or domains.failure_rate_per_hour");
  return o;
}

void declare_law(model_spec& s, const std::string& rate_field, const std::string& prefix,
                 const std::string& what) {
  s.optional_number(rate_field, what + " per hour (absent: none)").positive();
  s.choice(prefix + "distribution", "exponential", {"exponential", "deterministic", "lognormal"},
           "law of " + what + "'s duration");
  s.optional_number(prefix + "mean_hours", "mean duration of " + what + ", hours").positive();
  s.optional_number(prefix + "shape", "sigma of ln(duration) (lognormal; 0.5 when absent)")
      .positive();
}

}  // namespace

void declare_outage_parameters(model_spec& s) {
  declare_law(s, "outage.rate_per_hour", "outage.",
              "a transient outage of a working device (down, then back with its data)");
}

void declare_domain_parameters(model_spec& s) {
  s.integer("domains.count", 0,
            "failure domains (racks, power domains), striped over the devices: device n is in "
            "domain n mod count (storage.group numbers disk i of group g as g x disks + i); 0: "
            "none")
      .at_least(0);
  declare_law(s, "domains.outage_rate_per_hour", "domains.outage_",
              "a domain outage (all its working devices down, then back)");
  s.optional_number("domains.failure_rate_per_hour",
                    "domain failures per domain per hour: every working device in the domain "
                    "fails at once (absent: none)")
      .positive();
}

outage_law read_outage(const parameters& p, std::optional<double> mission) {
  return read_law(p, "outage.rate_per_hour", "outage.", mission);
}

domain_config read_domains(const parameters& p, int devices, std::optional<double> mission) {
  domain_config d;
  d.count = static_cast<int>(p.integer("domains.count"));
  d.outage = read_law(p, "domains.outage_rate_per_hour", "domains.outage_", mission);
  if (p.has("domains.failure_rate_per_hour"))
    d.failure_rate = p.number("domains.failure_rate_per_hour");
  const bool events = d.outage.active() || d.failure_rate > 0;
  if (d.count == 0) {
    if (events)
      throw parameter_error(
          d.outage.active() ? "domains.outage_rate_per_hour" : "domains.failure_rate_per_hour",
          "domain events need domains.count: how many failure domains the devices sit in");
    return d;
  }
  if (!events)
    throw parameter_error("domains.count",
                          "domains.count is set but no domain event is: give "
                          "domains.outage_rate_per_hour or domains.failure_rate_per_hour");
  if (d.count > devices || devices % d.count != 0)
    throw parameter_error("domains.count", "domains.count = " + std::to_string(d.count) +
                                               " does not divide the " + std::to_string(devices) +
                                               " devices evenly: every domain must hold as many "
                                               "devices as every other");
  return d;
}

void check_event_streams(const outage_law& outage, const domain_config& domains, double latent_rate,
                         double devices, double span, const std::string& span_name) {
  const struct {
    const char* field;
    double rate, units;
    const char* per;
  } streams[] = {
      {"latent.rate_per_hour", latent_rate, devices, "devices"},
      {"outage.rate_per_hour", outage.rate, devices, "devices"},
      {"domains.failure_rate_per_hour", domains.failure_rate, static_cast<double>(domains.count),
       "domains"},
      {"domains.outage_rate_per_hour", domains.outage.rate, static_cast<double>(domains.count),
       "domains"},
  };
  for (const auto& e : streams) {
    const double events = e.rate * e.units * span;
    if (e.rate > 0 && !(events <= max_failures_per_mission))
      throw parameter_error(
          e.field, std::string(e.field) + " = " + number_text(e.rate) + " puts about " +
                       number_text(events) + " events in one replication (x " +
                       number_text(e.units) + " " + e.per + " x " + number_text(span) + " h, " +
                       span_name + "); at most " + number_text(max_failures_per_mission) +
                       " keep a replication within seconds");
  }
}

}  // namespace mcpilot::storage
