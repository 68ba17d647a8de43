#pragma once
// The regenerative and mission estimators of importance.hpp, for any chain that can be walked:
// the group chain of G independent groups (importance.cpp) and one group's chain on per-domain
// failed counts (domain_walk.hpp). Importance.hpp says why each is unbiased; nothing there uses
// more of the chain than this interface:
//
//   Walk(const Settings&)     the chain in its all-up state
//   bool all_up() const       the regeneration state
//   double total_rate() const the rate of leaving the current state
//   bool jump(philox_stream&, bool biased, double& ratio)
//                             one jump of the jump chain, under balanced failure biasing when
//                             `biased` (not in the all-up state), the likelihood ratio of the
//                             jump multiplying `ratio`; true on data loss

#include <boost/random/exponential_distribution.hpp>
#include <cmath>

#include "mcpilot/rng.hpp"

namespace mcpilot::storage::walk {

inline double hold(double rate, philox_stream& rng) {
  return boost::random::exponential_distribution<double>(rate)(rng);
}

// A holding time at rate r forced to end within `left`: drawn from the exponential law
// conditioned on that, the probability of the condition multiplying `ratio`. Paths it excludes
// cannot end in loss within the time left, so they contribute nothing anyway.
inline double forced_hold(double r, double left, double& ratio, philox_stream& rng) {
  const double reach = -std::expm1(-r * left);
  ratio *= reach;
  return reach > 0 ? -std::log1p(-rng.uniform() * reach) / r : left;
}

// The expected length of one cycle given the states it visits (a reading of E[tau]).
template <class Walk, class Settings>
double cycle_hours(const Settings& s, philox_stream& rng) {
  Walk w(s);
  double t = 0, ratio = 1;
  do {
    t += 1 / w.total_rate();  // the expected holding time, in place of a draw
    if (w.jump(rng, false, ratio)) break;
  } while (!w.all_up());
  return t;
}

// One cycle under failure biasing: its likelihood ratio if it ends in data loss, else 0.
template <class Walk, class Settings>
double cycle_loss_weight(const Settings& s, philox_stream& rng) {
  Walk w(s);
  double ratio = 1;
  do {
    if (w.jump(rng, true, ratio)) return ratio;
  } while (!w.all_up());
  return 0;
}

// One excursion from all up, starting with a failure now, simulated under failure biasing, each
// holding time forced to end within the time left: its likelihood ratio if it ends in data loss
// within `within` hours, else 0. An unbiased reading of P(an excursion started now loses data
// within `within`) that is positive with probability ~bias^tolerance, however short `within`.
template <class Walk, class Settings>
double biased_excursion_loss(const Settings& s, double within, philox_stream& rng) {
  Walk w(s);
  double elapsed = 0, ratio = 1;
  while (true) {
    if (w.jump(rng, true, ratio)) return ratio;
    if (w.all_up()) return 0;
    elapsed += forced_hold(w.total_rate(), within - elapsed, ratio, rng);
    if (!(ratio > 0)) return 0;
  }
}

// One mission [0, t] from all up: an unbiased reading of P(loss by t).
template <class Walk, class Settings>
double mission_loss_weight(const Settings& s, double mission, philox_stream& rng) {
  Walk w(s);  // the main path: original dynamics, forced excursion starts
  double t = 0, weight = 1, total = 0, ratio = 1;
  while (true) {
    // All up: force the next failure into [t, mission), by the inverse of the truncated
    // exponential law, and carry the probability that it happens by then as a weight.
    t += forced_hold(w.total_rate(), mission - t, weight, rng);
    if (!(weight > 0) || t >= mission) return total;
    // An excursion starts at t. Its chance of losing data before the mission ends, estimated
    // by an independent biased excursion, counts if no earlier excursion lost data.
    total += weight * biased_excursion_loss<Walk>(s, mission - t, rng);
    // The main path lives through the excursion under the original dynamics; a loss there ends
    // the sum, as it would end the mission.
    do {
      if (w.jump(rng, false, ratio)) return total;
      if (w.all_up()) break;
      t += hold(w.total_rate(), rng);
      if (t > mission) return total;
    } while (true);
  }
}

// One mission under the original dynamics: 1 if loss by t, else 0. (For tests.)
template <class Walk, class Settings>
double mission_loss_plain(const Settings& s, double mission, philox_stream& rng) {
  Walk w(s);
  double t = 0, ratio = 1;
  while (true) {
    t += hold(w.total_rate(), rng);
    if (t > mission) return 0;
    if (w.jump(rng, false, ratio)) return 1;
  }
}

}  // namespace mcpilot::storage::walk
