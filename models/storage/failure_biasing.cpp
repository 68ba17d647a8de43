#include "storage/failure_biasing.hpp"

#include <algorithm>
#include <boost/random/exponential_distribution.hpp>
#include <cmath>

#include "storage/aged_group.hpp"

namespace mcpilot::storage {

namespace {

// A failure now from the group's state, drawn conditioned on falling within `within` hours, whose
// probability p = 1 - exp(-H(within)) the caller has: inverting the conditioned law,
// H(x) = -ln(1 - u p).
void forced_failure_time(aged_group& a, double p, double within, philox_stream& rng) {
  const double target = -std::log1p(-rng.uniform() * p);
  a.advance_to(a.now() + (target > 0 ? a.time_to_hazard(target, within) : 0.0));
}

// The copy of an excursion that starts with disk d failing now, under failure biasing: an
// unbiased reading of P(this excursion loses data by `mission` | the history).
double biased_excursion(aged_group a, int d, double mission, double bias, philox_stream& rng) {
  double ratio = 1, sum = 0;
  // A failure that may lose data with probability q: count ratio x q, go on without loss.
  auto after_failure = [&](double q) {
    if (q <= 0) return true;
    sum += ratio * q;
    ratio *= 1 - q;
    if (!(ratio > 0)) return false;
    a.reveal_clean();
    return true;
  };
  if (!after_failure(a.fail(d, rng))) return sum;
  while (!a.all_up()) {
    const double rebuild = a.next_rebuild();
    const double w = std::min(rebuild, mission);
    const double p = -std::expm1(-a.hazard_over(w - a.now()));
    const double beta = p <= 0 ? 0.0 : (rebuild >= mission ? 1.0 : std::max(p, bias));
    if (rng.uniform() < beta) {
      ratio *= p / beta;
      forced_failure_time(a, p, w - a.now(), rng);
      if (!after_failure(a.fail(a.pick_failing(rng), rng))) return sum;
    } else {
      ratio *= (1 - p) / (1 - beta);
      if (rebuild >= mission) return sum;
      a.advance_to(rebuild);
      a.complete_rebuild(rng);
    }
  }
  return sum;
}

}  // namespace

double group_mission_loss_biased(const group_config& g, double mission, philox_stream& rng,
                                 double bias) {
  aged_group a(g);  // the main path
  double weight = 1, sum = 0;
  while (true) {
    // All up: force the next failure before the mission ends.
    const double p = -std::expm1(-a.hazard_over(mission - a.now()));
    weight *= p;
    if (!(weight > 0)) return sum;
    forced_failure_time(a, p, mission - a.now(), rng);
    const int d = a.pick_failing(rng);
    sum += weight * biased_excursion(a, d, mission, bias, rng);
    // The main path lives through the excursion under the original law; its own loss ends the
    // sum, as it ends the mission.
    double q = a.fail(d, rng);
    while (true) {
      if (q > 0) {
        if (rng.uniform() < q) return sum;
        a.reveal_clean();
      }
      if (a.all_up()) break;
      const double rebuild = a.next_rebuild();
      const double w = std::min(rebuild, mission);
      const double e = boost::random::exponential_distribution<double>(1.0)(rng);
      if (e < a.hazard_over(w - a.now())) {
        a.advance_to(a.now() + a.time_to_hazard(e, w - a.now()));
        q = a.fail(a.pick_failing(rng), rng);
      } else {
        if (rebuild >= mission) return sum;
        a.advance_to(rebuild);
        a.complete_rebuild(rng);
        q = 0;
      }
    }
  }
}

double system_mission_loss_biased(const group_config& g, int groups, double mission,
                                  philox_stream& rng, double bias) {
  if (groups == 1) return group_mission_loss_biased(g, mission, rng, bias);
  // 1 - prod(1 - Y) as -expm1(sum log1p(-Y)), which keeps the digits of a sum of small Y's; a
  // reading Y >= 1 (a large likelihood ratio) has no logarithm, and then the product is direct.
  double log_survive = 0, survive = 1;
  bool direct = false;
  for (int i = 0; i < groups; ++i) {
    const double y = group_mission_loss_biased(g, mission, rng, bias);
    survive *= 1 - y;
    if (y >= 1) direct = true;
    if (!direct) log_survive += std::log1p(-y);
  }
  return direct ? 1 - survive : -std::expm1(log_survive);
}

}  // namespace mcpilot::storage
