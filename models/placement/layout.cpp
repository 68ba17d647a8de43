#include "placement/layout.hpp"

#include <algorithm>
#include <limits>

#include "mcpilot/parameters.hpp"

namespace mcpilot::placement {

layout_facts facts_of(const layout& l) {
  layout_facts f;
  f.v = l.devices;
  f.k = l.group_size;
  f.b = static_cast<int>(l.groups.size());
  const auto v = static_cast<std::size_t>(l.devices);
  const auto of = groups_of_devices(l);
  f.replication.assign(v, 0);
  for (std::size_t a = 0; a < v; ++a) f.replication[a] = static_cast<int>(of[a].size());
  if (v > 0) {
    f.r_min = *std::min_element(f.replication.begin(), f.replication.end());
    f.r_max = *std::max_element(f.replication.begin(), f.replication.end());
  }
  // One row of the pair counts at a time: O(v) memory, O(b k²) time in all.
  f.lambda_min = std::numeric_limits<int>::max();
  f.lambda_max = 0;
  std::vector<int> row(v, 0);
  for (std::size_t a = 0; a < v; ++a) {
    std::fill(row.begin() + static_cast<std::ptrdiff_t>(a), row.end(), 0);
    for (int g : of[a])
      for (int c : l.groups[static_cast<std::size_t>(g)])
        if (static_cast<std::size_t>(c) > a) ++row[static_cast<std::size_t>(c)];
    for (std::size_t c = a + 1; c < v; ++c) {
      const int n = row[c];
      if (n < f.lambda_min) {
        f.lambda_min = n;
        f.min_pair[0] = static_cast<int>(a);
        f.min_pair[1] = static_cast<int>(c);
      }
      if (n > f.lambda_max) {
        f.lambda_max = n;
        f.max_pair[0] = static_cast<int>(a);
        f.max_pair[1] = static_cast<int>(c);
      }
    }
  }
  if (v < 2) f.lambda_min = 0;
  return f;
}

void verify_design(const layout& l, int lambda, const std::string& field) {
  const auto fail = [&](const std::string& why) {
    throw parameter_error(field, l.name + " failed its verification at construction: " + why);
  };
  const int v = l.devices, k = l.group_size;
  for (const auto& g : l.groups) {
    if (static_cast<int>(g.size()) != k)
      fail("a group has " + std::to_string(g.size()) + " devices, not " + std::to_string(k));
    for (std::size_t i = 0; i < g.size(); ++i) {
      if (g[i] < 0 || g[i] >= v) fail("device " + std::to_string(g[i]) + " is out of range");
      if (i > 0 && g[i] <= g[i - 1]) fail("a group is not sorted or repeats a device");
    }
  }
  const layout_facts f = facts_of(l);
  if (f.lambda_min != lambda || f.lambda_max != lambda)
    fail("pairs share between " + std::to_string(f.lambda_min) + " and " +
         std::to_string(f.lambda_max) + " groups, not exactly " + std::to_string(lambda));
  if ((lambda * (v - 1)) % (k - 1) != 0) fail("lambda (v - 1) is not a multiple of k - 1");
  const int r = lambda * (v - 1) / (k - 1);
  if (f.r_min != r || f.r_max != r)
    fail("devices hold between " + std::to_string(f.r_min) + " and " + std::to_string(f.r_max) +
         " groups, not r = " + std::to_string(r));
  if (f.b * k != v * r) fail("b k != v r");
}

std::vector<std::vector<int>> groups_of_devices(const layout& l) {
  std::vector<std::vector<int>> of(static_cast<std::size_t>(l.devices));
  for (std::size_t g = 0; g < l.groups.size(); ++g)
    for (int d : l.groups[g]) of[static_cast<std::size_t>(d)].push_back(static_cast<int>(g));
  return of;
}

}  // namespace mcpilot::placement
