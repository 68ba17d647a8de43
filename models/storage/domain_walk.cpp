#include "storage/domain_walk.hpp"

#include <vector>

#include "storage/walk_estimators.hpp"

namespace mcpilot::storage {

namespace {

class domain_walk {
 public:
  explicit domain_walk(const domain_walk_rates& s)
      : s_(s),
        devices_(static_cast<std::size_t>(s.groups) * static_cast<std::size_t>(s.disks)),
        failed_(devices_, 0),
        group_failed_(static_cast<std::size_t>(s.groups), 0),
        domain_working_(static_cast<std::size_t>(s.domains),
                        static_cast<int>(devices_ / static_cast<std::size_t>(s.domains))) {}

  bool all_up() const { return failed_total_ == 0; }

  double total_rate() const {
    const auto working = static_cast<double>(devices_ - failed_total_);
    return working * s_.failure_rate + live_domains() * s_.domain_failure_rate +
           static_cast<double>(failed_total_) * s_.repair_rate;
  }

  bool jump(philox_stream& rng, bool biased, double& ratio) {
    const auto working = static_cast<double>(devices_ - failed_total_);
    const double live = live_domains();
    const double failures = working * s_.failure_rate + live * s_.domain_failure_rate;
    const double repairs = static_cast<double>(failed_total_) * s_.repair_rate;
    const double total = failures + repairs;
    const double kinds =
        (s_.failure_rate > 0 ? working : 0) + (s_.domain_failure_rate > 0 ? live : 0);
    const bool tilt = biased && !all_up();
    const double fail_share = repairs > 0 ? s_.bias : 1.0;
    const auto chance = [&](double r, bool failure) {
      return !tilt ? r / total : failure ? fail_share / kinds : (1 - fail_share) * r / repairs;
    };
    // The candidates in a fixed order: each device's failure or repair, then each domain's
    // failure; the last one with a positive rate absorbs rounding.
    double u = rng.uniform();
    std::size_t last = 0;
    bool last_domain = false;
    for (std::size_t d = 0; d < devices_; ++d) {
      const bool failure = !failed_[d];
      const double r = failure ? s_.failure_rate : s_.repair_rate;
      if (r == 0) continue;
      last = d;
      const double p = chance(r, failure);
      if (u < p) {
        ratio *= r / total / p;
        return failure ? fail_device(d, rng) : repair(d);
      }
      u -= p;
    }
    if (s_.domain_failure_rate > 0)
      for (std::size_t j = 0; j < domain_working_.size(); ++j) {
        if (domain_working_[j] == 0) continue;
        last = j;
        last_domain = true;
        const double p = chance(s_.domain_failure_rate, true);
        if (u < p) {
          ratio *= s_.domain_failure_rate / total / p;
          return fail_domain(j, rng);
        }
        u -= p;
      }
    const double r = last_domain     ? s_.domain_failure_rate
                     : failed_[last] ? s_.repair_rate
                                     : s_.failure_rate;
    const bool failure = last_domain || !failed_[last];
    ratio *= r / total / chance(r, failure);
    if (last_domain) return fail_domain(last, rng);
    return failure ? fail_device(last, rng) : repair(last);
  }

 private:
  double live_domains() const {
    double live = 0;
    for (int w : domain_working_) live += w > 0 ? 1 : 0;
    return live;
  }
  std::size_t domain_of(std::size_t d) const { return d % domain_working_.size(); }
  std::size_t group_of(std::size_t d) const { return d / static_cast<std::size_t>(s_.disks); }

  void mark_failed(std::size_t d) {
    failed_[d] = 1;
    ++group_failed_[group_of(d)];
    --domain_working_[domain_of(d)];
    ++failed_total_;
  }
  // After failures that raised `group`'s count: loss when it passes the tolerance, or, when it
  // leaves exactly `tolerance` failed, by the critical rebuild's read error (probability h, not
  // biased, so it leaves the likelihood ratio alone).
  bool loses(std::size_t group, philox_stream& rng) const {
    const int f = group_failed_[group];
    if (f > s_.tolerance) return true;
    return f == s_.tolerance && s_.rebuild_error > 0 && rng.uniform() < s_.rebuild_error;
  }

  bool fail_device(std::size_t d, philox_stream& rng) {
    mark_failed(d);
    return loses(group_of(d), rng);
  }
  bool fail_domain(std::size_t j, philox_stream& rng) {
    const std::size_t step = domain_working_.size();
    std::vector<std::size_t> hit;
    for (std::size_t d = j; d < devices_; d += step)
      if (!failed_[d]) {
        mark_failed(d);
        if (hit.empty() || hit.back() != group_of(d)) hit.push_back(group_of(d));
      }
    bool lost = false;
    for (std::size_t g : hit) lost = loses(g, rng) || lost;
    return lost;
  }
  bool repair(std::size_t d) {
    failed_[d] = 0;
    --group_failed_[group_of(d)];
    ++domain_working_[domain_of(d)];
    --failed_total_;
    return false;
  }

  const domain_walk_rates& s_;
  std::size_t devices_;
  std::vector<char> failed_;
  std::vector<int> group_failed_;
  std::vector<int> domain_working_;
  std::size_t failed_total_ = 0;
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
