#include "mojette/directions.hpp"

#include <cstdlib>
#include <numeric>

namespace mcpilot::mojette {

namespace {

std::string show(const direction& d) {
  std::string s = "(";  // appended: GCC 12 warns falsely (-Wrestrict) on "(" + string
  s += std::to_string(d.p);
  s += ", ";
  s += std::to_string(d.q);
  s += ')';
  return s;
}

// (1, 0) and (-1, 0) put the pixels of a row into one bin in the same way: one direction.
bool same_line_family(const direction& a, const direction& b) {
  return a == b || (a.q == 0 && b.q == 0);
}

}  // namespace

void check_directions(std::span<const direction> dirs) {
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    const direction& d = dirs[i];
    if (d.q < 0)
      throw invalid_direction("projection " + show(d) + " has q < 0: write it as (" +
                              std::to_string(-d.p) + ", " + std::to_string(-d.q) +
                              "), the same direction with q >= 0");
    if (d.q == 0 && std::abs(d.p) != 1)
      throw invalid_direction("projection " + show(d) +
                              " has q = 0, which needs p = 1 or p = -1 (the row sums)");
    if (std::gcd(d.p, d.q) != 1)
      throw invalid_direction("projection " + show(d) +
                              " has gcd(p, q) = " + std::to_string(std::gcd(d.p, d.q)) +
                              ", not 1: its lines would skip pixels");
    for (std::size_t j = 0; j < i; ++j)
      if (same_line_family(dirs[j], d))
        throw invalid_direction("projection " + show(d) + " duplicates projection " +
                                show(dirs[j]) + ": a second copy adds no information");
  }
}

bool katz(const grid& g, std::span<const direction> dirs) {
  std::size_t sp = 0, sq = 0;
  for (const auto& d : dirs) {
    sp += static_cast<std::size_t>(std::abs(d.p));
    sq += static_cast<std::size_t>(std::abs(d.q));
  }
  return sp >= g.P || sq >= g.Q;
}

std::string to_string(std::span<const direction> dirs) {
  std::string s;
  for (const auto& d : dirs) {
    if (!s.empty()) s += ", ";
    s += show(d);
  }
  return s;
}

}  // namespace mcpilot::mojette
