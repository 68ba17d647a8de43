#include "placement/lifetime.hpp"

#include <algorithm>
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <limits>

namespace mcpilot::placement {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// The history's state, with the counts per group that decide loss and unavailability.
class history {
 public:
  history(const layout& l, const std::vector<std::vector<int>>& of, const lifetime_settings& s,
          philox_stream& rng)
      : of_(of), s_(s), rng_(rng), v_(static_cast<std::size_t>(l.devices)) {
    next_.resize(v_);
    for (auto& t : next_) t = s.lifetime.sample(rng);
    failed_.assign(v_, 0);
    failed_count_.assign(l.groups.size(), 0);
    down_count_.assign(l.groups.size(), 0);
    lost_.assign(l.groups.size(), 0);
    outages_ = s.outage.active() || (s.domains.count > 0 && s.domains.outage.active());
    out_end_.assign(v_, inf);
    outage_at_.assign(v_, inf);
    if (s.outage.active())
      for (std::size_t d = 0; d < v_; ++d) outage_at_[d] = outage_after(0);
    if (s.domains.active()) {
      domain_rate_ = s.domains.count * (s.domains.outage.rate + s.domains.failure_rate);
      next_domain_ = domain_after(0);
    }
  }

  lifetime_outcome run() {
    for (;;) {
      // The earliest event; ties go to the lowest device, failures and repairs first.
      std::size_t d =
          static_cast<std::size_t>(std::min_element(next_.begin(), next_.end()) - next_.begin());
      double now = next_[d];
      enum { repair_or_failure, outage_end, outage_start, domain_event } what = repair_or_failure;
      if (outages_) {
        for (std::size_t e = 0; e < v_; ++e) {
          if (out_end_[e] < now) now = out_end_[e], d = e, what = outage_end;
          if (outage_at_[e] < now) now = outage_at_[e], d = e, what = outage_start;
        }
      }
      if (next_domain_ < now) now = next_domain_, what = domain_event;
      if (now == inf) {
        // Every device failed for good without a loss: impossible when t < k, kept as a guard.
        out_.loss_hours = inf;
        close_mission();
        return out_;
      }
      if (outages_ && now > s_.mission_hours) {
        end_outages();
        continue;  // the event may have been an outage's
      }
      if (lost_any_ && now > s_.mission_hours) break;
      switch (what) {
        case repair_or_failure:
          if (failed_[d])
            repair(d, now);
          else
            fail(d, now);
          break;
        case outage_end:
          back(d, now);
          break;
        case outage_start:
          take_out(d, now + s_.outage.duration.sample(rng_));
          outage_at_[d] = inf;
          break;
        case domain_event:
          domain(now);
          break;
      }
      note(now);
    }
    close_mission();
    return out_;
  }

 private:
  double outage_after(double t) {
    return t + boost::random::exponential_distribution<double>(s_.outage.rate)(rng_);
  }
  double domain_after(double t) {
    return t + boost::random::exponential_distribution<double>(domain_rate_)(rng_);
  }
  bool out(std::size_t d) const { return out_end_[d] < inf; }

  // A group's down count moved by `step`: entering or leaving "unavailable". Kept only while
  // outages are followed: without them a group is down exactly when it has lost data.
  void down_step(int g, int step) {
    const auto i = static_cast<std::size_t>(g);
    const bool before = down_count_[i] > s_.tolerance && !lost_[i];
    down_count_[i] += step;
    const bool after = down_count_[i] > s_.tolerance && !lost_[i];
    unavailable_ += static_cast<int>(after) - static_cast<int>(before);
  }

  void fail(std::size_t d, double now) {
    if (out_.first_failed < 0) out_.first_failed = static_cast<int>(d);
    const bool was_out = out(d);
    out_end_[d] = inf;
    outage_at_[d] = inf;
    failed_[d] = 1;
    for (int g : of_[d]) {
      const auto i = static_cast<std::size_t>(g);
      if (outages_ && !was_out) down_step(g, +1);
      if (++failed_count_[i] > s_.tolerance && !lost_[i]) {
        // Lost now, no longer unavailable.
        if (outages_ && down_count_[i] > s_.tolerance) --unavailable_;
        lost_[i] = 1;
        if (!lost_any_) out_.loss_hours = now;
        lost_any_ = true;
        if (now <= s_.mission_hours) ++out_.groups_lost;
      }
    }
    next_[d] = now + s_.repair.sample(rng_) + s_.rebuild_hours[d];
  }

  void repair(std::size_t d, double now) {
    failed_[d] = 0;
    for (int g : of_[d]) {
      --failed_count_[static_cast<std::size_t>(g)];
      if (outages_) down_step(g, -1);
    }
    next_[d] = now + s_.lifetime.sample(rng_);
    if (outages_ && s_.outage.active()) outage_at_[d] = outage_after(now);
  }

  // Device d goes out until `until`, or stays out until the later end.
  void take_out(std::size_t d, double until) {
    if (out(d)) {
      out_end_[d] = std::max(out_end_[d], until);
      return;
    }
    out_end_[d] = until;
    outage_at_[d] = inf;
    for (int g : of_[d]) down_step(g, +1);
  }

  void back(std::size_t d, double now) {
    out_end_[d] = inf;
    for (int g : of_[d]) down_step(g, -1);
    if (s_.outage.active()) outage_at_[d] = outage_after(now);
  }

  void domain(double now) {
    // Domain j holds devices j, j + count, j + 2 count, ... (domain_of_device).
    const auto& dc = s_.domains;
    const auto step = static_cast<std::size_t>(dc.count);
    const int which = boost::random::uniform_int_distribution<int>(0, dc.count - 1)(rng_);
    const bool outage = rng_.uniform() * (dc.outage.rate + dc.failure_rate) < dc.outage.rate;
    if (outage) {
      const double until = now + dc.outage.duration.sample(rng_);
      if (outages_)
        for (std::size_t d = static_cast<std::size_t>(which); d < v_; d += step)
          if (!failed_[d]) take_out(d, until);
    } else {
      // rebuild_hours is the first failed device's: a uniform member of a uniform domain (the
      // domains are the same size) keeps that device uniform.
      if (out_.first_failed < 0)
        out_.first_failed =
            which +
            dc.count * static_cast<int>(boost::random::uniform_int_distribution<std::size_t>(
                           0, v_ / step - 1)(rng_));
      for (std::size_t d = static_cast<std::size_t>(which); d < v_; d += step)
        if (!failed_[d]) fail(d, now);
    }
    next_domain_ = domain_after(now);
  }

  // Opens or closes the period during which some group is unavailable.
  void note(double now) {
    if (!counting_) return;
    if (unavailable_ > 0 && since_ == inf) {
      since_ = now;
      if (now <= s_.mission_hours) ++out_.unavailable_periods;
    } else if (unavailable_ == 0 && since_ < inf) {
      out_.unavailable_hours += std::max(0.0, std::min(now, s_.mission_hours) - since_);
      since_ = inf;
    }
  }

  // Past the mission the outages stop: every device still out is back, and none goes out again.
  void end_outages() {
    close_mission();
    for (std::size_t d = 0; d < v_; ++d) {
      if (out(d)) {
        out_end_[d] = inf;
        for (int g : of_[d]) down_step(g, -1);
      }
      outage_at_[d] = inf;
    }
    outages_ = false;
  }

  void close_mission() {
    if (since_ < inf) out_.unavailable_hours += std::max(0.0, s_.mission_hours - since_);
    since_ = inf;
    counting_ = false;
  }

  const std::vector<std::vector<int>>& of_;
  const lifetime_settings& s_;
  philox_stream& rng_;
  std::size_t v_;
  std::vector<double> next_;  // failure time while working or out, repair end while failed
  std::vector<char> failed_;
  std::vector<int> failed_count_, down_count_;
  std::vector<char> lost_;
  bool lost_any_ = false;
  bool outages_ = false;
  std::vector<double> out_end_;    // end of the device's outage while out, +inf otherwise
  std::vector<double> outage_at_;  // next start of an outage of its own, +inf when none is due
  double domain_rate_ = 0, next_domain_ = inf;
  int unavailable_ = 0;   // groups unavailable now
  bool counting_ = true;  // within the mission
  double since_ = inf;    // start of the current unavailable period
  lifetime_outcome out_;
};

}  // namespace

lifetime_outcome simulate_lifetime(const layout& l, const std::vector<std::vector<int>>& of,
                                   const lifetime_settings& s, philox_stream& rng) {
  return history(l, of, s, rng).run();
}

}  // namespace mcpilot::placement
