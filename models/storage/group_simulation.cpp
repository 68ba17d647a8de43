#include "storage/group_simulation.hpp"

#include <algorithm>
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <tuple>
#include <vector>

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

double simulate_group(const group_config& g, philox_stream& rng, double horizon) {
  const int n = g.disks;
  const bool repairs = g.repair.type != duration_law::kind::none;
  const bool latent = g.latent_rate > 0;

  std::vector<double> fail_at(static_cast<std::size_t>(n));  // inf while failed
  std::vector<double> done_at;                               // parallel rebuilds; inf otherwise
  std::vector<int> queue;                                    // serial rebuilds, head first
  std::size_t head = 0;
  double rebuild_end = inf;  // serial: the head's rebuild
  std::vector<char> defect(latent ? static_cast<std::size_t>(n) : 0, 0);
  int failed = 0, defects = 0;

  for (auto& f : fail_at) f = g.lifetime.sample(rng);
  if (g.parallel) done_at.assign(static_cast<std::size_t>(n), inf);

  auto next_latent_after = [&](double t) {
    const int working = n - failed;
    if (!latent || working == 0) return inf;
    return t + boost::random::exponential_distribution<double>(g.latent_rate * working)(rng);
  };
  double next_latent = next_latent_after(0);
  double next_scrub = latent && g.scrub_interval > 0 ? g.scrub_interval : inf;

  while (true) {
    const auto [disk, t_fail] = earliest(fail_at);
    int rebuilt = -1;
    double t_rebuild = inf;
    if (g.parallel) {
      std::tie(rebuilt, t_rebuild) = earliest(done_at);
    } else if (head < queue.size()) {
      rebuilt = queue[head];
      t_rebuild = rebuild_end;
    }
    const double t = std::min({t_fail, t_rebuild, next_latent, next_scrub});
    if (t > horizon || t == inf) return inf;

    if (t == t_fail) {
      fail_at[static_cast<std::size_t>(disk)] = inf;
      ++failed;
      if (latent && defect[static_cast<std::size_t>(disk)]) {
        defect[static_cast<std::size_t>(disk)] = 0;
        --defects;
      }
      if (failed > g.tolerance) return t;
      if (failed == g.tolerance) {
        if (g.rebuild_error > 0 && g.tolerance > 0 && rng.uniform() < g.rebuild_error) return t;
        if (defects > 0) return t;
      }
      if (repairs) {
        if (g.parallel) {
          done_at[static_cast<std::size_t>(disk)] = t + g.repair.sample(rng);
        } else {
          queue.push_back(disk);
          if (queue.size() - head == 1) rebuild_end = t + g.repair.sample(rng);
        }
      }
      next_latent = next_latent_after(t);
    } else if (t == t_rebuild) {
      --failed;
      fail_at[static_cast<std::size_t>(rebuilt)] = t + g.lifetime.sample(rng);
      if (g.parallel) {
        done_at[static_cast<std::size_t>(rebuilt)] = inf;
      } else {
        ++head;
        if (head == queue.size()) {
          queue.clear();
          head = 0;
          rebuild_end = inf;
        } else {
          rebuild_end = t + g.repair.sample(rng);
        }
      }
      next_latent = next_latent_after(t);
    } else if (t == next_latent) {
      // A uniformly chosen working disk.
      int k = boost::random::uniform_int_distribution<int>(0, n - failed - 1)(rng);
      std::size_t i = 0;
      for (;; ++i)
        if (fail_at[i] != inf && k-- == 0) break;
      if (!defect[i]) {
        defect[i] = 1;
        ++defects;
      }
      next_latent = next_latent_after(t);
    } else {
      std::fill(defect.begin(), defect.end(), 0);
      defects = 0;
      next_scrub += g.scrub_interval;
    }
  }
}

}  // namespace mcpilot::storage
