#include "storage/storage_model.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "storage/group_chain.hpp"
#include "storage/law_parameters.hpp"

namespace mcpilot::storage {

namespace {

using kind = duration_law::kind;

// The regenerative ratio: mean cycle length over the probability that a cycle ends in loss.
double ratio_of_means(std::span<const double> m) {
  return m[0] / m[1];
}

}  // namespace

void storage_model::declare(model_spec& s) const {
  s.describe(
      "Storage reliability: `groups` redundancy groups of `disks` devices, each surviving "
      "`tolerance` concurrent failures (RAID-5/6, replication, erasure codes). Time to data "
      "loss and loss within a mission; exact Markov answers where lifetimes and repairs are "
      "exponential; importance sampling for rare losses.");
  s.integer("disks", 10, "devices per redundancy group").in_range(1, 1024);
  s.integer("tolerance", 2,
            "concurrent failures a group survives (RAID-5: 1, RAID-6: 2, r-way replication: r-1, "
            "k-of-n erasure code: n-k); below disks")
      .at_least(0);
  s.integer("groups", 1, "independent redundancy groups; the system loses data when any does")
      .in_range(1, 1'000'000);
  declare_laws(s, "disk");
  s.number("rebuild_error_probability", 0,
           "probability that a rebuild which has no redundancy left hits an unrecoverable read "
           "error, losing data")
      .in_range(0, 1);
  s.number("latent.rate_per_hour", 0, "latent sector errors per working disk per hour").at_least(0);
  s.optional_number("scrub.interval_hours",
                    "time between scrubs, which clear latent errors (absent: they stay until the "
                    "disk is replaced)")
      .positive();
  s.optional_number("mission_hours",
                    "mission time for loss_in_mission, hours (87,600 = 10 years); absent: no "
                    "loss_in_mission")
      .positive();
  s.choice("method", "naive", {"naive", "importance"},
           "naive: simulate each system to its data loss; importance: regenerative cycles with "
           "balanced failure biasing, for rare losses (exponential laws, no latent errors)");

  if (!importance_) {
    s.quantity("mttdl_hours")
        .with_unit("h")
        .describe("time to data loss of the system, all disks new at time 0; one per replication");
    if (mission_)
      s.proportion("loss_in_mission")
          .describe("1 if the system loses data within mission_hours, else 0");
  } else {
    s.quantity("cycle_hours")
        .with_unit("h")
        .optional()
        .describe(
            "expected length of a regenerative cycle (from all disks up until all up again or "
            "loss) given the states it visits; its mean is E[cycle length]");
    s.quantity("cycle_loss_probability")
        .optional()
        .describe(
            "1{loss} x likelihood ratio of a failure-biased cycle; its mean is P(a cycle ends in "
            "data loss)");
    s.derived("mttdl_hours", {"cycle_hours", "cycle_loss_probability"}, ratio_of_means)
        .with_unit("h")
        .describe("mean time to data loss = E[cycle length] / P(cycle ends in loss)");
    if (mission_)
      s.quantity("loss_in_mission")
          .describe(
              "per mission, the sum over its excursions from all disks up of a failure-biased "
              "estimate of their chance of loss before the mission ends (importance sampling); "
              "its mean is P(loss within mission_hours)");
  }
}

void storage_model::configure(const parameters& p) {
  group_config g;
  g.disks = static_cast<int>(p.integer("disks"));
  g.tolerance = static_cast<int>(p.integer("tolerance"));
  if (g.tolerance >= g.disks)
    throw parameter_error("tolerance",
                          "tolerance must be below disks: a group of " + std::to_string(g.disks) +
                              " disks survives at most " + std::to_string(g.disks - 1) +
                              " failures (got tolerance " + std::to_string(g.tolerance) + ")");
  g.lifetime = read_lifetime(p);
  g.repair = read_repair(p);
  g.parallel = p.boolean("repair.parallel");
  g.rebuild_error = p.number("rebuild_error_probability");
  g.latent_rate = p.number("latent.rate_per_hour");
  g.scrub_interval = p.optional_number("scrub.interval_hours").value_or(0);
  if (g.latent_rate > 0 && g.tolerance == 0)
    throw parameter_error("latent.rate_per_hour",
                          "latent errors need tolerance >= 1: they lose data when a failure "
                          "removes the last redundancy while one is present, and with tolerance "
                          "0 every failure already loses data");
  groups_ = static_cast<int>(p.integer("groups"));
  mission_ = p.optional_number("mission_hours");
  importance_ = p.string("method") == "importance";

  const bool markov = g.lifetime.type == kind::exponential &&
                      (g.repair.type == kind::exponential || g.repair.type == kind::none) &&
                      g.latent_rate == 0;
  if (importance_) {
    std::string why;
    if (g.lifetime.type != kind::exponential)
      why = "lifetime.distribution is " + p.string("lifetime.distribution");
    else if (g.repair.type != kind::exponential)
      why = "repair.distribution is " + p.string("repair.distribution");
    else if (g.latent_rate > 0)
      why = "latent.rate_per_hour is not 0";
    if (!why.empty())
      throw parameter_error(
          "method",
          "method = importance needs exponential lifetimes and repairs and no latent errors "
          "(its regenerative cycles restart whenever all disks are up, which only memoryless "
          "laws allow), but " +
              why + "; use method = naive");
  }
  group_ = g;

  exact_.clear();
  if (markov) {
    chain_.group.disks = g.disks;
    chain_.group.tolerance = g.tolerance;
    chain_.group.failure_rate = 1 / g.lifetime.mean;
    chain_.group.repair_rate = g.repair.type == kind::none ? 0.0 : 1 / g.repair.mean;
    chain_.group.parallel = g.parallel;
    chain_.group.rebuild_error = g.rebuild_error;
    chain_.groups = groups_;
    const auto G = static_cast<std::size_t>(groups_);
    try {
      exact_["mttdl_hours"] = system_mttdl(chain_.group, G);
      if (mission_) exact_["loss_in_mission"] = system_loss_by(chain_.group, G, *mission_);
    } catch (const std::domain_error&) {
      exact_.clear();  // a chain the exact solvers cannot handle: no analytic value, not an error
    }
  }
}

void storage_model::replicate(replication& r) const {
  if (importance_) {
    r.record(0, cycle_hours(chain_, r.rng()));
    r.record(1, cycle_loss_weight(chain_, r.rng()));
    if (mission_) r.record(3, mission_loss_weight(chain_, *mission_, r.rng()));
    return;
  }
  // The system loses data when its first group does. Groups advance together to a horizon that
  // doubles from one disk's mean life, so none is followed far past the system's loss.
  const double loss =
      simulate_system(group_, groups_, group_.lifetime.expected() / group_.disks, r.rng());
  r.record(0, loss);
  if (mission_) r.record(1, loss <= *mission_ ? 1.0 : 0.0);
}

std::map<std::string, double> storage_model::analytic() const {
  return exact_;
}

}  // namespace mcpilot::storage
