// storage_model's exact values beyond the loss chain (availability, no repair) and the
// declaration of its availability quantities under importance sampling: split from
// storage_model.cpp to keep each file to one idea.
#include <cmath>
#include <stdexcept>

#include "mcpilot/number_text.hpp"
#include "storage/availability_chain.hpp"
#include "storage/storage_model.hpp"
#include "storage/unrepaired_group.hpp"
#include "storage/walked_quantities.hpp"

namespace mcpilot::storage {

namespace {
using kind = duration_law::kind;
}  // namespace

void storage_model::declare_availability_by_importance(model_spec& s) const {
  // The chain is one group's, and G independent groups combine; the walk is the whole system's.
  declare_walked_availability(s, availability_ ? groups_ : 1.0);
}

void storage_model::exact_unrepaired() {
  const unrepaired_group u{group_.disks, group_.tolerance, group_.rebuild_error, group_.lifetime};
  const auto mttdl = unrepaired_mttdl(u, groups_);
  exact_["mttdl_hours"] = mttdl.value;
  quadrature_error_ = mttdl.error;
  if (!mission_) return;
  const double p1 = unrepaired_loss_by(u, *mission_);
  const double p = -std::expm1(groups_ * std::log1p(-p1));
  exact_["loss_in_mission"] = p;
  exact_["durability_nines"] = durability_nines(p, *mission_);
  if (method_ == estimator::naive) exact_["fraction_lost"] = p1 / (*mission_ / hours_per_year);
}

void storage_model::exact_availability() {
  const auto& g = group_;
  if (g.outage.active() && g.outage.duration.type != kind::exponential) {
    availability_gap_ = "the availability chain needs exponential outages (outage.distribution)";
    return;
  }
  // Domain outages: exponential, and one device per domain (one_per_domain: no group has two
  // devices in a domain, and no two groups share one, so groups stay independent).
  const bool domain_outages = domains_.count > 0 && domains_.outage.active();
  if (domain_outages && domains_.count != groups_ * g.disks) {
    availability_gap_ =
        "the availability chain covers domain outages with one device per domain, "
        "and these domains hold " +
        std::to_string(groups_ * g.disks / domains_.count) + " each";
    return;
  }
  if (domain_outages && domains_.outage.duration.type != kind::exponential) {
    availability_gap_ =
        "the availability chain needs exponential domain outages (domains.outage_distribution)";
    return;
  }
  availability_rates r;
  r.disks = chain_.group.disks;
  r.tolerance = chain_.group.tolerance;
  r.failure_rate = chain_.group.failure_rate;
  r.repair_rate = chain_.group.repair_rate;
  r.parallel = chain_.group.parallel;
  r.rebuild_error = chain_.group.rebuild_error;
  r.outage_rate = g.outage.rate;
  r.outage_end = g.outage.active() ? 1 / g.outage.duration.mean : 0;
  if (domain_outages) {
    r.domain_outage_rate = domains_.outage.rate;
    r.domain_outage_end = 1 / domains_.outage.duration.mean;
  }
  try {
    // Dense O(S^3) solves: beyond 400 states, no exact value (and no importance sampling).
    if (const double states = availability_states(r); !(states <= 400)) {
      availability_gap_ = "the availability chain would have " + number_text(states) +
                          " states, and at most 400 are solved";
      return;
    }
    const availability_chain c(r);
    availability_ = c;
    const double u = steady_unavailability(c);
    steady_unavailability_ = -std::expm1(groups_ * std::log1p(-u));
    if (method_ == estimator::markov_chain && (g.outage.active() || domain_outages)) {
      exact_["unavailability"] = steady_unavailability_;
      exact_["unavailable_events_per_year"] =
          groups_ * std::pow(1 - u, groups_ - 1) * steady_unavailable_entries(c) * hours_per_year;
    }
    // Over a mission from all up, exact for one group: the groups' unavailable periods overlap
    // in ways the product of their marginals does not give.
    if (mission_ && groups_ == 1 && method_ == estimator::naive) {
      const auto m = mission_unavailability(c, *mission_);
      exact_["unavailability"] = m.unavailable_fraction;
      exact_["unavailable_events_per_year"] = m.unavailable_periods / (*mission_ / hours_per_year);
    }
  } catch (const std::domain_error& e) {
    // too many uniformization steps, domain outages overlapping too often, an unreachable state:
    // no exact value, not an error
    if (!availability_) availability_gap_ = e.what();
  }
}

}  // namespace mcpilot::storage
