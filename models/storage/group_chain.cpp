#include "storage/group_chain.hpp"

#include <cmath>
#include <stdexcept>

namespace mcpilot::storage {

birth_death group_chain(const group_rates& g) {
  if (g.disks < 1 || g.tolerance < 0 || g.tolerance >= g.disks)
    throw std::invalid_argument("group_chain: need 0 <= tolerance < disks");
  const auto m = static_cast<std::size_t>(g.tolerance);
  birth_death bd;
  bd.up.assign(m + 1, 0.0);
  bd.down.assign(m + 1, 0.0);
  bd.kill.assign(m + 1, 0.0);
  for (std::size_t i = 0; i <= m; ++i) {
    const double fail = static_cast<double>(g.disks - static_cast<int>(i)) * g.failure_rate;
    if (i == m) {
      bd.kill[i] += fail;
    } else if (i + 1 == m) {
      bd.up[i] = fail * (1 - g.rebuild_error);
      bd.kill[i] += fail * g.rebuild_error;
    } else {
      bd.up[i] = fail;
    }
    if (i > 0) bd.down[i] = g.parallel ? static_cast<double>(i) * g.repair_rate : g.repair_rate;
  }
  return bd;
}

double system_mttdl(const group_rates& g, std::size_t groups) {
  return mean_first_absorption(group_chain(g), groups);
}

double system_loss_by(const group_rates& g, std::size_t groups, double t) {
  const birth_death bd = group_chain(g);
  double p = 0;
  try {
    p = absorbed_by(bd.chain(), 0, t);
  } catch (const std::domain_error&) {
    p = spectrum(bd).absorbed_by(t);
  }
  if (groups == 1) return p;
  return -std::expm1(static_cast<double>(groups) * std::log1p(-p));
}

}  // namespace mcpilot::storage
