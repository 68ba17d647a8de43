#pragma once
// The exact loss of one group whose devices share failure domains: exponential lifetimes and
// rebuilds, `domains` domains of `per_domain` devices each, domain failures destroying every
// working device of their domain at once. The domains are exchangeable, so the state is the
// multiset of failed counts per domain; with parallel rebuilds (or tolerance 1, where at most one
// device is ever failed before a loss) each failed device comes back at rate mu on its own, and
// that state is Markov. Loss when more than `tolerance` have failed, or with probability h when a
// failure leaves exactly `tolerance` failed (group_chain.hpp's rule, applied per failure event).
// Domain outages do not touch loss and are not part of it.

#include <optional>

namespace mcpilot::storage {

struct domain_group_rates {
  int domains = 1;
  int per_domain = 1;
  int tolerance = 0;
  double failure_rate = 0;         // lambda per device
  double domain_failure_rate = 0;  // per domain
  double repair_rate = 0;          // mu per failed device (parallel)
  double rebuild_error = 0;        // h
};

struct domain_group_exact {
  double mttdl_hours = 0;
  std::optional<double> loss_by;  // P(loss by t), when uniformization can take it
};

// Throws std::invalid_argument beyond 2,000 states.
domain_group_exact domain_group_loss(const domain_group_rates& r, double t);

}  // namespace mcpilot::storage
