// The verdict on a quantity summarised by its median (summary_statistic::median): the
// order-statistic interval of the stable readings, the width target, the readings still needed,
// and converged or not, as conclude() gives them for the mean.
#include <algorithm>
#include <cmath>
#include <string>

#include "analysis_parts.hpp"
#include "mcpilot/stats/median_interval.hpp"

namespace mcpilot::detail {

void conclude_median(analysis& a, std::span<const double> stable, const analysis_options& opt) {
  const precision& req = opt.requirements;
  a.statistic = summary_statistic::median;
  a.n_used = stable.size();
  a.remainder = 0;
  const auto m = median_confidence_interval(stable, req.confidence);
  if (!m) {
    a.status =
        "not enough data: the median's interval needs more readings at this confidence "
        "(at least 6 at 95%)";
    a.required_samples = std::max<std::size_t>(stable.size() + 1, req.min_samples);
    return;
  }
  a.mean = m->median;
  a.autocorrelation_time = m->tau;
  a.ci_low = m->low;
  a.ci_high = m->high;
  a.ci_width = m->high - m->low;
  if (m->median != 0) a.ci_width_rel = *a.ci_width / std::abs(m->median);
  a.target_width = req.ci_abs ? *req.ci_abs : req.ci_perc * std::abs(m->median);
  if (!(a.target_width > 0)) {
    a.unreachable = true;
    a.status = "the required width cannot be reached: relative to a median of 0";
    return;
  }
  // The minimum sample, in independent readings: min_samples of them, as min_samples
  // subsession means are for the mean.
  const double effective = static_cast<double>(stable.size()) / m->tau;
  const std::size_t floor_readings =
      static_cast<std::size_t>(std::ceil(static_cast<double>(req.min_samples) * m->tau));
  a.required_samples = std::max({median_readings_needed(stable.size(), *a.ci_width, a.target_width),
                                 floor_readings, opt.min_readings});
  // An interval of equal order statistics (readings on a coarse clock) has width 0 and claims
  // nothing about the spread between them: no verdict on it.
  a.converged = *a.ci_width > 0 && *a.ci_width <= a.target_width &&
                effective >= static_cast<double>(req.min_samples) &&
                stable.size() >= opt.min_readings;
  if (a.converged)
    a.status = "converged";
  else if (*a.ci_width == 0)
    a.status = "no variation yet between the interval's order statistics (ranks " +
               std::to_string(m->rank_low) + " and " + std::to_string(m->rank_high) + ")";
  else
    a.status = "needs more readings";
}

}  // namespace mcpilot::detail
