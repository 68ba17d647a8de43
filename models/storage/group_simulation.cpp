#include "storage/group_simulation.hpp"

#include <algorithm>
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <deque>
#include <tuple>

namespace mcpilot::storage {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

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
      next_scrub_(g.latent_rate > 0 && g.scrub_interval > 0 ? g.scrub_interval : inf),
      lost_(inf) {
  for (auto& f : fail_at_) f = g.lifetime.sample(rng_);
  if (g.parallel) done_at_.assign(static_cast<std::size_t>(g.disks), inf);
  next_latent_ = next_latent_after(0);
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
    const double t = std::min({t_fail, t_rebuild, next_latent_, next_scrub_});
    if (t > horizon || t == inf) return inf;

    if (t == t_fail) {
      const auto d = static_cast<std::size_t>(disk);
      fail_at_[d] = inf;
      ++failed_;
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
      if (loss) return lost_ = t;
      if (repairs) {
        if (g_.parallel) {
          done_at_[d] = t + g_.repair.sample(rng_);
        } else {
          queue_.push_back(disk);
          if (queue_.size() - head_ == 1) rebuild_end_ = t + g_.repair.sample(rng_);
        }
      }
      next_latent_ = next_latent_after(t);
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

double simulate_system(const group_config& g, int groups, double first_horizon,
                       philox_stream& rng) {
  if (groups == 1) return simulate_group(g, rng);
  std::deque<group_process> all;  // a deque: group_process holds references, never moved
  for (int i = 0; i < groups; ++i) all.emplace_back(g, rng);
  double loss = inf;
  for (double horizon = first_horizon; loss == inf; horizon *= 2)
    for (auto& p : all) loss = std::min(loss, p.advance(horizon));
  return loss;
}

}  // namespace mcpilot::storage
