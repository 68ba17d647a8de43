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
// batch sums small: the sums wander like sqrt(n) sd, so a difference of two of them in double keeps
// about 13 significant digits of a batch sum even at n = 10^8 and with a large offset. O(n) to
// build, 8 (n + 1) bytes.
class batch_correlogram {
 public:
  explicit batch_correlogram(std::span<const double> x);
  // The same, building the sums in `storage` (its contents are discarded): a caller that builds
  // many correlograms one after another reuses one buffer instead of allocating each, and gets
  // it back with release().
  batch_correlogram(std::span<const double> x, std::vector<double>&& storage);
  std::vector<double> release() && { return std::move(sum_); }
  std::size_t size() const { return sum_.size() - 1; }
  double mean() const { return mean_; }
  // Sum of the first i readings less mean(); the change-point search reads segment means off it.
  // O(1).
  double prefix_sum(std::size_t i) const { return sum_[i]; }
  // All n + 1 of them, for loops that scan them in order.
  std::span<const double> prefix_sums() const { return sum_; }
  // Sum of batch j of size q less q mean(). O(1).
  double batch_deviation(std::size_t q, std::size_t j) const {
    return sum_[(j + 1) * q] - sum_[j * q];
  }
  // rho_1(q) about the mean of the h q readings used; nullopt when h < 2 or the batch means are
  // all equal (nothing to correlate). O(n/q).
  std::optional<double> lag1(std::size_t q) const;

 private:
  double mean_ = 0;
  // sum_[i] = sum_{j<i} (x_j - mean): about the series' own mean, so that equal readings give
  // deviations of exactly 0 and a constant series is recognised as one.
  std::vector<double> sum_;
};

// rho_1(q) pooled over independent series of one steady state (the streams of a stream-style
// model): adjacent pairs within each series, about the grand mean of every batch used. With k
// series it rests on k times the batches of one, so it is about sqrt(k) times less noisy than
// any one series' estimate, and taking the smallest q under the limit is less often fooled by a
// low draw. For one series it is lag1(q). nullopt when a series has fewer than 2 batches or all
// batch means are equal. O(sum n_s / q).
std::optional<double> pooled_lag1(std::span<const batch_correlogram> series, std::size_t q);

// rho_1(q) of the batch means of the readings whose prefix sums are sum[0..L] (taken about any
// centre: only differences are used), about the mean of the h q readings used; nullopt when
// h < 2 or when the batch means' deviations are, in root mean square, within `noise`, a bound
// on the rounding error of one batch mean (0: the means must be exactly equal). A segment's
// subsession search can read it off the whole series' sums instead of building its own. Summed
// in a faster order than lag1(), so the two can differ in the last bits. O(L/q).
std::optional<double> prefix_lag1(std::span<const double> sum, std::size_t q, double noise);

struct subsession_choice {
  std::size_t size = 0;        // q
  std::size_t count = 0;       // h = floor(n / q)
  double autocorrelation = 0;  // rho_1(q) of the chosen batches
};

// The smallest q in 1 .. floor(n/3) with |rho_1(q)| <= limit, or nullopt ("not enough data").
// Prefix sums make each q cost O(n/q), so the whole search is O(n log n) in the worst case
// (no q qualifies) and O(n) memory.
std::optional<subsession_choice> choose_subsession(std::span<const double> x, double limit);
// The same search on a correlogram already built (the analysis also reads the mean and the raw
// lag-1 from it, saving passes over every reading).
std::optional<subsession_choice> choose_subsession(const batch_correlogram& c, double limit);

}  // namespace mcpilot
