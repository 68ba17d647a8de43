#include "mcpilot/stats/mean_comparison.hpp"

#include <algorithm>
#include <cmath>

namespace mcpilot {

namespace {

// The delta-method moments of 1 / y-bar, for a rate's difference interval.
sample_moments rate_moments(const sample_moments& m) {
  return {1.0 / m.mean, m.variance / std::pow(m.mean, 4), m.count};
}

}  // namespace

mean_comparison compare_means(const sample_moments& a, const sample_moments& b, quantity_kind kind,
                              double confidence, double power, std::size_t min_samples) {
  const bool rate = kind == quantity_kind::rate;
  mean_comparison c;
  c.test = welch_test(a, b, confidence);
  c.shown = rate ? welch_test(rate_moments(a), rate_moments(b), confidence) : c.test;
  c.t = rate ? -c.test.t : c.test.t;  // 1/y falls as y rises
  c.significant = c.test.p <= 1 - confidence;
  // As Pilot does for any estimate: never fewer than min_samples subsession means, whatever the
  // formula says (Welch's test itself needs 2 on each side, and min_samples is at least 2).
  if (const auto nb = required_b(a, b, confidence, power))
    c.b_batches = std::max(*nb, static_cast<double>(min_samples));
  return c;
}

}  // namespace mcpilot
