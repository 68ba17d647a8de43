#include "storage/method_choice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "storage/group_chain.hpp"

namespace mcpilot::storage {

namespace {

constexpr double rare_probability = 1e-3;
constexpr double rare_failures_per_loss = 1e3;

std::string sci(double x) {
  std::ostringstream os;
  os.precision(2);
  os << x;
  return os.str();
}

}  // namespace

double naive_missions_needed(double p, double half) {
  const double z = 1.959963984540054;
  return (z / half) * (z / half) * (1 - p) / p;
}

namespace {

// The approximate chain's rates (the header's approximation), with or without a mission.
group_rates approximate_rates(const group_config& g, std::optional<double> mission) {
  group_rates r;
  r.disks = g.disks;
  r.tolerance = g.tolerance;
  r.parallel = g.parallel;
  const double life = g.lifetime.expected();
  r.failure_rate = mission ? g.lifetime.cumulative_hazard(*mission) / *mission : 1 / life;
  r.repair_rate = g.repair.type == duration_law::kind::none ? 0.0 : 1 / g.repair.expected();
  double keep = 1 - g.rebuild_error;
  if (g.latent_rate > 0) {
    const double exposure =
        g.scrub_interval > 0 ? g.scrub_interval / 2 : std::min(life, mission.value_or(life)) / 2;
    keep *= std::exp(-g.latent_rate * exposure * (g.disks - g.tolerance));
  }
  r.rebuild_error = 1 - keep;
  return r;
}

double failures_per_loss(const group_rates& r, int groups) {
  return system_mttdl(r, static_cast<std::size_t>(groups)) * groups * r.disks * r.failure_rate;
}

}  // namespace

std::optional<double> approximate_failures_per_loss(const group_config& g, int groups) {
  const group_rates r = approximate_rates(g, std::nullopt);
  // Rebuilds too quick for a double (a mean of 1e-320 h) never let a group reach its loss.
  if (!std::isfinite(r.repair_rate)) return std::numeric_limits<double>::infinity();
  try {
    const double f = failures_per_loss(r, groups);
    return std::isnan(f) ? std::numeric_limits<double>::infinity() : f;
  } catch (const std::domain_error&) {
    return std::nullopt;
  }
}

method_choice choose_method(const group_config& g, int groups, std::optional<double> mission,
                            bool mttdl_by_importance) {
  method_choice c;
  if (!mission && !mttdl_by_importance) {
    c.reason =
        "auto chose naive: without mission_hours only mttdl_hours is asked for, and importance "
        "sampling estimates it only for exponential lifetimes and rebuilds without latent errors";
    return c;
  }
  const group_rates r = approximate_rates(g, mission);
  try {
    if (mission) {
      if (!(r.failure_rate > 0)) {
        c.importance = true;
        c.approximate_loss = 0;
        c.reason = "auto chose importance: no disk can fail within the mission (location)";
        return c;
      }
      const double p = system_loss_by(r, static_cast<std::size_t>(groups), *mission);
      c.approximate_loss = p;
      c.importance = p < rare_probability;
      c.reason = std::string("auto chose ") + (c.importance ? "importance" : "naive") +
                 ": an approximate Markov chain (exponential laws with the same mean rates) puts "
                 "P(loss in mission) near " +
                 sci(p) + (c.importance ? " < " : " >= ") + sci(rare_probability) +
                 "; naive would need about " + sci(naive_missions_needed(p)) +
                 " missions for +-10%";
    } else {
      const double failures = failures_per_loss(r, groups);
      c.importance = failures > rare_failures_per_loss;
      c.reason = std::string("auto chose ") + (c.importance ? "importance" : "naive") +
                 ": the Markov chain puts about " + sci(failures) + " disk failures before a loss" +
                 (c.importance ? " > " : " <= ") + sci(rare_failures_per_loss);
    }
  } catch (const std::domain_error&) {
    c.reason = "auto chose naive: the approximate Markov chain could not be solved";
  }
  return c;
}

}  // namespace mcpilot::storage
