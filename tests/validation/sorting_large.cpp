// The quadratic sorts of models/sorting on 10^5 uniform random keys, checked against std::sort.
// Too slow for the default suite (bubble sort makes about 5 x 10^9 comparisons here); the fast
// sorts are checked at this size in tests/unit/sorting_sorts_test.cpp. Prints one line per sort.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "sorting/keys.hpp"
#include "sorting/sorts.hpp"

int main() {
  using namespace mcpilot::sorting;
  constexpr std::size_t n = 100000;
  bool ok = true;
  for (const auto& a : algorithms()) {
    mcpilot::philox_stream rng(100000, 1);
    std::vector<key> keys(n), scratch(scratch_size(n));
    fill_keys("uniform", rng, keys);
    std::vector<key> expected = keys;
    std::sort(expected.begin(), expected.end());
    const auto t0 = std::chrono::steady_clock::now();
    a.sort(keys, scratch);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const bool same = keys == expected;
    ok = ok && same;
    std::printf("%-18s n = %zu  %s  (%.3g s)\n", std::string(a.name).c_str(), n,
                same ? "agrees with std::sort" : "DIFFERS from std::sort", s);
  }
  return ok ? 0 : 1;
}
