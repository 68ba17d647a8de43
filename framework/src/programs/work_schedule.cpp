#include "mcpilot/programs/work_schedule.hpp"

#include <algorithm>
#include <cmath>

namespace mcpilot::programs {

work_schedule::work_schedule(double initial, double max, std::size_t levels, double ramp_seconds,
                             std::uint64_t seed)
    : initial_(std::round(initial)),
      max_(std::round(max)),
      levels_(std::max<std::size_t>(levels, 2)),
      ramp_seconds_(ramp_seconds),
      rng_(seed, 1) {
  ramp_.push_back(initial_);
  if (!(ramp_seconds_ > 0)) ramp_done_ = true;
}

std::vector<double> work_schedule::ladder(std::size_t k) const {
  const std::size_t steps = (levels_ - 1) << std::min(k, refinements);
  std::vector<double> w;
  w.reserve(steps + 1);
  for (std::size_t j = 0; j <= steps; ++j)
    w.push_back(std::round(initial_ + (max_ - initial_) * static_cast<double>(j) /
                                          static_cast<double>(steps)));
  w.erase(std::unique(w.begin(), w.end()), w.end());
  return w;
}

// The seed: if the first run took s seconds and each next one k seconds more, n runs take
// B = n s + k n (n - 1) / 2, so k = 2 (B - n s) / (n (n - 1)). The rate of the first run turns
// each run's seconds into work; the ramp ends at the largest amount or after n runs.
void work_schedule::plan_ramp(double s) {
  const double n = static_cast<double>(ramp_length);
  const double k = 2 * (ramp_seconds_ - n * s) / (n * (n - 1));
  if (!(s > 0) || !(k > 0)) return;  // the first run alone is most of the budget: no ramp
  for (std::size_t i = 1; i < ramp_length; ++i) {
    const double w = std::min(max_, std::round(initial_ * (s + static_cast<double>(i) * k) / s));
    if (w > ramp_.back()) ramp_.push_back(w);
    if (w >= max_) break;
  }
}

double work_schedule::next() {
  if (!ramp_done_) {
    if (given_ < ramp_.size()) return ramp_[given_++];
    ramp_done_ = true;
  }
  if (at_ == current_.size()) {
    current_ = ladder(ladders_started_++);
    std::shuffle(current_.begin(), current_.end(), rng_);
    at_ = 0;
  }
  const double w = current_[at_++];
  if (at_ == current_.size()) ++ladders_done_;
  return w;
}

void work_schedule::record(double seconds) {
  if (recorded_++ == 0 && !ramp_done_) plan_ramp(seconds);
}

}  // namespace mcpilot::programs
