#include "mcpilot/stats/interval.hpp"

#include <cmath>
#include <stdexcept>

#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

t_interval mean_interval(std::span<const double> values, double confidence) {
  if (values.size() < 2) throw std::invalid_argument("an interval needs at least 2 values");
  t_interval r;
  r.count = values.size();
  r.mean = mean(values);
  r.sd = std::sqrt(variance(values));
  const double h = static_cast<double>(r.count);
  r.half_width = t_critical(h - 1, confidence) * r.sd / std::sqrt(h);
  return r;
}

}  // namespace mcpilot
