#pragma once
// Why a session (or `mcpilot bench`) stopped. The words of to_string are part of the JSON and CSV
// contract (docs/cli.md); code compares the enum, never the words.

#include <iosfwd>
#include <string_view>

namespace mcpilot {

enum class stop_reason {
  converged,         // every required interval meets its precision
  unreachable,       // a required precision cannot be reached by more readings
  max_replications,  // the session's limit on replications (or readings per stream)
  max_runs,          // mcpilot bench's limit on runs of each command
  max_seconds,       // the limit on wall time
  interrupted,       // SIGINT or SIGTERM; the results so far
  error,             // a replication (or a benchmarked command) failed
};

// "converged", "unreachable", "max_replications", "max_runs", "max_seconds", "interrupted",
// "error".
std::string_view to_string(stop_reason r);
// One clause for a reader: what the reason means for the results beside it.
std::string_view explain(stop_reason r);
// Prints to_string, so that test failures and logs name the reason.
std::ostream& operator<<(std::ostream& out, stop_reason r);

}  // namespace mcpilot
