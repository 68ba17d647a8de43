#pragma once
// Subsession (batch-means) analysis: average adjacent readings into batches large enough that the
// batch means are nearly uncorrelated, then build the interval on the batch means.

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace mcpilot {

// Means of the h = floor(n/q) consecutive batches of q readings; the last n - h q are not used.
// O(n).
std::vector<double> batch_means(std::span<const double> x, std::size_t q);

// Lag-1 autocorrelation of the batch means of size q, taken about the mean of the h q readings
// used (the seed's rho_1(q)). O(n).
double batch_autocorrelation(std::span<const double> x, std::size_t q);

// Prefix sums of the readings less their mean, from which the lag-1 autocorrelation of the batch
// means at any q costs O(n/q); trying every q up to n/k is then O(n log n). Centering first keeps
// batch sums small, so differences of prefix sums lose no digits even for 10^6 readings with a
// large offset. O(n) to build, O(n) memory.
class batch_correlogram {
 public:
  explicit batch_correlogram(std::span<const double> x);
  std::size_t size() const { return sum_.size() - 1; }
  // rho_1(q) about the mean of the h q readings used; nullopt when h < 2 or the batch means are
  // all equal (nothing to correlate). O(n/q).
  std::optional<double> lag1(std::size_t q) const;

 private:
  std::vector<long double> sum_;  // sum_[i] = sum_{j<i} (x_j - mean)
};

struct subsession_choice {
  std::size_t size = 0;        // q
  std::size_t count = 0;       // h = floor(n / q)
  double autocorrelation = 0;  // rho_1(q) of the chosen batches
};

// The smallest q in 1 .. floor(n/3) with |rho_1(q)| <= limit, or nullopt ("not enough data").
// Prefix sums make each q cost O(n/q), so the whole search is O(n log n) in the worst case
// (no q qualifies) and O(n) memory.
std::optional<subsession_choice> choose_subsession(std::span<const double> x, double limit);

}  // namespace mcpilot
