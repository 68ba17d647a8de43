#include "mcpilot/stop_reason.hpp"

#include <ostream>

namespace mcpilot {

std::string_view to_string(stop_reason r) {
  switch (r) {
    case stop_reason::converged:
      return "converged";
    case stop_reason::unreachable:
      return "unreachable";
    case stop_reason::max_replications:
      return "max_replications";
    case stop_reason::max_runs:
      return "max_runs";
    case stop_reason::max_seconds:
      return "max_seconds";
    case stop_reason::interrupted:
      return "interrupted";
    case stop_reason::error:
      break;
  }
  return "error";
}

std::string_view explain(stop_reason r) {
  switch (r) {
    case stop_reason::converged:
      return "every required interval meets its precision";
    case stop_reason::unreachable:
      return "a required precision cannot be reached by more readings, or not within "
             "max_replications";
    case stop_reason::max_replications:
      return "max_replications reached before convergence";
    case stop_reason::max_runs:
      return "max_runs reached before convergence";
    case stop_reason::max_seconds:
      return "max_seconds reached before convergence";
    case stop_reason::interrupted:
      return "interrupted; results so far";
    case stop_reason::error:
      break;
  }
  return "a replication failed; results of the replications before it";
}

std::ostream& operator<<(std::ostream& out, stop_reason r) {
  return out << to_string(r);
}

}  // namespace mcpilot
