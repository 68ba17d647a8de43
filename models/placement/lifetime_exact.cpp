#include <algorithm>

#include "placement/lifetime.hpp"
#include "storage/down_out_chain.hpp"
#include "storage/down_set_chain.hpp"

namespace mcpilot::placement {

std::optional<storage::down_set_rates> down_set_rates_of(const layout& l,
                                                         const lifetime_settings& s) {
  using kind = storage::duration_law::kind;
  if (s.lifetime.type != kind::exponential) return std::nullopt;
  if (s.repair.type != kind::exponential && s.repair.type != kind::none) return std::nullopt;
  if (std::any_of(s.rebuild_hours.begin(), s.rebuild_hours.end(), [](double h) { return h > 0; }))
    return std::nullopt;
  storage::down_set_rates r;
  r.devices = l.devices;
  r.groups = l.groups;
  r.tolerance = s.tolerance;
  r.failure_rate = 1 / s.lifetime.mean;
  r.repair_rate = s.repair.type == kind::none ? 0.0 : 1 / s.repair.mean;
  r.domains = s.domains.count;
  r.domain_failure_rate = s.domains.count > 0 ? s.domains.failure_rate : 0.0;
  return r;
}

std::optional<lifetime_exact> exact_lifetime(const layout& l, const lifetime_settings& s,
                                             double mission_hours, std::size_t max_states) {
  const auto r = down_set_rates_of(l, s);
  if (!r) return std::nullopt;
  const auto e = storage::down_set_chain_loss(*r, mission_hours, max_states);
  if (!e) return std::nullopt;
  return lifetime_exact{e->mttdl_hours, e->loss_in_mission, e->states};
}

std::optional<storage::steady_availability> exact_steady_availability(const layout& l,
                                                                      const lifetime_settings& s,
                                                                      std::size_t max_states) {
  using kind = storage::duration_law::kind;
  const bool domain_outages = s.domains.count > 0 && s.domains.outage.active();
  if (domain_outages || !s.outage.active() || s.outage.duration.type != kind::exponential)
    return std::nullopt;
  const auto r = down_set_rates_of(l, s);
  if (!r) return std::nullopt;
  return storage::down_out_availability({*r, s.outage.rate, 1 / s.outage.duration.mean},
                                        max_states);
}

}  // namespace mcpilot::placement
