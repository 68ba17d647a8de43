#include "placement/lifetime_walk.hpp"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cstddef>

#include "storage/walk_estimators.hpp"

namespace mcpilot::placement {

namespace {

// The walks' state lives in the walk object for designs of up to 32 devices, domains and groups:
// a walk is built for every excursion, and six heap vectors each time were a tenth of an
// importance-sampled reading's time (a third of it under ASan).
template <class T>
using small_vector = boost::container::small_vector<T, 32>;

// A set of indices 0 … n−1 split in two, with O(1) moves between the halves and O(1) draws of a
// uniform member of either: members [0, split) are "in", the rest "out".
class split_set {
 public:
  explicit split_set(std::size_t n, bool all_in) : item_(n), where_(n), split_(all_in ? n : 0) {
    for (std::size_t i = 0; i < n; ++i) item_[i] = where_[i] = i;
  }
  std::size_t in() const { return split_; }
  std::size_t out() const { return item_.size() - split_; }
  bool is_in(std::size_t i) const { return where_[i] < split_; }
  std::size_t in_at(std::size_t k) const { return item_[k]; }
  std::size_t out_at(std::size_t k) const { return item_[split_ + k]; }
  void take_out(std::size_t i) { swap_to(i, --split_); }
  void put_in(std::size_t i) { swap_to(i, split_++); }

 private:
  void swap_to(std::size_t i, std::size_t k) {
    const std::size_t j = item_[k];
    std::swap(item_[where_[i]], item_[k]);
    std::swap(where_[i], where_[j]);
  }
  small_vector<std::size_t> item_, where_;
  std::size_t split_;
};

class lifetime_walk {
 public:
  explicit lifetime_walk(const lifetime_walk_settings& s)
      : s_(s),
        devices_(s.of->size(), true),
        domains_(s.domain_failure_rate > 0 ? static_cast<std::size_t>(s.domains) : 0, true),
        working_in_(domains_.in() + domains_.out(), 0),
        failed_count_(static_cast<std::size_t>(s.groups), 0) {
    for (std::size_t d = 0; d < devices_.in() && !working_in_.empty(); ++d)
      ++working_in_[d % working_in_.size()];
  }

  bool all_up() const { return devices_.out() == 0; }

  double total_rate() const {
    return s_.failure_rate * static_cast<double>(devices_.in()) +
           s_.domain_failure_rate * static_cast<double>(domains_.in()) +
           s_.repair_rate * static_cast<double>(devices_.out());
  }

  bool jump(philox_stream& rng, bool biased, double& ratio) {
    const double working = static_cast<double>(devices_.in());
    const double live = static_cast<double>(domains_.in());
    const double failed = static_cast<double>(devices_.out());
    const double total = total_rate();
    // The probability of each single move of a kind: a device failing, a domain failing, a repair.
    double device = s_.failure_rate / total, domain = s_.domain_failure_rate / total,
           repair = s_.repair_rate / total;
    const bool tilt = biased && (!all_up() || (s_.domain_loses_at_once && live > 0 && working > 0));
    if (tilt && !all_up()) {
      const double kinds = working + live;
      device = domain = kinds > 0 ? s_.bias / kinds : 0.0;
      repair = (kinds > 0 ? 1 - s_.bias : 1.0) / failed;
    } else if (tilt) {
      // All up, with domains that can lose data at once: their failures are as likely as the
      // devices', instead of a few per mille of the moves.
      device = (1 - s_.bias) / working;
      domain = s_.bias / live;
    }
    const double to_device = device * working, to_domain = domain * live;
    const auto pick = [](double x, std::size_t n) {
      return std::min(static_cast<std::size_t>(x * static_cast<double>(n)), n - 1);
    };
    // The last kind that can be drawn absorbs rounding.
    const double u = rng.uniform();
    if (u < to_device || (to_domain == 0 && failed == 0)) {
      if (tilt) ratio *= s_.failure_rate / total / device;
      return fail(devices_.in_at(pick(u / to_device, devices_.in())));
    }
    if (u < to_device + to_domain || failed == 0) {
      if (tilt) ratio *= s_.domain_failure_rate / total / domain;
      return fail_domain(domains_.in_at(pick((u - to_device) / to_domain, domains_.in())));
    }
    if (tilt) ratio *= s_.repair_rate / total / repair;
    repair_device(devices_.out_at(
        pick((u - to_device - to_domain) / (1 - to_device - to_domain), devices_.out())));
    return false;
  }

 private:
  // True when some group of d now has more than `tolerance` devices failed.
  bool fail(std::size_t d) {
    devices_.take_out(d);
    if (!working_in_.empty()) {
      const std::size_t j = d % working_in_.size();
      if (--working_in_[j] == 0 && domains_.is_in(j)) domains_.take_out(j);
    }
    bool lost = false;
    for (int g : (*s_.of)[d]) lost |= ++failed_count_[static_cast<std::size_t>(g)] > s_.tolerance;
    return lost;
  }

  bool fail_domain(std::size_t j) {
    bool lost = false;
    for (std::size_t d = j; d < (*s_.of).size(); d += working_in_.size())
      if (devices_.is_in(d)) lost |= fail(d);
    return lost;
  }

  void repair_device(std::size_t d) {
    devices_.put_in(d);
    if (!working_in_.empty()) {
      const std::size_t j = d % working_in_.size();
      if (working_in_[j]++ == 0) domains_.put_in(j);
    }
    for (int g : (*s_.of)[d]) --failed_count_[static_cast<std::size_t>(g)];
  }

  const lifetime_walk_settings& s_;
  split_set devices_;             // in: working
  split_set domains_;             // in: holding at least one working device
  small_vector<int> working_in_;  // working devices per domain
  small_vector<int> failed_count_;
};

}  // namespace

double lifetime_cycle_hours(const lifetime_walk_settings& s, philox_stream& rng) {
  return storage::walk::cycle_hours<lifetime_walk>(s, rng);
}

double lifetime_cycle_loss_weight(const lifetime_walk_settings& s, philox_stream& rng) {
  return storage::walk::cycle_loss_weight<lifetime_walk>(s, rng);
}

double lifetime_mission_loss_weight(const lifetime_walk_settings& s, double mission,
                                    philox_stream& rng) {
  return storage::walk::mission_loss_weight<lifetime_walk>(s, mission, rng);
}

double lifetime_mission_loss_plain(const lifetime_walk_settings& s, double mission,
                                   philox_stream& rng) {
  return storage::walk::mission_loss_plain<lifetime_walk>(s, mission, rng);
}

}  // namespace mcpilot::placement
