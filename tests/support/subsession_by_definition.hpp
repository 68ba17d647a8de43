// Pilot's subsession size written out from its definition, with none of the library's
// prefix-sum machinery, for tests to check choose_subsession and analyze against: batch means
// by summing, their mean, rho_1(q) = lag-1 sum over sum of squares (0 when the means are all
// equal), and the first q = 1 .. n/3 whose |rho_1(q)| is within the limit. O(n^2 / 3) at most.
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace mcpilot::test {

struct subsession_choice {
  std::size_t q;
  double rho;  // rho_1(q) of the chosen size
};

inline std::optional<subsession_choice> subsession_by_definition(std::span<const double> x,
                                                                 double limit) {
  for (std::size_t q = 1; q <= x.size() / 3; ++q) {
    const std::size_t h = x.size() / q;
    std::vector<double> y(h, 0.0);
    for (std::size_t i = 0; i < h * q; ++i) y[i / q] += x[i] / static_cast<double>(q);
    double m = 0;
    for (double v : y) m += v / static_cast<double>(h);
    double num = 0, den = 0;
    for (std::size_t j = 0; j < h; ++j) {
      den += (y[j] - m) * (y[j] - m);
      if (j + 1 < h) num += (y[j] - m) * (y[j + 1] - m);
    }
    const double rho = den == 0 ? 0 : num / den;
    if (std::abs(rho) <= limit) return subsession_choice{q, rho};
  }
  return std::nullopt;
}

}  // namespace mcpilot::test
