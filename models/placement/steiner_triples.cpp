// Steiner triple systems: Bose's construction for v = 6n+3 and Skolem's for v = 6n+1 (as in
// Lindner and Rodger, "Design Theory", chapter 1). Both build the triples from a commutative
// quasigroup on Z_m crossed with Z_3.
#include <algorithm>

#include "mcpilot/parameters.hpp"
#include "placement/constructions.hpp"

namespace mcpilot::placement {

namespace {

constexpr int max_sts_devices = 99;

std::vector<int> triple(int a, int b, int c) {
  std::vector<int> t{a, b, c};
  std::sort(t.begin(), t.end());
  return t;
}

// Bose, v = 6n+3: points (x, i) in Z_m × Z_3, m = 2n+1, numbered 3x + i. The idempotent
// commutative quasigroup x∘y = (x+y)(m+1)/2 mod m (the half of x+y mod the odd m).
std::vector<std::vector<int>> bose(int v) {
  const int m = v / 3;
  const auto op = [m](int x, int y) { return ((x + y) * ((m + 1) / 2)) % m; };
  const auto p = [](int x, int i) { return 3 * x + i % 3; };
  std::vector<std::vector<int>> t;
  for (int x = 0; x < m; ++x) t.push_back(triple(p(x, 0), p(x, 1), p(x, 2)));
  for (int x = 0; x < m; ++x)
    for (int y = x + 1; y < m; ++y)
      for (int i = 0; i < 3; ++i) t.push_back(triple(p(x, i), p(y, i), p(op(x, y), i + 1)));
  return t;
}

// Skolem, v = 6n+1: points (x, i) in Z_2n × Z_3, numbered 3x + i, and ∞ = 6n. The half-idempotent
// commutative quasigroup: the addition table of Z_2n with symbol 2s renamed s and 2s+1 renamed
// n+s, so that x∘x = (x+n)∘(x+n) = x for x < n.
std::vector<std::vector<int>> skolem(int v) {
  const int n = (v - 1) / 6, m = 2 * n, inf = v - 1;
  const auto op = [n, m](int x, int y) {
    const int s = (x + y) % m;
    return s % 2 == 0 ? s / 2 : n + s / 2;
  };
  const auto p = [](int x, int i) { return 3 * x + i % 3; };
  std::vector<std::vector<int>> t;
  for (int x = 0; x < n; ++x) t.push_back(triple(p(x, 0), p(x, 1), p(x, 2)));
  for (int x = 0; x < n; ++x)
    for (int i = 0; i < 3; ++i) t.push_back(triple(inf, p(x + n, i), p(x, i + 1)));
  for (int x = 0; x < m; ++x)
    for (int y = x + 1; y < m; ++y)
      for (int i = 0; i < 3; ++i) t.push_back(triple(p(x, i), p(y, i), p(op(x, y), i + 1)));
  return t;
}

}  // namespace

layout steiner_triple_system(int v) {
  if (v < 3 || v > max_sts_devices || (v % 6 != 1 && v % 6 != 3))
    throw parameter_error("devices",
                          "an STS(v) exists only for v = 1 or 3 (mod 6); sts is built "
                          "for 3 <= v <= " +
                              std::to_string(max_sts_devices) + " (7, 9, 13, 15, ...), not " +
                              std::to_string(v));
  layout l;
  l.name = "STS(" + std::to_string(v) + ")";
  l.devices = v;
  l.group_size = 3;
  l.groups = v % 6 == 3 ? bose(v) : skolem(v);
  std::sort(l.groups.begin(), l.groups.end());
  verify_design(l, 1, "devices");
  return l;
}

}  // namespace mcpilot::placement
