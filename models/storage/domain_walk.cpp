#include "storage/domain_walk.hpp"

#include <vector>

#include "storage/walk_estimators.hpp"

namespace mcpilot::storage {

namespace {

class domain_walk {
 public:
  explicit domain_walk(const domain_walk_rates& s)
      : s_(s), r_(s.group), failed_(static_cast<std::size_t>(s.group.domains), 0) {}

  bool all_up() const { return total_ == 0; }

  double total_rate() const {
    double rate = 0;
    for (int f : failed_) rate += kinds_rate(f, true) + kinds_rate(f, false) + f * r_.repair_rate;
    return rate;
  }

  bool jump(philox_stream& rng, bool biased, double& ratio) {
    double failures = 0, repairs = 0;
    int kinds = 0;
    for (int f : failed_) {
      for (const bool device : {true, false}) {
        const double r = kinds_rate(f, device);
        failures += r;
        kinds += r > 0 ? 1 : 0;
      }
      repairs += f * r_.repair_rate;
    }
    const double total = failures + repairs;
    const bool tilt = biased && !all_up();
    const double fail_share = repairs > 0 ? s_.bias : 1.0;
    const auto chance = [&](double r, bool failure) {
      const double original = r / total;
      return std::pair{original, !tilt     ? original
                                 : failure ? fail_share / kinds
                                           : (1 - fail_share) * r / repairs};
    };
    double u = rng.uniform();
    // The candidates in a fixed order (per domain: its device failure, its failure, its repair);
    // the last one with a positive rate absorbs rounding.
    std::size_t last = 0;
    int last_kind = 0;
    for (std::size_t j = 0; j < failed_.size(); ++j)
      for (int kind = 0; kind < 3; ++kind) {
        const double r = rate_of(j, kind);
        if (r == 0) continue;
        last = j;
        last_kind = kind;
        const auto [original, p] = chance(r, kind < 2);
        if (u < p) {
          ratio *= original / p;
          return apply(j, kind, rng);
        }
        u -= p;
      }
    const auto [original, p] = chance(rate_of(last, last_kind), last_kind < 2);
    ratio *= original / p;
    return apply(last, last_kind, rng);
  }

 private:
  // A device failure (device) or the domain's failure (!device) in a domain with f failed.
  double kinds_rate(int f, bool device) const {
    const int working = r_.per_domain - f;
    if (working == 0) return 0;
    return device ? working * r_.failure_rate : r_.domain_failure_rate;
  }
  double rate_of(std::size_t j, int kind) const {
    const int f = failed_[j];
    return kind == 0 ? kinds_rate(f, true) : kind == 1 ? kinds_rate(f, false) : f * r_.repair_rate;
  }

  bool apply(std::size_t j, int kind, philox_stream& rng) {
    if (kind == 2) {
      --failed_[j];
      --total_;
      return false;
    }
    const int lost = kind == 0 ? 1 : r_.per_domain - failed_[j];
    failed_[j] += lost;
    total_ += lost;
    if (total_ > r_.tolerance) return true;
    // A failure that leaves no redundancy: the critical rebuild fails with probability h. Not
    // biased, so it leaves the likelihood ratio alone.
    return total_ == r_.tolerance && r_.rebuild_error > 0 && rng.uniform() < r_.rebuild_error;
  }

  const domain_walk_rates& s_;
  const domain_group_rates& r_;
  std::vector<int> failed_;
  int total_ = 0;
};

}  // namespace

double domain_cycle_hours(const domain_walk_rates& s, philox_stream& rng) {
  return walk::cycle_hours<domain_walk>(s, rng);
}

double domain_cycle_loss_weight(const domain_walk_rates& s, philox_stream& rng) {
  return walk::cycle_loss_weight<domain_walk>(s, rng);
}

double domain_mission_loss_weight(const domain_walk_rates& s, double t, philox_stream& rng) {
  return walk::mission_loss_weight<domain_walk>(s, t, rng);
}

double domain_mission_loss_plain(const domain_walk_rates& s, double t, philox_stream& rng) {
  return walk::mission_loss_plain<domain_walk>(s, t, rng);
}

}  // namespace mcpilot::storage
