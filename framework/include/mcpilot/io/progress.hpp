#pragma once
// Progress of a running session on standard error, one line per round: the round, the
// replications so far, each quantity's interval width against its target, and an estimate of
// what remains from the required sample sizes.

#include <ostream>
#include <string>

#include "mcpilot/session.hpp"

namespace mcpilot {

// Whether standard error is a terminal (progress is on by default only then).
bool stderr_is_terminal();

// "round 3: 4000 replications, 1.2 s | pi 12% of mean (target 10%), ~2100 more | next round
// 2100, about 0.6 s left". Widths are whole widths, as the targets are (ci_perc 0.10 is ±5%).
// Stream style counts readings: "round 3: 40000 readings in 4 streams, ...", and the next round
// is "per stream".
std::string progress_line(const session_progress& p);

// A session_hooks::on_round that writes progress_line to `out`.
class progress_printer {
 public:
  explicit progress_printer(std::ostream& out) : out_(&out) {}
  void operator()(const session_progress& p) const;

 private:
  std::ostream* out_;
};

}  // namespace mcpilot
