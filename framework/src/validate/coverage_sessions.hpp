#pragma once
// The loop the session-based studies share: independent sessions (seeds 1..R) of one model run to
// their precision, and the count of intervals that hold the known answer.

#include <cstdint>
#include <functional>
#include <string>

#include "mcpilot/model.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/precision.hpp"
#include "mcpilot/validate.hpp"

namespace mcpilot::validation_detail {

struct coverage_count {
  std::uint64_t covered = 0, sessions = 0;
  double mean_readings = 0;
};

// Sessions `first_seed`, ..., + sessions - 1 of `m` at `p`, on 2 threads; progress from `from` to
// `to` of the study; `each`, when given, sees every session's analysis of the quantity.
// O(sessions) sessions.
coverage_count count_coverage(const model& m, const std::string& quantity, double truth,
                              const precision& p, std::uint64_t sessions,
                              const study_progress& progress, double from, double to,
                              const std::function<void(const analysis&)>& each = {});

}  // namespace mcpilot::validation_detail
