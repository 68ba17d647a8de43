#pragma once
// A placement: which devices each redundancy group occupies. Devices are 0 … v−1; every group
// has the same size k. A block design is a layout whose pairs are balanced: every pair of devices
// shares exactly λ groups (a BIBD (v, k, λ)); then every device holds r = λ(v−1)/(k−1) groups and
// there are b = vr/k groups.

#include <cstdint>
#include <string>
#include <vector>

namespace mcpilot::placement {

struct layout {
  std::string name;                      // "PG(2,3)", "STS(99)", "random(13, 4, 13 groups)", ...
  int devices = 0;                       // v
  int group_size = 0;                    // k
  std::vector<std::vector<int>> groups;  // each sorted, devices distinct, all of size k
};

// The incidence counts of a layout, computed in O(b k² + v²) time and O(v) memory.
struct layout_facts {
  int v = 0, b = 0, k = 0;
  std::vector<int> replication;  // groups on each device
  int r_min = 0, r_max = 0;
  int lambda_min = 0, lambda_max = 0;  // groups shared by a pair of distinct devices
  // Every pair shares the same number λ ≥ 1 of groups (then every device holds the same r).
  bool balanced() const { return lambda_min == lambda_max && lambda_min >= 1; }
  // A pair (a, b) with the fewest and one with the most shared groups, for messages.
  int min_pair[2] = {0, 0}, max_pair[2] = {0, 0};
};

layout_facts facts_of(const layout& l);

// Checks that `l` is a BIBD with the given λ: groups of size k with distinct devices in range,
// every pair covered exactly λ times, every device in r = λ(v−1)/(k−1) groups, and bk = vr.
// Throws parameter_error naming `field` (the parameter that chose the design) otherwise: a
// construction that failed its own check is reported, never used.
void verify_design(const layout& l, int lambda, const std::string& field);

// The groups each device belongs to (indices into l.groups), for O(r) updates per failure.
std::vector<std::vector<int>> groups_of_devices(const layout& l);

}  // namespace mcpilot::placement
