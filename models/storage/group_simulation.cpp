#include "storage/group_simulation.hpp"

#include <algorithm>
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <tuple>

namespace mcpilot::storage {

namespace {

// Index and value of the smallest entry.
std::pair<int, double> earliest(const std::vector<double>& v) {
  int at = -1;
  double best = inf;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] < best) {
      best = v[i];
      at = static_cast<int>(i);
    }
  return {at, best};
}

}  // namespace

group_process::group_process(const group_config& g, philox_stream& rng)
    : g_(g),
      rng_(rng),
      fail_at_(static_cast<std::size_t>(g.disks)),
      rebuild_end_(inf),
      defect_(g.latent_rate > 0 ? static_cast<std::size_t>(g.disks) : 0, 0),
      back_at_(static_cast<std::size_t>(g.disks), inf),
      down_since_(inf),
      next_scrub_(g.latent_rate > 0 && g.scrub_interval > 0 ? g.scrub_interval : inf),
      lost_(inf) {
  for (auto& f : fail_at_) f = g.lifetime.sample(rng_);
  if (g.parallel) done_at_.assign(static_cast<std::size_t>(g.disks), inf);
  next_latent_ = next_latent_after(0);
  next_outage_ = next_outage_after(0);
}

// Without outages nothing is drawn, so a configuration without them replays the same streams.
double group_process::next_outage_after(double t) {
  const int eligible = g_.disks - failed_ - out_;
  if (!g_.outage.active() || eligible == 0) return inf;
  return t + boost::random::exponential_distribution<double>(g_.outage.rate * eligible)(rng_);
}

void group_process::note(double t) {
  const bool down = failed_ + out_ > g_.tolerance;
  if (down && down_since_ == inf) {
    down_since_ = t;
  } else if (!down && down_since_ < inf) {
    if (t > down_since_) unavailable_.emplace_back(down_since_, t);
    down_since_ = inf;
  }
}

void group_process::note_loss(double t) {
  if (down_since_ < inf && t > down_since_) unavailable_.emplace_back(down_since_, t);
  down_since_ = inf;
}

void group_process::take_out(double t, const std::vector<int>& disks, double until) {
  if (lost_ < inf) return;
  for (const int d : disks) {
    const auto i = static_cast<std::size_t>(d);
    if (fail_at_[i] == inf) continue;
    if (back_at_[i] == inf) {
      back_at_[i] = until;
      ++out_;
    } else {
      back_at_[i] = std::max(back_at_[i], until);
    }
  }
  note(t);
  next_outage_ = next_outage_after(t);
}

void group_process::destroy(double t, const std::vector<int>& disks) {
  if (lost_ < inf) return;
  for (const int d : disks)
    if (fail_at_[static_cast<std::size_t>(d)] != inf) fail_at_[static_cast<std::size_t>(d)] = t;
}

std::vector<period> group_process::unavailable_until(double end) const {
  std::vector<period> v;
  for (const auto& [a, b] : unavailable_)
    if (a < end) v.emplace_back(a, std::min(b, end));
  if (down_since_ < end) v.emplace_back(down_since_, end);
  return v;
}

double group_process::next_latent_after(double t) {
  const int working = g_.disks - failed_;
  if (!(g_.latent_rate > 0) || working == 0) return inf;
  return t + boost::random::exponential_distribution<double>(g_.latent_rate * working)(rng_);
}

double group_process::advance(double horizon) {
  if (lost_ < inf) return lost_ <= horizon ? lost_ : inf;
  const bool repairs = g_.repair.type != duration_law::kind::none;
  while (true) {
    const auto [disk, t_fail] = earliest(fail_at_);
    int rebuilt = -1;
    double t_rebuild = inf;
    if (g_.parallel) {
      std::tie(rebuilt, t_rebuild) = earliest(done_at_);
    } else if (head_ < queue_.size()) {
      rebuilt = queue_[head_];
      t_rebuild = rebuild_end_;
    }
    const auto [back, t_back] = out_ > 0 ? earliest(back_at_) : std::pair{-1, inf};
    const double t = std::min({t_fail, t_rebuild, next_latent_, next_scrub_, next_outage_, t_back});
    if (t > horizon || t == inf) return inf;

    if (t == t_fail) {
      const auto d = static_cast<std::size_t>(disk);
      fail_at_[d] = inf;
      ++failed_;
      if (back_at_[d] != inf) {  // failed while out: the outage ends with it
        back_at_[d] = inf;
        --out_;
      }
      if (!defect_.empty() && defect_[d]) {
        defect_[d] = 0;
        --defects_;
      }
      bool loss = failed_ > g_.tolerance;
      if (!loss && failed_ == g_.tolerance) {
        // No redundancy left: the critical rebuild may hit a read error, and a latent defect on
        // a working disk can no longer be repaired.
        loss = (g_.rebuild_error > 0 && g_.tolerance > 0 && rng_.uniform() < g_.rebuild_error) ||
               defects_ > 0;
      }
      if (loss) {
        // Lost data is counted by the loss quantities: an unavailable period ends here.
        note_loss(t);
        return lost_ = t;
      }
      if (repairs) {
        if (g_.parallel) {
          done_at_[d] = t + g_.repair.sample(rng_);
        } else {
          queue_.push_back(disk);
          if (queue_.size() - head_ == 1) rebuild_end_ = t + g_.repair.sample(rng_);
        }
      }
      next_latent_ = next_latent_after(t);
      next_outage_ = next_outage_after(t);
      note(t);
    } else if (t == t_rebuild) {
      --failed_;
      fail_at_[static_cast<std::size_t>(rebuilt)] = t + g_.lifetime.sample(rng_);
      if (g_.parallel) {
        done_at_[static_cast<std::size_t>(rebuilt)] = inf;
      } else if (++head_ == queue_.size()) {
        queue_.clear();
        head_ = 0;
        rebuild_end_ = inf;
      } else {
        rebuild_end_ = t + g_.repair.sample(rng_);
      }
      next_latent_ = next_latent_after(t);
      next_outage_ = next_outage_after(t);
      note(t);
    } else if (t == t_back) {
      back_at_[static_cast<std::size_t>(back)] = inf;
      --out_;
      next_outage_ = next_outage_after(t);
      note(t);
    } else if (t == next_outage_) {
      // On a uniformly chosen working disk that is not already out.
      int k = boost::random::uniform_int_distribution<int>(0, g_.disks - failed_ - out_ - 1)(rng_);
      std::size_t i = 0;
      for (;; ++i)
        if (fail_at_[i] != inf && back_at_[i] == inf && k-- == 0) break;
      back_at_[i] = t + g_.outage.duration.sample(rng_);
      ++out_;
      next_outage_ = next_outage_after(t);
      note(t);
    } else if (t == next_latent_) {
      // On a uniformly chosen working disk; a second error on a defective disk changes nothing.
      int k = boost::random::uniform_int_distribution<int>(0, g_.disks - failed_ - 1)(rng_);
      std::size_t i = 0;
      for (;; ++i)
        if (fail_at_[i] != inf && k-- == 0) break;
      if (!defect_[i]) {
        defect_[i] = 1;
        ++defects_;
      }
      next_latent_ = next_latent_after(t);
    } else {
      std::fill(defect_.begin(), defect_.end(), 0);
      defects_ = 0;
      next_scrub_ += g_.scrub_interval;
    }
  }
}

double simulate_group(const group_config& g, philox_stream& rng, double horizon) {
  return group_process(g, rng).advance(horizon);
}

}  // namespace mcpilot::storage
