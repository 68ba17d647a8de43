#pragma once
// The sort-constant study's early-stop rule (docs/models/sorting.md): a quadratic sort, or Shell
// sort, is not run at larger n once the lower end of its 95% interval of ns_per_sort is above the
// upper end of the interval of the slowest n log n sort at the same n. "Slowest" is the n log n
// sort with the largest mean at that n; Shell sort, being under the rule itself, is not one of
// them, nor radix sort (order n).
//
// Pure and independent of the sweep machinery: the sweep's stop-axis hook feeds it each point's
// result as it completes and asks it whether to run the next point.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mcpilot::sorting {

// One completed point of the sweep: a sort, a size, and its ns_per_sort estimate.
struct timing_point {
  std::string algorithm;
  std::int64_t n = 0;
  std::optional<double> mean;
  std::optional<double> ci_low;
  std::optional<double> ci_high;  // none: unbounded, or no interval
};

struct stop_verdict {
  bool stop = false;
  std::string slowest;  // the n log n sort it was compared with; empty when none had an interval
  std::string reason;   // one sentence for the results table
};

// Whether `candidate` (a sort under the rule) is clearly slower than the slowest n log n sort among
// `same_n` (points at the candidate's n; other sizes and the candidate itself are ignored). A
// candidate or reference without an interval never stops anything. O(|same_n|).
stop_verdict judge(const timing_point& candidate, std::span<const timing_point> same_n);

// Whether the rule applies to the algorithm at all (bubble, insertion, selection,
// binary-insertion, shell).
bool under_rule(const std::string& algorithm);

// State over a sweep: add() each finished point; should_run() answers for the next one. A sort
// stopped at n is not run at any larger n; other sizes and sorts are unaffected.
class early_stop_tracker {
 public:
  void add(const timing_point& p);
  bool should_run(const std::string& algorithm, std::int64_t n) const;
  // Where each stopped sort stopped, for the report.
  const std::map<std::string, std::int64_t>& stopped_at() const { return stopped_; }

 private:
  void reconsider(std::int64_t n);
  std::vector<timing_point> points_;
  std::map<std::string, std::int64_t> stopped_;
};

}  // namespace mcpilot::sorting
