#include "tie_screen.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mcpilot/stats/rank_sum.hpp"

namespace mcpilot {

tie_screen::tie_screen(std::size_t n, double limit) : limit_(limit) {
  const double nn = static_cast<double>(n);
  needed_ = std::sqrt(std::max(0.0, (1 - limit) * (nn * nn - 1)) + 1);
  // ceil(N / t*) + 1 counters keep every value that occurs more than t* times; more keep them
  // too, with fewer rounds of clearing. Quantised readings hold a few dozen distinct values, each
  // about as frequent as t* at the usual limit (a tenth of N): with 11 counters nearly every
  // value cleared them all, a tenth of a change-point search of such readings.
  const std::size_t c = std::max<std::size_t>(static_cast<std::size_t>(std::ceil(nn / needed_)) + 1,
                                              std::min<std::size_t>(n, 64));
  held_.resize(c);
  count_.resize(c);
  bits_ = static_cast<unsigned>(std::bit_width(2 * c - 1));  // 2^bits >= 2c
  slot_.assign(std::size_t{1} << bits_, empty);
}

// Every counter down by one (the new value's own count is spent with them), the emptied ones
// dropped and the rest hashed again.
void tie_screen::clear_round() {
  ++rounds_;
  std::size_t kept = 0;
  for (std::size_t k = 0; k < used_; ++k)
    if (count_[k] > 1) {
      held_[kept] = held_[k];
      count_[kept++] = count_[k] - 1;
    }
  used_ = kept;
  std::fill(slot_.begin(), slot_.end(), empty);
  const std::size_t mask = slot_.size() - 1;
  for (std::size_t k = 0; k < used_; ++k) {
    std::size_t j = home(held_[k], 64 - bits_, mask);
    while (slot_[j] != empty) j = (j + 1) & mask;
    slot_[j] = k;
  }
}

// The frequent values' own groups give part of sum (t^3 - t); when that part already puts the
// factor below the limit (0/1 or coarsely quantised data, the usual case), the whole sum does
// too, and nothing needs sorting. A candidate that occurs needed() times or fewer only adds to
// the part, and then the exact factor decides.
bool tie_screen::mostly_tied(std::span<const double> a, std::span<const double> b) const {
  const double nn = static_cast<double>(a.size() + b.size());
  if (nn < 2) return 0 < limit_;
  bool frequent = false;
  double partial = 0;
  for_each_candidate([&](double value) {
    const auto same = [&](double v) { return v == value; };
    const auto exact = static_cast<double>(std::count_if(a.begin(), a.end(), same) +
                                           std::count_if(b.begin(), b.end(), same));
    partial += exact * exact * exact - exact;
    frequent = frequent || exact > needed_;
  });
  if (!frequent) return false;
  if (1 - partial / (nn * nn * nn - nn) < limit_) return true;
  return rank_sum_tie_factor(a, b) < limit_;
}

}  // namespace mcpilot
