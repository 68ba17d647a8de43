#include "storage/importance.hpp"

#include <boost/container/small_vector.hpp>

#include "storage/walk_estimators.hpp"

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
  // In the walk for tolerances up to 7: a walk is built for every cycle and excursion, a heap
  // vector each time.
  boost::container::small_vector<long long, 8> count_;
};

}  // namespace

double cycle_hours(const system_rates& s, philox_stream& rng) {
  return walk::cycle_hours<system_walk>(s, rng);
}

double cycle_loss_weight(const system_rates& s, philox_stream& rng) {
  return walk::cycle_loss_weight<system_walk>(s, rng);
}

double mission_loss_weight(const system_rates& s, double mission, philox_stream& rng) {
  return walk::mission_loss_weight<system_walk>(s, mission, rng);
}

double mission_loss_plain(const system_rates& s, double mission, philox_stream& rng) {
  return walk::mission_loss_plain<system_walk>(s, mission, rng);
}

}  // namespace mcpilot::storage
