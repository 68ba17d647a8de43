#pragma once
// The two steps of analyze() that read a single stream's shape before the interval: the phase the
// interval is built on (the change-point search, the start screen, the latest phase) and the
// subsession size from the correlogram's decay (docs/statistics.md). Internal to the statistics.

#include <optional>
#include <span>

#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/subsession.hpp"

namespace mcpilot {

// Finds the stable phase of y and records what was removed in w: the change-point search's
// segments, then the short warm-up the start screen finds at the start of the phase kept. The
// phase is the longest segment when it holds more than half of the readings; otherwise, with
// `phase`, the latest one, marked as such; without `phase` false is returned and nothing should
// be estimated from y. O(n log n).
bool stable_phase(std::span<const double> y, const analysis_options& opt, warmup_report& w,
                  std::span<const double>& stable, phase_report* phase = nullptr);

// The decay rule's subsession size for the stable readings y, or nullopt for Pilot's search
// (fewer than 100 readings, a correlogram cut by the series' length, or q > n/3). Sets
// a.autocorrelation_time; reads a.autocorrelation (the raw lag-1). O(n log n).
std::optional<subsession_choice> subsession_from_decay(std::span<const double> y, double limit,
                                                       analysis& a);

}  // namespace mcpilot
