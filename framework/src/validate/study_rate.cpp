#include "mcpilot/stats/proportion.hpp"
#include "mcpilot/validate.hpp"

namespace mcpilot {

double study_rate::rate() const {
  return trials ? static_cast<double>(events) / static_cast<double>(trials) : 0;
}

double study_rate::low() const {
  return clopper_pearson_interval(events, trials, 0.95).low;
}

double study_rate::high() const {
  return clopper_pearson_interval(events, trials, 0.95).high;
}

bool study_rate::pass() const {
  if (trials == 0) return false;
  return at_least ? high() >= gate : low() <= gate;
}

bool study_outcome::pass() const {
  if (rates.empty()) return false;
  for (const auto& r : rates)
    if (!r.pass()) return false;
  return true;
}

}  // namespace mcpilot
