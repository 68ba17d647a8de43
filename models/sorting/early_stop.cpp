#include "early_stop.hpp"

#include "sorts.hpp"

namespace mcpilot::sorting {

namespace {

// The n log n references: algorithms of that order not themselves under the rule.
bool reference_sort(const std::string& name) {
  const algorithm* a = find_algorithm(name);
  return a && a->f == order::n_log_n && !a->stops_early;
}

}  // namespace

bool under_rule(const std::string& name) {
  const algorithm* a = find_algorithm(name);
  return a && a->stops_early;
}

stop_verdict judge(const timing_point& candidate, std::span<const timing_point> same_n) {
  stop_verdict v;
  if (!under_rule(candidate.algorithm)) {
    v.reason = candidate.algorithm + " is not under the early-stop rule";
    return v;
  }
  const timing_point* slowest = nullptr;
  for (const auto& p : same_n) {
    if (p.n != candidate.n || !reference_sort(p.algorithm) || !p.mean) continue;
    if (!slowest || *p.mean > *slowest->mean) slowest = &p;
  }
  if (!slowest) {
    v.reason = "no n log n sort measured at n = " + std::to_string(candidate.n);
    return v;
  }
  v.slowest = slowest->algorithm;
  if (!candidate.ci_low || !slowest->ci_high) {
    v.reason = "no interval to compare yet";
    return v;
  }
  v.stop = *candidate.ci_low > *slowest->ci_high;
  v.reason = candidate.algorithm + (v.stop ? "'s interval lies above " : "'s interval reaches ") +
             slowest->algorithm + "'s at n = " + std::to_string(candidate.n);
  return v;
}

void early_stop_tracker::add(const timing_point& p) {
  points_.push_back(p);
  reconsider(p.n);
}

// A reference sort may finish after the candidates at the same n (or the slowest may change), so
// every candidate at that n is judged again against all points there.
void early_stop_tracker::reconsider(std::int64_t n) {
  std::vector<timing_point> same_n;
  for (const auto& q : points_)
    if (q.n == n) same_n.push_back(q);
  for (const auto& c : same_n) {
    if (!under_rule(c.algorithm)) continue;
    const auto it = stopped_.find(c.algorithm);
    if (it != stopped_.end() && it->second <= n) continue;
    if (judge(c, same_n).stop) stopped_[c.algorithm] = n;
  }
}

bool early_stop_tracker::should_run(const std::string& algorithm, std::int64_t n) const {
  const auto it = stopped_.find(algorithm);
  return it == stopped_.end() || n <= it->second;
}

}  // namespace mcpilot::sorting
