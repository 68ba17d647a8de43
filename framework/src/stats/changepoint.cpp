// PLACEHOLDER until change-point detection lands (issue 3): reports the whole series as stable.
#include "mcpilot/stats/changepoint.hpp"

namespace mcpilot {

changepoint_result detect_changepoints(std::span<const double> x, const changepoint_options&) {
  changepoint_result r;
  r.n = x.size();
  r.stable_end = x.size();
  r.accepted = true;
  return r;
}

}  // namespace mcpilot
