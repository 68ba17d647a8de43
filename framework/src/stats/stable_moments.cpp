#include "mcpilot/stats/stable_moments.hpp"

#include <stdexcept>
#include <vector>

#include "mcpilot/stats/subsession.hpp"

namespace mcpilot {

std::optional<sample_moments> stable_moments(std::span<const double> x, const analysis& a) {
  if (!a.subsession_size || !a.subsession_count || *a.subsession_count < 2) return std::nullopt;
  if (a.warmup.removed_begin + a.n_used > x.size())
    throw std::invalid_argument("stable_moments: the analysis used more readings than given");
  const std::vector<double> means =
      batch_means(x.subspan(a.warmup.removed_begin, a.n_used), *a.subsession_size);
  sample_moments m = moments(means);
  m.variance *= a.variance_inflation;
  return m;
}

}  // namespace mcpilot
