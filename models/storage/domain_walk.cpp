#include "storage/domain_walk.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "storage/walk_estimators.hpp"

namespace mcpilot::storage {

namespace {

// Each group's failed devices in the order they failed, for one rebuild at a time: a ring of
// `capacity` slots per group in one vector (a group holds at most its own devices), so that a walk,
// built for every cycle and excursion, does not build a deque per group.
class rebuild_queues {
 public:
  rebuild_queues(std::size_t groups, std::size_t capacity)
      : capacity_(capacity), slot_(groups * capacity), head_(groups, 0), size_(groups, 0) {}
  std::size_t front(std::size_t g) const { return slot_[g * capacity_ + head_[g]]; }
  void push_back(std::size_t g, std::size_t d) {
    slot_[g * capacity_ + (head_[g] + size_[g]) % capacity_] = d;
    ++size_[g];
  }
  void pop_front(std::size_t g) {
    head_[g] = (head_[g] + 1) % capacity_;
    --size_[g];
  }
  void clear(std::size_t g) { head_[g] = size_[g] = 0; }

 private:
  std::size_t capacity_;
  std::vector<std::size_t> slot_, head_, size_;
};

// The moves a state allows, in the fixed order in which they are drawn.
enum class move { fail_device, rebuild, fail_domain, outage_starts, outage_ends, domain_outage };

class domain_walk {
 public:
  explicit domain_walk(const domain_walk_rates& s)
      : s_(s),
        devices_(s.groups_of
                     ? s.groups_of->size()
                     : static_cast<std::size_t>(s.groups) * static_cast<std::size_t>(s.disks)),
        failed_(devices_, 0),
        holds_(devices_, 0),
        group_failed_(static_cast<std::size_t>(s.groups), 0),
        group_down_(static_cast<std::size_t>(s.groups), 0),
        // Parallel rebuilds keep no queue.
        queue_(s.parallel ? 0 : static_cast<std::size_t>(s.groups),
               s.parallel ? 0 : static_cast<std::size_t>(s.disks)),
        domain_working_(static_cast<std::size_t>(s.domains),
                        static_cast<int>(devices_ / static_cast<std::size_t>(s.domains))),
        domain_up_(domain_working_),
        live_domains_(s.domains),
        domains_with_up_(s.domains),
        up_total_(devices_),
        // A group's disks are consecutive device numbers, so a domain holds ceil(disks / domains)
        // of them at most; overlapping groups come with the answer.
        at_once_(s.groups_of ? s.domain_loses_at_once
                             : (s.disks + s.domains - 1) / s.domains > s.tolerance) {
    if (s.groups_of && !s.parallel)
      throw std::logic_error("domain_walk: overlapping groups need parallel rebuilds");
  }

  bool all_up() const { return failed_total_ == 0 && outages_.empty(); }
  // Some group has more than `tolerance` devices failed or out.
  bool unavailable() const { return groups_down_ > 0; }

  double total_rate() const {
    const rates r = current();
    return r.down + r.back;
  }

  // One jump of the jump chain (balanced failure biasing when `biased` and not all up; in all
  // up, domain events against device events, domain_walk.hpp), its likelihood ratio multiplying
  // `ratio`; true when some group lost data (renew() replaces it).
  bool jump(philox_stream& rng, bool biased, double& ratio) {
    // Plain copies, not a structured binding: clang 14 cannot capture bindings in a lambda.
    const rates now = current();
    const double down = now.down, back = now.back, kinds = now.kinds;
    const double total = down + back;
    const bool all = all_up();
    const bool tilt = biased && !all;
    const double down_share = back > 0 ? (kinds > 0 ? s_.bias : 0.0) : 1.0;
    // All up, where a domain event can take a group past its tolerance at once: every move leads
    // down, and the domain events share `bias` when device events exist too.
    const double n = static_cast<double>(devices_), d = static_cast<double>(s_.domains);
    const double device_kinds = (s_.failure_rate > 0 ? n : 0) + (s_.outage_rate > 0 ? n : 0);
    const double domain_kinds =
        (s_.domain_failure_rate > 0 ? d : 0) + (s_.domain_outage_rate > 0 ? d : 0);
    const bool tilt_up = biased && all && at_once_ && device_kinds > 0 && domain_kinds > 0;
    const auto chance = [&](double r, bool toward_down, move m) {
      if (tilt_up)
        return m == move::fail_domain || m == move::domain_outage ? s_.bias / domain_kinds
                                                                  : (1 - s_.bias) / device_kinds;
      return !tilt ? r / total : toward_down ? down_share / kinds : (1 - down_share) * r / back;
    };
    // The last candidate that can be drawn absorbs rounding.
    double u = rng.uniform();
    move what = move::fail_device;
    std::size_t which = 0;
    double rate = 0, p = 0;
    visit([&](move m, std::size_t i, double r, bool toward_down) {
      const double c = chance(r, toward_down, m);
      if (!(c > 0)) return false;
      what = m;
      which = i;
      rate = r;
      p = c;
      if (u < c) return true;
      u -= c;
      return false;
    });
    ratio *= rate / total / p;
    lost_.clear();
    switch (what) {
      case move::fail_device:
        fail(which);
        each_group(which, [&](std::size_t g) { settle(g, rng); });
        break;
      case move::rebuild:
        rebuild(which);
        break;
      case move::fail_domain:
        fail_domain(which, rng);
        break;
      case move::outage_starts:
        start_outage({which}, true);
        break;
      case move::outage_ends:
        end_outage(which);
        break;
      case move::domain_outage:
        start_outage(working_in(which), false);
        break;
    }
    return !lost_.empty();
  }

  // Each group that lost data in the last jump replaced by a new one, all up.
  // With overlapping groups a new group needs new devices, so every device of a lost group comes
  // back up, and the other groups it serves count it up again.
  void renew() {
    for (const std::size_t g : lost_) {
      each_member(g, [&](std::size_t d) {
        leave_outages(d);
        if (failed_[d]) come_back(d);
      });
      if (!s_.parallel) queue_.clear(g);
    }
    lost_.clear();
  }

 private:
  struct outage {
    std::vector<std::size_t> held;
    bool own;
  };

  // The rates of the moves toward unavailability or loss, and of those back, and how many kinds
  // of the first there are, from the counts kept (the sums in the order the chain of failed
  // devices alone had, so that its draws are unchanged).
  struct rates {
    double down, back, kinds;
  };
  rates current() const {
    const auto working = static_cast<double>(devices_ - failed_total_);
    const auto live = static_cast<double>(live_domains_);
    const auto up = static_cast<double>(up_total_);
    const auto with_up = static_cast<double>(domains_with_up_);
    const auto rebuilding = static_cast<double>(s_.parallel ? failed_total_ : groups_failed_);
    rates r;
    r.down = working * s_.failure_rate + live * s_.domain_failure_rate;
    r.back = rebuilding * s_.repair_rate;
    r.kinds = (s_.failure_rate > 0 ? working : 0) + (s_.domain_failure_rate > 0 ? live : 0);
    if (s_.outage_rate > 0) {
      r.down += up * s_.outage_rate;
      r.kinds += up;
    }
    if (s_.domain_outage_rate > 0) {
      r.down += with_up * s_.domain_outage_rate;
      r.kinds += with_up;
      r.back += (live - with_up) * s_.domain_outage_rate;
    }
    r.back += static_cast<double>(own_outages_) * s_.outage_end +
              static_cast<double>(outages_.size() - own_outages_) * s_.domain_outage_end;
    return r;
  }

  std::size_t domain_of(std::size_t d) const { return d % domain_working_.size(); }
  // The one group of device d when groups do not overlap (the serial rebuild queue's).
  std::size_t group_of(std::size_t d) const { return d / static_cast<std::size_t>(s_.disks); }
  template <class F>
  void each_group(std::size_t d, F&& f) const {
    if (!s_.groups_of) return f(group_of(d));
    for (const int g : (*s_.groups_of)[d]) f(static_cast<std::size_t>(g));
  }
  template <class F>
  void each_member(std::size_t g, F&& f) const {
    if (!s_.groups_of) {
      const std::size_t first = g * static_cast<std::size_t>(s_.disks);
      for (std::size_t d = first; d < first + static_cast<std::size_t>(s_.disks); ++d) f(d);
      return;
    }
    for (std::size_t d = 0; d < devices_; ++d) {
      const auto& of = (*s_.groups_of)[d];
      if (std::find(of.begin(), of.end(), static_cast<int>(g)) != of.end()) f(d);
    }
  }
  bool up(std::size_t d) const { return !failed_[d] && holds_[d] == 0; }

  // Calls f(move, index, rate, toward_down) for every move of positive rate, in a fixed order
  // (without outages, the order of the chain of failed devices alone: each device's failure or
  // rebuild, then each domain's failure); stops when f returns true.
  template <class F>
  void visit(F&& f) {
    for (std::size_t d = 0; d < devices_; ++d) {
      if (!failed_[d]) {
        if (s_.failure_rate > 0 && f(move::fail_device, d, s_.failure_rate, true)) return;
      } else if (s_.repair_rate > 0 && (s_.parallel || queue_.front(group_of(d)) == d)) {
        if (f(move::rebuild, d, s_.repair_rate, false)) return;
      }
    }
    if (s_.domain_failure_rate > 0)
      for (std::size_t j = 0; j < domain_working_.size(); ++j)
        if (domain_working_[j] > 0 && f(move::fail_domain, j, s_.domain_failure_rate, true)) return;
    if (s_.outage_rate > 0)
      for (std::size_t d = 0; d < devices_; ++d)
        if (up(d) && f(move::outage_starts, d, s_.outage_rate, true)) return;
    for (std::size_t o = 0; o < outages_.size(); ++o)
      if (f(move::outage_ends, o, outages_[o].own ? s_.outage_end : s_.domain_outage_end, false))
        return;
    if (s_.domain_outage_rate > 0) {
      for (std::size_t j = 0; j < domain_working_.size(); ++j)
        if (domain_working_[j] > 0 &&
            f(move::domain_outage, j, s_.domain_outage_rate, domain_up_[j] > 0))
          return;
    }
  }

  // The counts behind current(), kept as devices fail, come back, and go out.
  void working_changed(std::size_t d, int delta) {
    int& w = domain_working_[domain_of(d)];
    live_domains_ += (w + delta > 0 ? 1 : 0) - (w > 0 ? 1 : 0);
    w += delta;
  }
  void up_changed(std::size_t d, int delta) {
    int& u = domain_up_[domain_of(d)];
    domains_with_up_ += (u + delta > 0 ? 1 : 0) - (u > 0 ? 1 : 0);
    u += delta;
    up_total_ += delta;
  }

  void set_down(std::size_t g, int delta) {
    const bool was = group_down_[g] > s_.tolerance;
    group_down_[g] += delta;
    groups_down_ += (group_down_[g] > s_.tolerance ? 1 : 0) - (was ? 1 : 0);
  }

  // Takes d out of every outage holding it; an outage that holds nothing more is over.
  void leave_outages(std::size_t d) {
    if (holds_[d] == 0) return;
    for (std::size_t o = outages_.size(); o-- > 0;) {
      auto& held = outages_[o].held;
      const auto at = std::find(held.begin(), held.end(), d);
      if (at == held.end()) continue;
      held.erase(at);
      if (held.empty()) remove_outage(o);
    }
    holds_[d] = 0;
    each_group(d, [&](std::size_t g) { set_down(g, -1); });
    up_changed(d, 1);
  }
  void remove_outage(std::size_t o) {
    own_outages_ -= outages_[o].own ? 1 : 0;
    outages_[o] = std::move(outages_.back());
    outages_.pop_back();
  }

  void fail(std::size_t d) {
    leave_outages(d);
    failed_[d] = 1;
    each_group(d, [&](std::size_t g) {
      groups_failed_ += group_failed_[g]++ == 0 ? 1 : 0;
      set_down(g, 1);
    });
    working_changed(d, -1);
    up_changed(d, -1);
    ++failed_total_;
    if (!s_.parallel) queue_.push_back(group_of(d), d);
  }
  // After failures that raised `group`'s count: loss when it passes the tolerance, or, when it
  // leaves exactly `tolerance` failed, by the critical rebuild's read error (probability h, not
  // biased, so it leaves the likelihood ratio alone).
  void settle(std::size_t g, philox_stream& rng) {
    const int f = group_failed_[g];
    if (f > s_.tolerance ||
        (f == s_.tolerance && s_.rebuild_error > 0 && rng.uniform() < s_.rebuild_error))
      lost_.push_back(g);
  }
  void fail_domain(std::size_t j, philox_stream& rng) {
    std::vector<std::size_t> hit;
    for (const std::size_t d : working_in(j)) {
      fail(d);
      each_group(d, [&](std::size_t g) { hit.push_back(g); });
    }
    std::sort(hit.begin(), hit.end());
    hit.erase(std::unique(hit.begin(), hit.end()), hit.end());
    for (const std::size_t g : hit) settle(g, rng);
  }
  void rebuild(std::size_t d) {
    come_back(d);
    if (!s_.parallel) queue_.pop_front(group_of(d));
  }
  void come_back(std::size_t d) {
    failed_[d] = 0;
    each_group(d, [&](std::size_t g) {
      groups_failed_ -= --group_failed_[g] == 0 ? 1 : 0;
      set_down(g, -1);
    });
    working_changed(d, 1);
    up_changed(d, 1);
    --failed_total_;
  }

  std::vector<std::size_t> working_in(std::size_t j) const {
    std::vector<std::size_t> v;
    for (std::size_t d = j; d < devices_; d += domain_working_.size())
      if (!failed_[d]) v.push_back(d);
    return v;
  }
  void start_outage(std::vector<std::size_t> held, bool own) {
    for (const std::size_t d : held)
      if (holds_[d]++ == 0) {
        each_group(d, [&](std::size_t g) { set_down(g, 1); });
        up_changed(d, -1);
      }
    own_outages_ += own ? 1 : 0;
    outages_.push_back({std::move(held), own});
  }
  void end_outage(std::size_t o) {
    for (const std::size_t d : outages_[o].held)
      if (--holds_[d] == 0) {
        each_group(d, [&](std::size_t g) { set_down(g, -1); });
        up_changed(d, 1);
      }
    remove_outage(o);
  }

  const domain_walk_rates& s_;
  std::size_t devices_;
  std::vector<char> failed_;
  std::vector<int> holds_;  // running outages holding each device
  std::vector<int> group_failed_;
  std::vector<int> group_down_;  // failed or out, per group
  int groups_down_ = 0;          // groups with more than `tolerance` down
  rebuild_queues queue_;
  std::vector<int> domain_working_;
  std::vector<int> domain_up_;  // working devices that no outage holds, per domain
  int live_domains_;            // domains with a working device
  int domains_with_up_;         // domains with a device up
  std::size_t up_total_;
  bool at_once_;           // one domain event can take a group past `tolerance` (all-up biasing)
  int groups_failed_ = 0;  // groups with a failed device (rebuilding, one at a time)
  std::vector<outage> outages_;
  std::size_t own_outages_ = 0;
  std::vector<std::size_t> lost_;
  std::size_t failed_total_ = 0;
};

// Loss alone: outages never lose data, so the walk leaves them out.
domain_walk_rates without_outages(domain_walk_rates s) {
  s.outage_rate = s.domain_outage_rate = 0;
  return s;
}

}  // namespace

double domain_cycle_hours(const domain_walk_rates& s, philox_stream& rng) {
  return walk::cycle_hours<domain_walk>(without_outages(s), rng);
}

double domain_cycle_loss_weight(const domain_walk_rates& s, philox_stream& rng) {
  return walk::cycle_loss_weight<domain_walk>(without_outages(s), rng);
}

double domain_mission_loss_weight(const domain_walk_rates& s, double t, philox_stream& rng) {
  return walk::mission_loss_weight<domain_walk>(without_outages(s), t, rng);
}

double domain_mission_loss_plain(const domain_walk_rates& s, double t, philox_stream& rng) {
  return walk::mission_loss_plain<domain_walk>(without_outages(s), t, rng);
}

double domain_availability_cycle_hours(const domain_walk_rates& s, philox_stream& rng) {
  domain_walk w(s);
  double hours = 0, ratio = 1;
  do {
    const double q = w.total_rate();
    if (q == 0) break;  // nothing ever happens again
    hours += 1 / q;
    if (w.jump(rng, false, ratio)) w.renew();
  } while (!w.all_up());
  return hours;
}

availability_weights domain_availability_weights(const domain_walk_rates& s, philox_stream& rng) {
  domain_walk w(s);
  availability_weights out;
  double ratio = 1;
  do {
    const double q = w.total_rate();
    if (q == 0) break;
    const bool was = w.unavailable();
    if (was) out.unavailable_hours += ratio / q;
    if (w.jump(rng, true, ratio)) w.renew();
    if (!was && w.unavailable()) out.entries += ratio;
  } while (!w.all_up());
  return out;
}

}  // namespace mcpilot::storage
