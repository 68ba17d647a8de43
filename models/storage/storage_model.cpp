#include "storage/storage_model.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "mcpilot/number_text.hpp"
#include "storage/availability_chain.hpp"
#include "storage/availability_importance.hpp"
#include "storage/domain_chain.hpp"
#include "storage/down_out_chain.hpp"
#include "storage/down_set_chain.hpp"
#include "storage/duration_parameters.hpp"
#include "storage/failure_biasing.hpp"
#include "storage/group_chain.hpp"
#include "storage/method_choice.hpp"
#include "storage/outage_parameters.hpp"
#include "storage/system_mission.hpp"
#include "storage/unrepaired_group.hpp"
#include "storage/walked_quantities.hpp"

namespace mcpilot::storage {

namespace {

using kind = duration_law::kind;

}  // namespace

namespace {

void declare_nines(model_spec& s, double mission) {
  declare_durability_nines(s, mission);
}

}  // namespace

void storage_model::declare(model_spec& s) const {
  s.describe(
      "Storage reliability: `groups` redundancy groups of `disks` devices, each surviving "
      "`tolerance` concurrent failures (RAID-5/6, replication, erasure codes), with transient "
      "outages (outage.*) and failure domains (domains.*). Quantities: mttdl_hours; with "
      "mission_hours, loss_in_mission and durability_nines (every method), and fraction_lost, "
      "unavailability and unavailable_events_per_year (naive); with method = importance and "
      "outages, the long-run unavailability and unavailable_events_per_year. Exact Markov "
      "answers where lifetimes and repairs are exponential, and without repair for any "
      "lifetime; importance sampling for rare losses and rare unavailability.");
  s.integer("disks", 10, "devices per redundancy group").in_range(1, 1024);
  s.integer("tolerance", 2,
            "concurrent failures a group survives (RAID-5: 1, RAID-6: 2, r-way replication: r-1, "
            "k-of-n erasure code: n-k); below disks")
      .in_range(0, 1023);
  s.integer("groups", 1, "independent redundancy groups; the system loses data when any does")
      .in_range(1, 1'000'000);
  declare_lifetime_parameters(s);
  declare_repair_parameters(s);
  s.boolean("repair.parallel", false,
            "rebuild all failed disks of a group at once (false: one at a time)");
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
  declare_outage_parameters(s);
  declare_domain_parameters(s);
  s.choice("method", "naive", {"naive", "importance", "auto"},
           "naive: simulate each system to its data loss; importance: for rare losses, "
           "regenerative cycles with balanced failure biasing (exponential laws, no latent "
           "errors: mttdl_hours and loss_in_mission), else failure biasing on the event "
           "simulation (any laws: loss_in_mission, needs mission_hours); auto: importance when "
           "loss is rare, naive otherwise, with the reason in the output");

  if (method_ == estimator::failure_biasing) {
    s.quantity("loss_in_mission")
        .describe(
            "per mission, the sum over its excursions (from a failure in a fully working group "
            "until all work again) of a failure-biased estimate of their chance of loss before "
            "the mission ends, given the disks' ages and defects (importance sampling, any "
            "laws); its mean is P(loss within mission_hours)");
    declare_nines(s, *mission_);
    return;
  }
  if (method_ == estimator::naive) {
    s.quantity("mttdl_hours")
        .with_unit("h")
        .describe("time to data loss of the system, all disks new at time 0; one per replication");
    if (mission_) {
      s.proportion("loss_in_mission")
          .describe("1 if the system loses data within mission_hours, else 0");
      declare_nines(s, *mission_);
      s.quantity("fraction_lost")
          .optional()
          .describe(
              "fraction of the groups (of the stored data) lost within the mission, per year of "
              "mission; its mean is the expected fraction of data lost per year");
      s.quantity("unavailability")
          .optional()
          .describe(
              "fraction of the mission during which some data is unavailable though not lost "
              "(more than tolerance devices of a group down, failed or out)");
      s.quantity("unavailable_events_per_year")
          .optional()
          .describe("periods of unavailability starting within the mission, per year of mission");
    }
  } else {
    declare_walked_loss(s, "disks", mission_);
    if (availability_by_importance()) {
      declare_availability_by_importance(s);
    } else {
      const std::string why =
          (any_outages() ? availability_gap_
                         : "no outages are configured (outage.rate_per_hour, "
                           "domains.outage_rate_per_hour), so data is never unavailable without "
                           "being lost") +
          "; method = naive estimates it over mission_hours";
      s.not_estimated("unavailability", why);
      s.not_estimated("unavailable_events_per_year", why);
    }
  }
  declare_absent_quantities(s);
}

// Quantities another method or a mission would give, each with the reason it is not given here.
void storage_model::declare_absent_quantities(model_spec& s) const {
  const std::string naive_mission = "method = naive estimates it with mission_hours";
  if (!mission_) {
    const std::string why = "it is defined over a mission: set mission_hours";
    for (const char* q : {"loss_in_mission", "durability_nines", "fraction_lost"})
      s.not_estimated(q, why);
    // Importance sampling estimates the long-run unavailability, which needs no mission.
    if (!(method_ == estimator::markov_chain && availability_by_importance()))
      for (const char* q : {"unavailability", "unavailable_events_per_year"})
        s.not_estimated(q, why);
    return;
  }
  if (method_ == estimator::naive) return;
  s.not_estimated(
      "fraction_lost",
      "method = importance estimates the chance of a loss, not how much is lost; " + naive_mission);
  if (method_ == estimator::failure_biasing) {
    const std::string why = "failure biasing on the event simulation (" + reason_ +
                            ") estimates loss_in_mission only; " + naive_mission;
    for (const char* q : {"mttdl_hours", "unavailability", "unavailable_events_per_year"})
      s.not_estimated(q, why);
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
  g.outage = read_outage(p, mission_);
  domains_ = read_domains(p, groups_ * g.disks, mission_);
  // Domain failures of one device each are device failures at a higher rate (exponential laws
  // fold them into lambda); with several devices per domain they are correlated.
  const bool domain_failures = domains_.count > 0 && domains_.failure_rate > 0;
  const bool one_per_domain = domains_.count == groups_ * g.disks;
  // Laws that a double cannot evaluate fail here, at configuration, never inside a replication.
  const double horizon = std::max(mission_.value_or(1.0), 1.0);
  check_laws(g.lifetime, g.repair, horizon);
  // A replication runs to the end of its mission before max_seconds is looked at again, so a
  // mission that holds billions of failures would never end: refused here, with the figure.
  // The per-year quantities divide by mission_hours / hours_per_year: a subnormal mission (5e-324
  // h) made that infinite, and every replication failed to record fraction_lost.
  if (mission_ && !std::isfinite(hours_per_year / *mission_))
    throw parameter_error("mission_hours", "mission_hours = " + number_text(*mission_) +
                                               " h is too short to count per year (" +
                                               number_text(hours_per_year) +
                                               " h / mission_hours overflows a double)");
  if (mission_)
    check_mission_failures(g.lifetime, static_cast<double>(g.disks) * groups_, *mission_);
  // The same for the other event streams, over the mission or, without one, a mean disk life.
  check_event_streams(g.outage, domains_, g.latent_rate, static_cast<double>(g.disks) * groups_,
                      mission_.value_or(g.lifetime.expected()),
                      mission_ ? "the mission" : "a mean disk life");

  const bool markov = g.lifetime.type == kind::exponential &&
                      (g.repair.type == kind::exponential || g.repair.type == kind::none) &&
                      g.latent_rate == 0;
  // The regenerative estimator needs cycles that end: memoryless lifetimes and rebuilds, and a
  // repair to bring the group back to all up.
  std::string not_regenerative;
  if (g.lifetime.type != kind::exponential)
    not_regenerative = "lifetime.distribution is " + p.string("lifetime.distribution");
  else if (g.repair.type != kind::exponential)
    not_regenerative = "repair.distribution is " + p.string("repair.distribution");
  else if (g.latent_rate > 0)
    not_regenerative = "latent.rate_per_hour is not 0";
  // Outages and domain outages never lose data, so the loss estimators ignore them; domain
  // failures they cannot carry, except one device per domain under exponential lifetimes.
  // Domains that hold several devices (of one group, or of several): importance sampling on the
  // explicit state, failed devices and rebuild queues (domain_walk.hpp), Markov under exponential
  // laws.
  const bool domain_walkable = domain_failures && !one_per_domain && not_regenerative.empty();
  std::string correlated;
  if (domain_failures && !(one_per_domain && not_regenerative.empty()) && !domain_walkable)
    correlated = one_per_domain ? "domains.failure_rate_per_hour with " + not_regenerative
                                : "domains.failure_rate_per_hour with " +
                                      std::to_string(groups_ * g.disks / domains_.count) +
                                      " devices per domain (correlated failures)";

  const std::string method = p.string("method");
  approximate_loss_ = -1;
  if (method == "naive") {
    method_ = estimator::naive;
    reason_ = "method = naive in the config";
  } else if (method == "importance" && !correlated.empty()) {
    throw parameter_error("method",
                          "method = importance does not cover " + correlated +
                              ": its likelihood ratios need memoryless laws to be those of a "
                              "Markov chain. Supported: method = naive (any domains, any laws); "
                              "domains with one device each and exponential lifetimes; or "
                              "exponential lifetimes and rebuilds without latent errors");
  } else if (method == "importance") {
    if (not_regenerative.empty()) {
      method_ = estimator::markov_chain;
      reason_ =
          "method = importance in the config; exponential laws: the Markov chain's "
          "regenerative cycles and excursions";
    } else if (mission_) {
      method_ = estimator::failure_biasing;
      reason_ = "method = importance in the config; " + not_regenerative +
                ": failure biasing on the event simulation, loss_in_mission only";
    } else {
      throw parameter_error(
          "method",
          "method = importance: " + not_regenerative +
              ", so it estimates loss_in_mission only, and needs mission_hours: mttdl_hours by "
              "importance sampling needs regenerative cycles, which only exponential lifetimes "
              "and rebuilds without latent errors give. Supported: set mission_hours (failure "
              "biasing, any laws), or method = naive (mttdl_hours, any laws), or method = auto");
    }
  } else if (!correlated.empty()) {
    method_ = estimator::naive;
    reason_ = "method = auto; " + correlated + ": only naive simulation covers them";
  } else {
    const auto c = choose_method(g, groups_, mission_, not_regenerative.empty());
    reason_ = c.reason;
    approximate_loss_ = c.approximate_loss;
    method_ = !c.importance              ? estimator::naive
              : not_regenerative.empty() ? estimator::markov_chain
                                         : estimator::failure_biasing;
  }
  // A naive replication follows each group to its loss (mttdl_hours), with or without a mission,
  // so its cost is the failures before a loss; a disk life of 2^63 h once made that endless.
  // Domain failures bring the loss sooner than the chain (which has none) says: not checked.
  if (method_ == estimator::naive && !domain_failures)
    if (const auto failures = approximate_failures_per_loss(g, groups_);
        failures && !(*failures <= max_failures_per_mission))
      throw parameter_error(
          "method",
          "method = naive follows each group to its data loss (for mttdl_hours), and "
          "an approximate Markov chain puts about " +
              number_text(*failures) + " disk failures before one (" + g.lifetime.describe() +
              "); at most " + number_text(max_failures_per_mission) +
              " keep a replication within seconds. Use method = importance, or "
              "shorter disk lives");
  group_ = g;

  domain_walk_.reset();
  if (method_ == estimator::markov_chain && domain_walkable) {
    domain_walk_rates w;
    w.groups = groups_;
    w.disks = g.disks;
    w.domains = domains_.count;
    w.tolerance = g.tolerance;
    w.failure_rate = 1 / g.lifetime.mean;
    w.domain_failure_rate = domains_.failure_rate;
    w.repair_rate = 1 / g.repair.mean;
    w.parallel = g.parallel;
    w.rebuild_error = g.rebuild_error;
    domain_walk_ = w;
    reason_ += "; domains of " + std::to_string(groups_ * g.disks / domains_.count) +
               " devices: the chain of failed devices, domain failures biased as a kind of "
               "failure";
  }
  exact_.clear();
  quadrature_error_ = -1;
  steady_unavailability_ = -1;
  availability_.reset();
  availability_gap_ = "the availability chain has no domain failures of several devices each";
  if (markov && (!domain_failures || one_per_domain)) {
    availability_gap_.clear();
    chain_.group.disks = g.disks;
    chain_.group.tolerance = g.tolerance;
    chain_.group.failure_rate = 1 / g.lifetime.mean + (domain_failures ? domains_.failure_rate : 0);
    chain_.group.repair_rate = g.repair.type == kind::none ? 0.0 : 1 / g.repair.mean;
    chain_.group.parallel = g.parallel;
    chain_.group.rebuild_error = g.rebuild_error;
    chain_.groups = groups_;
    const auto G = static_cast<std::size_t>(groups_);
    try {
      exact_["mttdl_hours"] = system_mttdl(chain_.group, G);
      if (mission_) {
        const double p_loss = system_loss_by(chain_.group, G, *mission_);
        exact_["loss_in_mission"] = p_loss;
        exact_["durability_nines"] = durability_nines(p_loss, *mission_);
        if (method_ == estimator::naive)
          exact_["fraction_lost"] =
              system_loss_by(chain_.group, 1, *mission_) / (*mission_ / hours_per_year);
      }
    } catch (const std::domain_error&) {
      exact_.clear();  // a chain the exact solvers cannot handle: no analytic value, not an error
    }
    exact_availability();
  } else if (g.repair.type == kind::none && g.latent_rate == 0 && !domain_failures) {
    exact_unrepaired();
  } else if (markov && groups_ == 1 &&
             (g.parallel || g.tolerance <= 1 || g.repair.type == kind::none)) {
    // Correlated domain failures inside one group: the chain on per-domain failed counts.
    domain_group_rates d;
    d.domains = domains_.count;
    d.per_domain = g.disks / domains_.count;
    d.tolerance = g.tolerance;
    d.failure_rate = 1 / g.lifetime.mean;
    d.domain_failure_rate = domains_.failure_rate;
    d.repair_rate = g.repair.type == kind::none ? 0.0 : 1 / g.repair.mean;
    d.rebuild_error = g.rebuild_error;
    try {
      const auto e = domain_group_loss(d, mission_.value_or(0));
      exact_["mttdl_hours"] = e.mttdl_hours;
      if (mission_ && e.loss_by) {
        exact_["loss_in_mission"] = *e.loss_by;
        exact_["durability_nines"] = durability_nines(*e.loss_by, *mission_);
        if (method_ == estimator::naive)
          exact_["fraction_lost"] = *e.loss_by / (*mission_ / hours_per_year);
      }
    } catch (const std::exception&) {
      exact_.clear();  // too many states: no exact value, not an error
    }
  } else if (markov && (g.parallel || g.tolerance <= 1 || g.repair.type == kind::none) &&
             g.rebuild_error == 0) {
    // Several groups sharing failure domains: the chain of the whole system's failed devices
    // (down_set_chain.hpp), while it stays small (64 devices, 600 sets that lose nothing). With
    // tolerance 1 a group that loses nothing has one failed device at most, so serial rebuilds
    // are parallel ones.
    if (const auto e = down_set_chain_loss(down_sets(), mission_.value_or(0))) {
      exact_["mttdl_hours"] = e->mttdl_hours;
      if (mission_ && e->loss_in_mission) {
        exact_["loss_in_mission"] = *e->loss_in_mission;
        exact_["durability_nines"] = durability_nines(*e->loss_in_mission, *mission_);
      }
    }
  }
  availability_walk();
}

// The whole system as a layout of groups over devices (group k holds devices k x disks ... ),
// for the chains that take any layout (down_set_chain.hpp, down_out_chain.hpp).
down_set_rates storage_model::down_sets() const {
  const auto& g = group_;
  down_set_rates r;
  r.devices = groups_ * g.disks;
  for (int k = 0; k < groups_; ++k) {
    r.groups.emplace_back();
    for (int i = 0; i < g.disks; ++i) r.groups.back().push_back(k * g.disks + i);
  }
  r.tolerance = g.tolerance;
  r.failure_rate = 1 / g.lifetime.mean;
  r.repair_rate = g.repair.type == kind::none ? 0.0 : 1 / g.repair.mean;
  r.domains = domains_.count;
  r.domain_failure_rate = domains_.count > 0 ? domains_.failure_rate : 0.0;
  return r;
}

// Unavailability by importance sampling where the availability chain does not reach (domains of
// several devices, groups sharing domains, domain failures, chains too large to enumerate): the
// walk on the explicit state, which needs memoryless outages too. The exact value beside it
// where the chain of failed and out devices is small (down_out_chain.hpp: parallel rebuilds or
// tolerance 1, no rebuild errors, device outages and no domain outages, 600 states).
void storage_model::availability_walk() {
  availability_walk_.reset();
  if (method_ != estimator::markov_chain || !any_outages() || availability_) return;
  const auto& g = group_;
  const bool domain_outages = domains_.count > 0 && domains_.outage.active();
  if (g.outage.active() && g.outage.duration.type != kind::exponential) {
    availability_gap_ = "importance sampling of it needs exponential outages (outage.distribution)";
    return;
  }
  if (domain_outages && domains_.outage.duration.type != kind::exponential) {
    availability_gap_ =
        "importance sampling of it needs exponential domain outages "
        "(domains.outage_distribution)";
    return;
  }
  domain_walk_rates w;
  w.groups = groups_;
  w.disks = g.disks;
  w.domains = std::max(domains_.count, 1);
  w.tolerance = g.tolerance;
  w.failure_rate = 1 / g.lifetime.mean;
  w.domain_failure_rate = domains_.count > 0 ? domains_.failure_rate : 0.0;
  w.repair_rate = 1 / g.repair.mean;
  w.parallel = g.parallel;
  w.rebuild_error = g.rebuild_error;
  w.outage_rate = g.outage.rate;
  w.outage_end = g.outage.active() ? 1 / g.outage.duration.mean : 0.0;
  if (domain_outages) {
    w.domain_outage_rate = domains_.outage.rate;
    w.domain_outage_end = 1 / domains_.outage.duration.mean;
  }
  availability_walk_ = w;
  std::string exact = "no exact value";
  if ((g.parallel || g.tolerance <= 1) && g.rebuild_error == 0 && !domain_outages &&
      g.outage.active())
    if (const auto a = down_out_availability({down_sets(), w.outage_rate, w.outage_end})) {
      exact_["unavailability"] = a->unavailability;
      exact_["unavailable_events_per_year"] = a->unavailable_per_year;
      exact = "exact on " + std::to_string(a->states) + " states of failed and out devices";
    }
  reason_ += "; unavailability on the explicit state (" + availability_gap_ +
             "): outages held per device, " + exact;
  availability_gap_.clear();
}

void storage_model::replicate(replication& r) const {
  if (method_ == estimator::failure_biasing) {
    r.record(0, system_mission_loss_biased(group_, groups_, *mission_, r.rng()));
    return;
  }
  if (method_ == estimator::markov_chain) {
    if (domain_walk_) {
      r.record(0, domain_cycle_hours(*domain_walk_, r.rng()));
      r.record(1, domain_cycle_loss_weight(*domain_walk_, r.rng()));
      if (mission_) r.record(3, domain_mission_loss_weight(*domain_walk_, *mission_, r.rng()));
    } else {
      r.record(0, cycle_hours(chain_, r.rng()));
      r.record(1, cycle_loss_weight(chain_, r.rng()));
      if (mission_) r.record(3, mission_loss_weight(chain_, *mission_, r.rng()));
    }
    if (!any_outages()) return;
    if (availability_) {
      r.record("availability_cycle_hours", availability_cycle_hours(*availability_, r.rng()));
      const auto w = availability_cycle_weights(*availability_, r.rng());
      r.record("unavailable_hours_per_cycle", w.unavailable_hours);
      r.record("unavailable_entries_per_cycle", w.entries);
    } else if (availability_walk_) {
      r.record("availability_cycle_hours",
               domain_availability_cycle_hours(*availability_walk_, r.rng()));
      const auto w = domain_availability_weights(*availability_walk_, r.rng());
      r.record("unavailable_hours_per_cycle", w.unavailable_hours);
      r.record("unavailable_entries_per_cycle", w.entries);
    }
    return;
  }
  // The system loses data when its first group does. Groups advance together to a horizon that
  // doubles from one disk's mean life, so none is followed far past the system's loss.
  const auto o = simulate_system(group_, domains_, groups_,
                                 group_.lifetime.expected() / group_.disks, mission_, r.rng());
  r.record(0, o.loss);
  if (!mission_) return;
  const double T = *mission_, years = T / hours_per_year;
  r.record(1, o.loss <= T ? 1.0 : 0.0);
  r.record("fraction_lost", o.groups_lost / static_cast<double>(groups_) / years);
  r.record("unavailability", o.unavailable_hours / T);
  r.record("unavailable_events_per_year", o.unavailable_periods / years);
}

std::map<std::string, double> storage_model::analytic() const {
  return exact_;
}

std::vector<model_fact> storage_model::model_facts() const {
  std::vector<model_fact> f;
  const char* name = method_ == estimator::naive          ? "naive"
                     : method_ == estimator::markov_chain ? "importance (Markov chain)"
                                                          : "importance (failure biasing)";
  f.push_back({"method", std::string(name), "how the quantities are estimated"});
  f.push_back({"method_reason", reason_, "why"});
  if (method_ == estimator::failure_biasing)
    f.push_back({"mttdl_hours",
                 std::string("not estimated by importance sampling for these laws "
                             "(method = naive estimates it)"),
                 ""});
  // A loss needs `tolerance` failures inside one rebuild, and each biased step's ratio follows
  // the drawn rebuild time: the readings' spread grows like E[R^2m] / E[R^m]^2 (docs/models/
  // storage.md, "Where it degrades"). Past tolerance 2 with repairs this was not validated.
  if (method_ == estimator::failure_biasing && group_.tolerance >= 3 &&
      group_.repair.type != kind::none)
    f.push_back({"caution",
                 std::string("tolerance >= 3 with repairs: the importance readings are "
                             "heavy-tailed and this case is not validated; compare a few seeds"),
                 ""});
  if (quadrature_error_ >= 0)
    f.push_back({"mttdl_quadrature_error_hours", quadrature_error_,
                 "exact mttdl_hours without repair: exp-sinh quadrature's error estimate"});
  if (steady_unavailability_ >= 0)
    f.push_back({"steady_unavailability", steady_unavailability_,
                 "exact long-run fraction of time some data is unavailable (Markov chain; a lost "
                 "group replaced at once)"});
  if (domains_.count > 0)
    f.push_back({"devices_per_domain", std::int64_t{groups_ * group_.disks / domains_.count},
                 "device i of group g in domain (g x disks + i) mod domains.count"});
  // What naive simulation would need instead: missions for +-10% at 95% on the exact (or the
  // approximate) loss probability. Times follow from docs/performance.md's cost per mission.
  if (importance() && mission_) {
    const auto exact = exact_.find("loss_in_mission");
    const double p = exact != exact_.end() ? exact->second : approximate_loss_;
    if (p > 0 && p < 1)
      f.push_back({"naive_missions_for_10_percent", naive_missions_needed(p),
                   "missions naive simulation would need for loss_in_mission to +-10% at 95%"});
  }
  if (approximate_loss_ >= 0 && mission_)
    f.push_back({"approximate_loss_in_mission", approximate_loss_,
                 "rough Markov approximation behind auto's choice, not an estimate"});
  return f;
}

}  // namespace mcpilot::storage
