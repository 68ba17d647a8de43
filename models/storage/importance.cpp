#include "storage/importance.hpp"

#include <boost/random/exponential_distribution.hpp>
#include <cmath>
#include <vector>

namespace mcpilot::storage {

namespace {

// The system's state, groups counted by their number of failed disks, and its moves.
class system_walk {
 public:
  explicit system_walk(const system_rates& s)
      : s_(s), m_(s.group.tolerance), count_(static_cast<std::size_t>(m_) + 1, 0) {
    count_[0] = s.groups;
  }

  bool all_up() const { return count_[0] == s_.groups; }

  double failure_rate(int level) const {
    return count_[static_cast<std::size_t>(level)] * static_cast<double>(s_.group.disks - level) *
           s_.group.failure_rate;
  }
  double repair_rate(int level) const {
    if (level == 0) return 0;
    const double per_group =
        s_.group.parallel ? level * s_.group.repair_rate : s_.group.repair_rate;
    return count_[static_cast<std::size_t>(level)] * per_group;
  }
  double total_rate() const {
    double r = 0;
    for (int f = 0; f <= m_; ++f) r += failure_rate(f) + repair_rate(f);
    return r;
  }

  // One jump. With `biased`, failures get probability `bias` in all but the all-up state, split
  // equally among the occupied levels, and repairs the rest in proportion to their rates; the
  // likelihood ratio of the jump multiplies `ratio`. Returns true on data loss.
  bool jump(philox_stream& rng, bool biased, double& ratio) {
    double failures = 0, repairs = 0;
    int kinds = 0;
    for (int f = 0; f <= m_; ++f) {
      const double r = failure_rate(f);
      failures += r;
      if (r > 0) ++kinds;
      repairs += repair_rate(f);
    }
    const double total = failures + repairs;
    const bool tilt = biased && !all_up();
    const double fail_share = repairs > 0 ? s_.bias : 1.0;
    double u = rng.uniform();
    // Walk the failures, then the repairs; the last candidate absorbs rounding.
    int last_level = -1;
    bool last_is_failure = true;
    for (int pass = 0; pass < 2; ++pass) {
      const bool failure = pass == 0;
      for (int f = 0; f <= m_; ++f) {
        const double r = failure ? failure_rate(f) : repair_rate(f);
        if (r == 0) continue;
        last_level = f;
        last_is_failure = failure;
        const double original = r / total;
        const double p =
            !tilt ? original : (failure ? fail_share / kinds : (1 - fail_share) * r / repairs);
        if (u < p) {
          ratio *= original / p;
          return failure ? fail(f, rng) : repair(f);
        }
        u -= p;
      }
    }
    // u fell past the end by rounding: take the last candidate.
    const double r = last_is_failure ? failure_rate(last_level) : repair_rate(last_level);
    const double original = r / total;
    const double p =
        !tilt ? original : (last_is_failure ? fail_share / kinds : (1 - fail_share) * r / repairs);
    ratio *= original / p;
    return last_is_failure ? fail(last_level, rng) : repair(last_level);
  }

 private:
  bool fail(int level, philox_stream& rng) {
    if (level == m_) return true;
    // Into the state without redundancy: the critical rebuild fails with probability h. Not
    // biased, so it leaves the likelihood ratio alone.
    if (level + 1 == m_ && s_.group.rebuild_error > 0 && rng.uniform() < s_.group.rebuild_error)
      return true;
    --count_[static_cast<std::size_t>(level)];
    ++count_[static_cast<std::size_t>(level) + 1];
    return false;
  }
  bool repair(int level) {
    --count_[static_cast<std::size_t>(level)];
    ++count_[static_cast<std::size_t>(level) - 1];
    return false;
  }

  const system_rates& s_;
  int m_;
  std::vector<long long> count_;
};

double hold(double rate, philox_stream& rng) {
  return boost::random::exponential_distribution<double>(rate)(rng);
}

}  // namespace

double cycle_hours(const system_rates& s, philox_stream& rng) {
  system_walk w(s);
  double t = 0, ratio = 1;
  do {
    t += 1 / w.total_rate();  // the expected holding time, in place of a draw
    if (w.jump(rng, false, ratio)) break;
  } while (!w.all_up());
  return t;
}

double cycle_loss_weight(const system_rates& s, philox_stream& rng) {
  system_walk w(s);
  double ratio = 1;
  do {
    if (w.jump(rng, true, ratio)) return ratio;
  } while (!w.all_up());
  return 0;
}

namespace {

// A holding time at rate r forced to end within `left`: drawn from the exponential law
// conditioned on that, the probability of the condition multiplying `ratio`. Paths it excludes
// cannot end in loss within the time left, so they contribute nothing anyway.
double forced_hold(double r, double left, double& ratio, philox_stream& rng) {
  const double reach = -std::expm1(-r * left);
  ratio *= reach;
  return reach > 0 ? -std::log1p(-rng.uniform() * reach) / r : left;
}

// One excursion from all up, starting with a failure now, simulated under failure biasing, each
// holding time forced to end within the time left: its likelihood ratio if it ends in data loss
// within `within` hours, else 0. An unbiased reading of P(an excursion started now loses data
// within `within`) that is positive with probability ~bias^tolerance, however short `within`.
double biased_excursion_loss(const system_rates& s, double within, philox_stream& rng) {
  system_walk w(s);
  double elapsed = 0, ratio = 1;
  while (true) {
    if (w.jump(rng, true, ratio)) return ratio;
    if (w.all_up()) return 0;
    elapsed += forced_hold(w.total_rate(), within - elapsed, ratio, rng);
    if (!(ratio > 0)) return 0;
  }
}

}  // namespace

double mission_loss_weight(const system_rates& s, double mission, philox_stream& rng) {
  system_walk w(s);  // the main path: original dynamics, forced excursion starts
  double t = 0, weight = 1, total = 0, ratio = 1;
  while (true) {
    // All up: force the next failure into [t, mission), by the inverse of the truncated
    // exponential law, and carry the probability that it happens by then as a weight.
    t += forced_hold(w.total_rate(), mission - t, weight, rng);
    if (!(weight > 0) || t >= mission) return total;
    // An excursion starts at t. Its chance of losing data before the mission ends, estimated
    // by an independent biased excursion, counts if no earlier excursion lost data.
    total += weight * biased_excursion_loss(s, mission - t, rng);
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

double mission_loss_plain(const system_rates& s, double mission, philox_stream& rng) {
  system_walk w(s);
  double t = 0, ratio = 1;
  while (true) {
    t += hold(w.total_rate(), rng);
    if (t > mission) return 0;
    if (w.jump(rng, false, ratio)) return 1;
  }
}

}  // namespace mcpilot::storage
