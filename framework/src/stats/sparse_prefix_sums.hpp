// Prefix sums of deviations, S_i = sum_{j<i} (x_j - centre), kept at every `stride`-th i and
// rebuilt between them on demand; and the lag-1 autocorrelations of batch means read off them
// for a group of batch sizes in one pass.
//
// The full sums cost 8 bytes a reading for as long as they are held: at 10^6 readings a
// quarter of the peak memory of `mcpilot analyze`, held while the change-point search's exact
// tables grow and again while the stable phase's subsession size is searched. Every rebuilt sum
// comes from the kept one below it by the same chain of additions, `s += x_j - centre` in order,
// that filled the full array, so it is that array's sum to the last bit; and the correlations
// use the same operations in the same order as the functions over full sums that they replace
// (batch_correlogram::lag1 and prefix_lag1, subsession.hpp), so they return the same doubles.
// Both facts are checked in tests/unit/sparse_prefix_sums_test.cpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace mcpilot {

class sparse_prefix_sums {
 public:
  // Builds the chain once, keeping every stride-th sum. O(n) time, O(n / stride) memory.
  sparse_prefix_sums(std::span<const double> x, double centre, std::size_t stride);
  // Keeps every stride-th of `full` (its n + 1 sums about `centre`), which can then be freed.
  sparse_prefix_sums(std::span<const double> x, double centre, std::span<const double> full,
                     std::size_t stride);

  std::size_t size() const { return x_.size() + 1; }  // the number of sums, n + 1
  double centre() const { return centre_; }
  // S_i. O(stride).
  double at(std::size_t i) const;
  // S_b .. S_e, into `out`. O(e - b + stride).
  std::span<const double> fill(std::size_t b, std::size_t e, std::vector<double>& out) const;
  // Calls f(first, sums) on consecutive pieces of S_b .. S_e, each at most `chunk` long, with
  // `first` the index of sums[0]: a pass over many sums in O(chunk) memory.
  template <class F>
  void for_each_chunk(std::size_t b, std::size_t e, std::size_t chunk, F&& f) const;

 private:
  std::span<const double> x_;
  double centre_;
  std::size_t stride_;
  std::vector<double> kept_;  // S_{k stride}
};

// The two ways the project reads rho_1(q) off prefix sums S_0 .. S_L (only their differences
// matter), with h = floor(L / q) batches:
// - pooled: batch_correlogram::lag1's arithmetic (pooled_lag1 for one series), about the mean
//   of the h q readings used; nullopt when h < 2 or every batch mean is equal;
// - paired: prefix_lag1's (two interleaved chains), nullopt when h < 2 or the batch means'
//   deviations are, in root mean square, within `noise`.
enum class lag1_arithmetic { pooled, paired };

// rho_1(q) for every q in [q_first, q_last] (each with at least 2 batches or nullopt), read off
// S_b .. S_e in one pass: O(e - b) additions to rebuild the sums and O((e - b) / q) per q, with
// O(q_last - q_first + chunk) memory. The same doubles as the full-sum functions above.
std::vector<std::optional<double>> streamed_lag1(const sparse_prefix_sums& s, std::size_t b,
                                                 std::size_t e, std::size_t q_first,
                                                 std::size_t q_last, lag1_arithmetic how,
                                                 double noise = 0);

// The last q of the group that starts at `first` when rho_1(q) is searched in groups of one
// pass each: 1-2, then four times as many at a time, so that a search that stops at q costs
// O(log q) passes; never beyond q_max.
inline std::size_t lag1_group_last(std::size_t first, std::size_t q_max) {
  return std::min(q_max, first < 2 ? std::size_t{2} : 4 * first - 1);
}

template <class F>
void sparse_prefix_sums::for_each_chunk(std::size_t b, std::size_t e, std::size_t chunk,
                                        F&& f) const {
  std::vector<double> buf;
  for (std::size_t first = b; first <= e; first += chunk)
    f(first, fill(first, std::min(e, first + chunk - 1), buf));
}

}  // namespace mcpilot
