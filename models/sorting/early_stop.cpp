#include "early_stop.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sorts.hpp"

namespace mcpilot::sorting {

namespace {

std::string percent(double margin) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", 100 * margin);
  return buf;
}

}  // namespace

bool under_rule(const std::string& name) {
  const algorithm* a = find_algorithm(name);
  return a && a->stops_early;
}

bool reference_sort(const std::string& name) {
  const algorithm* a = find_algorithm(name);
  return a && a->f == order::n_log_n && !a->stops_early;
}

stop_verdict judge(const timing_point& candidate, std::span<const timing_point> same_n,
                   double margin) {
  stop_verdict v;
  if (!under_rule(candidate.algorithm)) {
    v.reason = candidate.algorithm + " is not under the early-stop rule";
    return v;
  }
  if (!candidate.reference.empty()) {
    v.slowest = candidate.reference;
    v.paired = true;
    if (!candidate.ratio_low) {
      v.reason = "no interval of the ratio to " + candidate.reference + " yet";
      return v;
    }
    v.margin = *candidate.ratio_low - 1;
    v.separated = *candidate.ratio_low > 1 + margin;
    v.reason = candidate.algorithm + "'s time over " + candidate.reference + "'s" +
               (v.separated ? " is above 1" : " reaches 1") +
               " at n = " + std::to_string(candidate.n) + " (" + percent(v.margin) + ")";
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
  if (!candidate.ci_low || !slowest->ci_high || *slowest->ci_high <= 0) {
    v.reason = "no interval to compare yet";
    return v;
  }
  v.margin = *candidate.ci_low / *slowest->ci_high - 1;
  v.separated = *candidate.ci_low > *slowest->ci_high * (1 + margin);
  v.reason = candidate.algorithm +
             (v.separated ? "'s interval lies above " : "'s interval reaches ") +
             slowest->algorithm + "'s at n = " + std::to_string(candidate.n) + " (" +
             percent(v.margin) + ")";
  return v;
}

void early_stop_tracker::add(const timing_point& p) {
  points_.push_back(p);
  reconsider(p.n);
}

// A reference sort may finish after the candidates at the same n (or the slowest may change), so
// every candidate at that n is judged again against all points there; a sort stops at n when it is
// separated there and at the previous size it ran at.
void early_stop_tracker::reconsider(std::int64_t n) {
  std::vector<timing_point> same_n;
  for (const auto& q : points_)
    if (q.n == n) same_n.push_back(q);
  for (const auto& c : same_n) {
    if (!under_rule(c.algorithm)) continue;
    const auto it = stopped_.find(c.algorithm);
    if (it != stopped_.end() && it->second.n <= n) continue;
    const stop_verdict v = judge(c, same_n, rule_.margin);
    verdicts_[{c.algorithm, n}] = v;
    if (!v.separated) continue;
    // The sizes this sort ran at below n, largest first: separated at each of the last
    // consecutive - 1 of them too?
    std::vector<std::int64_t> below;
    for (const auto& q : points_)
      if (q.algorithm == c.algorithm && q.n < n &&
          std::find(below.begin(), below.end(), q.n) == below.end())
        below.push_back(q.n);
    std::sort(below.rbegin(), below.rend());
    const std::size_t need = static_cast<std::size_t>(std::max(1, rule_.consecutive) - 1);
    if (below.size() < need) continue;
    bool all = true;
    for (std::size_t k = 0; k < need && all; ++k) {
      const auto before = verdicts_.find({c.algorithm, below[k]});
      all = before != verdicts_.end() && before->second.separated;
    }
    if (!all) continue;
    const std::int64_t previous = need > 0 ? below[0] : n;
    stopped_[c.algorithm] = {n, previous, v, verdicts_.at({c.algorithm, previous})};
  }
}

bool early_stop_tracker::should_run(const std::string& algorithm, std::int64_t n) const {
  const auto it = stopped_.find(algorithm);
  return it == stopped_.end() || n <= it->second.n;
}

std::string early_stop_tracker::explain(const std::string& algorithm) const {
  const auto it = stopped_.find(algorithm);
  if (it == stopped_.end()) return {};
  const stop_record& r = it->second;
  const std::string by =
      rule_.margin > 0 ? " by more than " + percent(rule_.margin).substr(1) : std::string();
  auto at = [](std::int64_t n, const stop_verdict& v) {
    return "n = " + std::to_string(n) + " (" + v.slowest + ", margin " + percent(v.margin) + ")";
  };
  const std::string what =
      r.at_n.paired ? "the lower end of the interval of its time over " + r.at_n.slowest +
                          "'s, timed in the same readings, is above 1"
                    : "the lower end of its interval is above the upper end of the slowest n log "
                      "n sort's";
  if (r.previous_n == r.n)
    return algorithm + " stopped at n = " + std::to_string(r.n) + ": " + what + by + " at " +
           at(r.n, r.at_n);
  return algorithm + " stopped at n = " + std::to_string(r.n) + ": " + what + by + " at " +
         (rule_.consecutive > 2 ? std::to_string(rule_.consecutive) : std::string("two")) +
         " consecutive sizes, " + (rule_.consecutive > 2 ? "the last two " : "") +
         at(r.previous_n, r.at_previous) + " and " + at(r.n, r.at_n);
}

}  // namespace mcpilot::sorting
