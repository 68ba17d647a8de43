// The placements that are not designs, to compare the designs against: random groups, disjoint
// clusters, and copysets. Random draws use the project's Philox stream and Boost.Random, so a
// placement seed gives the same layout on every machine and compiler.
#include <algorithm>
#include <boost/random/uniform_int_distribution.hpp>
#include <set>

#include "mcpilot/parameters.hpp"
#include "mcpilot/rng.hpp"
#include "placement/constructions.hpp"

namespace mcpilot::placement {

namespace {

int uniform_below(int n, philox_stream& rng) {
  return boost::random::uniform_int_distribution<int>(0, n - 1)(rng);
}

void need_multiple(int v, int k, const std::string& design) {
  if (v % k != 0)
    throw parameter_error("devices", design + " needs devices to be a multiple of group_size (" +
                                         std::to_string(v) + " is not a multiple of " +
                                         std::to_string(k) + ")");
}

}  // namespace

layout random_placement(int v, int k, int groups, std::uint64_t seed) {
  layout l;
  l.name = "random(" + std::to_string(v) + " devices, " + std::to_string(groups) +
           " groups, placement_seed " + std::to_string(seed) + ")";
  l.devices = v;
  l.group_size = k;
  philox_stream rng(seed, 0);
  for (int j = 0; j < groups; ++j) {
    // Floyd's algorithm: k distinct devices in k draws.
    std::set<int> chosen;
    for (int i = v - k; i < v; ++i) {
      const int t = uniform_below(i + 1, rng);
      chosen.insert(chosen.contains(t) ? i : t);
    }
    l.groups.emplace_back(chosen.begin(), chosen.end());
  }
  return l;
}

layout clustered_placement(int v, int k, int groups) {
  need_multiple(v, k, "clustered");
  layout l;
  l.name = "clustered(" + std::to_string(v / k) + " clusters of " + std::to_string(k) + ", " +
           std::to_string(groups) + " groups)";
  l.devices = v;
  l.group_size = k;
  const int clusters = v / k;
  for (int j = 0; j < groups; ++j) {
    std::vector<int> g;
    for (int i = 0; i < k; ++i) g.push_back(k * (j % clusters) + i);
    l.groups.push_back(std::move(g));
  }
  return l;
}

layout copyset_placement(int v, int k, int scatter_width, std::uint64_t seed) {
  need_multiple(v, k, "copyset");
  if (scatter_width < k - 1 || scatter_width > v - 1)
    throw parameter_error("scatter_width",
                          "copyset needs group_size - 1 <= scatter_width <= "
                          "devices - 1 (" +
                              std::to_string(k - 1) + " to " + std::to_string(v - 1) + "), not " +
                              std::to_string(scatter_width));
  const int permutations = (scatter_width + k - 2) / (k - 1);
  layout l;
  l.name = "copyset(scatter width " + std::to_string(scatter_width) + ", " +
           std::to_string(permutations) + " permutations, placement_seed " + std::to_string(seed) +
           ")";
  l.devices = v;
  l.group_size = k;
  philox_stream rng(seed, 0);
  std::vector<int> perm(static_cast<std::size_t>(v));
  for (int p = 0; p < permutations; ++p) {
    for (int i = 0; i < v; ++i) perm[static_cast<std::size_t>(i)] = i;
    for (int i = v - 1; i > 0; --i)
      std::swap(perm[static_cast<std::size_t>(i)],
                perm[static_cast<std::size_t>(uniform_below(i + 1, rng))]);
    for (int c = 0; c < v / k; ++c) {
      std::vector<int> g(perm.begin() + c * k, perm.begin() + (c + 1) * k);
      std::sort(g.begin(), g.end());
      l.groups.push_back(std::move(g));
    }
  }
  return l;
}

}  // namespace mcpilot::placement
