#include "mojette/recoverability.hpp"

#include <bit>
#include <cmath>
#include <stdexcept>

#include "mojette/directions.hpp"

namespace mcpilot::mojette {

std::vector<char> recoverable_sets(const grid& g, std::span<const direction> dirs) {
  const std::size_t n = dirs.size();
  if (n > 24) throw std::invalid_argument("at most 24 projections (2^n survivor sets)");
  std::vector<char> out(std::size_t{1} << n);
  std::vector<direction> subset;
  for (std::size_t m = 0; m < out.size(); ++m) {
    subset.clear();
    for (std::size_t i = 0; i < n; ++i)
      if (m >> i & 1) subset.push_back(dirs[i]);
    out[m] = katz(g, subset) ? 1 : 0;
  }
  return out;
}

std::uint64_t count_recoverable(std::span<const char> recoverable, std::size_t n,
                                std::size_t size) {
  std::uint64_t c = 0;
  for (std::size_t m = 0; m < (std::size_t{1} << n); ++m)
    if (recoverable[m] && static_cast<std::size_t>(std::popcount(m)) == size) ++c;
  return c;
}

double unrecoverable_probability(std::span<const char> recoverable, std::size_t n, double f) {
  // Group by the number of survivors: each set of s survivors has probability f^(n-s) (1-f)^s.
  std::vector<std::uint64_t> bad(n + 1, 0);
  for (std::size_t m = 0; m < (std::size_t{1} << n); ++m)
    if (!recoverable[m]) ++bad[static_cast<std::size_t>(std::popcount(m))];
  double p = 0;
  for (std::size_t s = 0; s <= n; ++s)
    if (bad[s] > 0)
      p += static_cast<double>(bad[s]) * std::pow(f, static_cast<double>(n - s)) *
           std::pow(1 - f, static_cast<double>(s));
  return p;
}

threshold_info recoverability_threshold(std::span<const char> recoverable, std::size_t n) {
  threshold_info t{n + 1, true};
  for (std::size_t m = 0; m < (std::size_t{1} << n); ++m)
    if (recoverable[m]) t.min_survivors = std::min<std::size_t>(t.min_survivors, std::popcount(m));
  for (std::size_t m = 0; m < (std::size_t{1} << n); ++m)
    if (static_cast<std::size_t>(std::popcount(m)) >= t.min_survivors && !recoverable[m])
      t.count_only = false;
  return t;
}

}  // namespace mcpilot::mojette
