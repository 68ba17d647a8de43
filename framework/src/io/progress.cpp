#include "mcpilot/io/progress.hpp"

#include <unistd.h>

#include <algorithm>

#include "mcpilot/io/report.hpp"
#include "mcpilot/number_text.hpp"

namespace mcpilot {

bool stderr_is_terminal() {
  return isatty(STDERR_FILENO) == 1;
}

std::string progress_line(const session_progress& p) {
  std::string line = "round " + std::to_string(p.round) + ": " + std::to_string(p.replications) +
                     (p.streams ? " readings in " + std::to_string(p.streams) + " streams, "
                                : std::string(" replications, ")) +
                     duration_text(p.elapsed_seconds);
  std::uint64_t most_needed = 0;  // readings the furthest required quantity still lacks
  if (p.quantities) {
    for (const auto& q : *p.quantities) {
      const analysis& a = q.stats;
      line += " | " + q.name + ' ';
      if (!a.ci_width) {
        line += a.status.empty() ? "no interval yet" : a.status;
        continue;
      }
      if (a.one_sided && a.mean == 0.0)
        line += "no events, p <= " + format_number(*a.ci_high);
      else if (a.one_sided && a.mean == 1.0)
        line += "all events, p >= " + format_number(*a.ci_low);
      else if (q.requirements.ci_abs)
        line += "width " + format_number(*a.ci_width) + " (target " +
                format_number(*q.requirements.ci_abs) + ")";
      else if (a.ci_width_rel)
        line += format_percent(*a.ci_width_rel) + " of mean (target " +
                format_percent(q.requirements.ci_perc) + ")";
      if (a.converged) {
        line += " converged";
      } else if (a.unreachable) {
        line += ", unreachable";
      } else if (a.phase.latest) {
        // Wide enough or not, an interval of the latest phase is no verdict: say that this, not
        // a count of readings, is what the stop waits for (a drifting load once showed "~0 more"
        // round after round).
        line += ", drifting: latest phase only (readings " + std::to_string(a.phase.begin) + "-" +
                std::to_string(a.phase.end) + "), no phase holds half";
      } else if (a.required_samples) {
        const std::uint64_t more =
            *a.required_samples > a.n_used ? *a.required_samples - a.n_used : 0;
        line += ", ~" + std::to_string(more) + " more";
        if (q.required) most_needed = std::max(most_needed, more);
      }
    }
  }
  if (p.next_round) {
    line += " | next round " + std::to_string(p.next_round) + (p.streams ? " per stream" : "");
    if (most_needed && p.replications)
      line += ", about " +
              duration_text(p.elapsed_seconds / static_cast<double>(p.replications) *
                            static_cast<double>(most_needed)) +
              " left";
  }
  return line;
}

void progress_printer::operator()(const session_progress& p) const {
  *out_ << progress_line(p) << '\n' << std::flush;
}

}  // namespace mcpilot
