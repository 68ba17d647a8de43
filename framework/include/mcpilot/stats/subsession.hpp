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
