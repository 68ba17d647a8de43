#pragma once
// One comparison judged again and again as readings accumulate ("looks"), with the chance of a
// false rejection held to alpha over all the looks together.
//
// A test at the full level alpha at every look rejects a true null far more often than alpha:
// with looks after about n, 5n, 25n and 125n readings, some look rejects 17% of the time at
// alpha = 0.05 (docs/bench.md). Look k (k = 1, 2, ...) tests at alpha_k = 6 alpha / (pi^2 k^2)
// instead. These levels sum to alpha (sum 1/k^2 = pi^2/6), so by the union bound the chance that
// any look rejects a true null is at most alpha, however the looks depend on each other and
// however many are taken. The price is power: the k-th look needs a smaller p. A level falling
// as 1/k^2, rather than as 1/2^k, keeps later looks useful: the tenth is at alpha / 164, not
// alpha / 1024. A schedule that takes a look only once the readings have at least doubled keeps
// k near log2 of the readings.

#include <cstdint>

namespace mcpilot {

// alpha_k for look k >= 1 (std::invalid_argument for 0, or alpha outside (0, 1)). O(1).
double look_level(double alpha, std::uint64_t look);

// The looks taken so far at one comparison.
class look_schedule {
 public:
  // Whether n readings (or runs) are due for a regular look: the first, or at least twice as
  // many as at the last look.
  bool due(std::uint64_t n) const { return looks_ == 0 || n >= 2 * last_n_; }
  // Takes a look at n readings; returns its level, look_level(alpha, looks()).
  double take(std::uint64_t n, double alpha);
  // The level the next look will test at.
  double next_level(double alpha) const { return look_level(alpha, looks_ + 1); }
  std::uint64_t looks() const { return looks_; }
  std::uint64_t last_n() const { return last_n_; }

 private:
  std::uint64_t looks_ = 0, last_n_ = 0;
};

}  // namespace mcpilot
