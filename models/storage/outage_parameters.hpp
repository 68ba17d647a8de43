#pragma once
// The `outage.*` and `domains.*` parameters of storage.group (and any model whose devices have
// transient outages or share failure domains): declaration, reading and the cross-field checks,
// each error a parameter_error naming its field.

#include <optional>
#include <string>

#include "mcpilot/model.hpp"
#include "mcpilot/parameters.hpp"
#include "storage/outage_laws.hpp"

namespace mcpilot::storage {

// outage.rate_per_hour, outage.distribution, outage.mean_hours, outage.shape.
void declare_outage_parameters(model_spec& s);
// domains.count, domains.outage_rate_per_hour, domains.outage_distribution,
// domains.outage_mean_hours, domains.outage_shape, domains.failure_rate_per_hour.
void declare_domain_parameters(model_spec& s);

// The configured laws. Refused: a duration without a rate or a rate without a mean duration, a
// shape with a law that has none, a mean outage longer than the mission (an outage that outlasts
// the mission is a failure, not an outage), domain rates without domains.count, a count without
// a rate, and a count that does not divide the devices (`devices` = groups x disks) evenly.
outage_law read_outage(const parameters& p, std::optional<double> mission);
domain_config read_domains(const parameters& p, int devices, std::optional<double> mission);

// Refuses a rate whose events would make one replication endless: latent errors and outages per
// device, domain events per domain, over `span` hours (`span_name` says which span, for the
// message); at most max_failures_per_mission each. A rate of 2^63 per hour once put every event
// at the same instant, and a replication never ended.
void check_event_streams(const outage_law& outage, const domain_config& domains, double latent_rate,
                         double devices, double span, const std::string& span_name);

}  // namespace mcpilot::storage
