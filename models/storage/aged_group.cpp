#include "storage/aged_group.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mcpilot::storage {

namespace {
constexpr double never = std::numeric_limits<double>::infinity();
}

aged_group::aged_group(const group_config& g)
    : g_(&g),
      born_(static_cast<std::size_t>(g.disks), 0.0),
      working_(static_cast<std::size_t>(g.disks), 1),
      head_end_(never) {
  if (g.parallel) rebuild_end_.assign(static_cast<std::size_t>(g.disks), never);
  if (g.latent_rate > 0) {
    known_at_.assign(static_cast<std::size_t>(g.disks), 0.0);
    defective_.assign(static_cast<std::size_t>(g.disks), 0);
  }
}

double aged_group::next_rebuild() const {
  if (!g_->parallel) return head_ < queue_.size() ? head_end_ : never;
  return *std::min_element(rebuild_end_.begin(), rebuild_end_.end());
}

double aged_group::hazard_over(double x) const {
  const auto& law = g_->lifetime;
  if (law.type == duration_law::kind::exponential)
    return (g_->disks - failed_) * law.hazard_increment(0, x);
  double h = 0;
  for (std::size_t j = 0; j < born_.size(); ++j)
    if (working_[j]) h += law.hazard_increment(now_ - born_[j], x);
  return h;
}

double aged_group::time_to_hazard(double target, double within) const {
  const auto& law = g_->lifetime;
  if (law.type == duration_law::kind::exponential)
    return std::min(within, target * law.mean / (g_->disks - failed_));
  // Weibull. Per working disk, u0 = age - location and Lambda(u0) once; then H(x) and its
  // derivative in one pass: Lambda(u0 + x) - Lambda(u0) by the same expression as
  // hazard_increment (so that H here matches hazard_over to the last bit), and the rate
  // h(u) = shape Lambda(u) / u, which needs no second pow.
  const double k = law.shape, s = law.scale;
  std::vector<std::pair<double, double>> disk;  // (u0, Lambda(u0))
  disk.reserve(born_.size());
  double r0 = 0;
  for (std::size_t j = 0; j < born_.size(); ++j)
    if (working_[j]) {
      const double u0 = now_ - born_[j] - law.location;
      const double l0 = u0 > 0 ? std::pow(u0 / s, k) : 0.0;
      disk.emplace_back(u0, l0);
      r0 += u0 > 0 ? k * l0 / u0 : law.hazard_rate(now_ - born_[j]);
    }
  auto hazard = [&](double x, double& rate) {
    double h = 0;
    rate = 0;
    for (const auto& [u0, l0] : disk) {
      const double u1 = u0 + x;
      if (u1 <= 0) continue;
      const double inc = u0 > 0 ? l0 * std::expm1(k * std::log1p(x / u0)) : std::pow(u1 / s, k);
      h += inc;
      rate += k * (l0 + inc) / u1;
    }
    return h;
  };
  // H is increasing and convex for shape >= 1 (Newton from the left converges monotonically);
  // for shape < 1 or a location, a Newton step leaving the bracket is replaced by bisection.
  double lo = 0, hi = within;
  double x = std::isfinite(r0) && r0 > 0 ? std::min(target / r0, within) : within / 2;
  // Stop at a relative residual of 1e-13 in H (the draw's own precision is ~1e-16 relative, and
  // H's rounding is ~1e-16 x disks) or when the bracket has closed to 1e-14 relative.
  for (int it = 0; it < 200; ++it) {
    double r;
    const double f = hazard(x, r) - target;
    if (std::abs(f) <= 1e-13 * target) return x;
    (f > 0 ? hi : lo) = x;
    if (hi - lo <= 1e-14 * hi) break;
    double next = x - f / r;
    if (!(r > 0) || !std::isfinite(next) || next <= lo || next >= hi) next = lo + (hi - lo) / 2;
    if (std::abs(next - x) <= 4e-16 * x) return next;  // converged to rounding
    x = next;
  }
  return x;
}

int aged_group::pick_failing(philox_stream& rng) const {
  const auto& law = g_->lifetime;
  const int working = g_->disks - failed_;
  if (law.type == duration_law::kind::exponential) {
    int k = static_cast<int>(rng.uniform() * working);
    for (std::size_t j = 0; j < born_.size(); ++j)
      if (working_[j] && k-- == 0) return static_cast<int>(j);
  }
  std::vector<double> r(born_.size(), 0.0);
  double total = 0;
  int infinite = 0, last = -1;
  for (std::size_t j = 0; j < born_.size(); ++j)
    if (working_[j]) {
      r[j] = law.hazard_rate(now_ - born_[j]);
      last = static_cast<int>(j);
      if (std::isinf(r[j]))
        ++infinite;
      else
        total += r[j];
    }
  // A disk at its very location with shape < 1 has an infinite rate: it is the one.
  if (infinite > 0) {
    int k = static_cast<int>(rng.uniform() * infinite);
    for (std::size_t j = 0; j < r.size(); ++j)
      if (working_[j] && std::isinf(r[j]) && k-- == 0) return static_cast<int>(j);
  }
  double u = rng.uniform() * total;
  for (std::size_t j = 0; j < r.size(); ++j)
    if (working_[j] && r[j] > 0) {
      if (u < r[j]) return static_cast<int>(j);
      u -= r[j];
    }
  return last;  // u fell past the end by rounding
}

double aged_group::clean_probability(std::size_t j) const {
  double since = born_[j];
  if (g_->scrub_interval > 0)
    since = std::max(since, std::floor(now_ / g_->scrub_interval) * g_->scrub_interval);
  if (known_at_[j] >= since) {
    if (defective_[j]) return 0;
    since = known_at_[j];
  }
  return std::exp(-g_->latent_rate * (now_ - since));
}

double aged_group::fail(int d, philox_stream& rng) {
  const auto i = static_cast<std::size_t>(d);
  working_[i] = 0;
  ++failed_;
  if (g_->repair.type != duration_law::kind::none) {
    if (g_->parallel) {
      rebuild_end_[i] = now_ + g_->repair.sample(rng);
    } else {
      queue_.push_back(d);
      if (queue_.size() - head_ == 1) head_end_ = now_ + g_->repair.sample(rng);
    }
  }
  if (failed_ > g_->tolerance) return 1;
  if (failed_ < g_->tolerance || g_->tolerance == 0) return 0;
  double survive = 1 - g_->rebuild_error;
  if (g_->latent_rate > 0)
    for (std::size_t j = 0; j < born_.size(); ++j)
      if (working_[j]) survive *= clean_probability(j);
  return 1 - survive;
}

void aged_group::reveal_clean() {
  if (g_->latent_rate > 0)
    for (std::size_t j = 0; j < born_.size(); ++j)
      if (working_[j]) {
        known_at_[j] = now_;
        defective_[j] = 0;
      }
}

void aged_group::complete_rebuild(philox_stream& rng) {
  std::size_t j;
  if (g_->parallel) {
    j = static_cast<std::size_t>(std::min_element(rebuild_end_.begin(), rebuild_end_.end()) -
                                 rebuild_end_.begin());
    rebuild_end_[j] = never;
  } else {
    j = static_cast<std::size_t>(queue_[head_]);
    if (++head_ == queue_.size()) {
      queue_.clear();
      head_ = 0;
      head_end_ = never;
    } else {
      head_end_ = now_ + g_->repair.sample(rng);
    }
  }
  working_[j] = 1;
  born_[j] = now_;
  --failed_;
  if (g_->latent_rate > 0) {
    known_at_[j] = now_;  // written afresh: clean
    defective_[j] = 0;
  }
}

}  // namespace mcpilot::storage
