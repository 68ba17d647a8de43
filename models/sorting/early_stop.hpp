#pragma once
// The sort-constant study's early-stop rule (docs/models/sorting.md): a quadratic sort, or Shell
// sort, is not run at larger n once the lower end of its 95% interval of ns_per_sort has been above
// the upper end of the interval of the slowest n log n sort at the same n, at two consecutive sizes
// it ran at. "Slowest" is the n log n sort with the largest mean at that n; Shell sort, being under
// the rule itself, is not one of them, nor radix sort (order n).
//
// Why two sizes: a stop is a verdict, and it must be reproducible. At one size, the rule fired on
// whichever noise or shift of the machine's speed fell between the two sorts' sessions: in three
// runs of one config Shell sort stopped at 512, 16 and 45. A shift that makes one sort look slower
// at two consecutive sizes in a row, each measured against a reference timed seconds apart, is
// much rarer (tests/validation/sorting_stops.cpp measures how much). The margin by which the
// intervals are apart at each of the two sizes is reported with the stop.
//
// Paired timing (the model's stop_reference, quick-queue by default): a sort under the rule is
// timed in every reading beside the reference sort, and the rule judges the interval of the ratio
// of the two durations instead: separated when its lower end is above 1 + the margin. Three runs
// that timed every sort at every size showed why: on this VM the machine's level moves by 5-20%
// between sessions timed seconds or minutes apart, so the margin between separately timed intervals
// jumped by 15-30% from one size to the next, and Shell sort's and binary insertion sort's stops
// spread over three grid steps under every (sizes, margin) setting (docs/models/sorting.md, "Runs
// P1-P3"). A shift moves both halves of a paired reading alike and drops out of their ratio: two
// runs of one binary stopped every sort at the same size ("Runs R1-R3"). What it cannot remove is a
// sort's own speed changing with its code's address: a new build ran insertion sort 1.65x faster
// against quick-queue and moved its stop and Shell sort's by two and three grid steps (the same
// loop runs 1.58x slower at some addresses than at others: "Code placement",
// tests/perf/code_placement.cpp).
//
// Pure and independent of the sweep machinery: the model's stop-axis rule feeds it each point's
// estimate and asks it whether to run the next point.

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
  // Paired timing: the sort the candidate was timed beside, and the lower end of the interval of
  // the ratio of their durations (none: no interval). Empty for separately timed points.
  std::string reference;
  std::optional<double> ratio_low;
};

struct stop_verdict {
  bool separated = false;  // the candidate's interval lies wholly above the slowest's at this n
  std::string slowest;     // the n log n sort it was compared with; empty when none had an interval
  bool paired = false;     // compared by the ratio of durations timed in the same readings
  // Separately timed: candidate's lower end / slowest's upper end - 1; paired: the ratio's lower
  // end - 1 (> 0 when separated).
  double margin = 0;
  std::string reason;  // one sentence for the results table
};

// Whether `candidate` (a sort under the rule) is clearly slower at this one size. Paired (its
// `reference` set): the lower end of its ratio's interval above 1 + `margin`; `same_n` is not
// used. Otherwise than the slowest n log n sort among `same_n` (points at the candidate's n; other
// sizes and the candidate itself are ignored): its lower end above the slowest's upper end times
// 1 + `margin`. A candidate or reference without an interval is never separated. O(|same_n|).
stop_verdict judge(const timing_point& candidate, std::span<const timing_point> same_n,
                   double margin = 0);

// The rule's two settings: how many consecutive sizes a sort must be separated at, and by what
// margin (the sorting model's stop_sizes and stop_margin). The study's (the defaults) are chosen
// by tests/validation/sorting_stops.cpp, and checked on real runs that timed every sort at every
// size: no other setting kept more sorts within one grid step (docs/models/sorting.md, "Runs
// P1-P3").
struct stop_rule {
  int consecutive = 2;
  // The paired harness reads up to about 1% from 1 with the same sort in both halves
  // (docs/models/sorting.md, "The order inside a paired reading"): a smaller margin can rest a
  // stop on the harness rather than on the sorts. 0 until 2026-12-07.
  double margin = 0.01;
};

// Whether the rule applies to the algorithm at all (the quadratic sorts and Shell sort).
bool under_rule(const std::string& algorithm);
// The sorts a candidate may be compared with: of order n log n and not under the rule.
bool reference_sort(const std::string& algorithm);

// Where a sort stopped, and the two judgements that stopped it.
struct stop_record {
  std::int64_t n = 0;           // the size it stopped at: the last it ran at
  std::int64_t previous_n = 0;  // the size before, where it was separated too
  stop_verdict at_n, at_previous;
};

// State over a sweep: add() each finished point in the sweep's order (every sort at one n before
// the next n); should_run() answers for the next one. A sort stopped at n is not run at any larger
// n; other sizes and sorts are unaffected.
class early_stop_tracker {
 public:
  explicit early_stop_tracker(stop_rule rule = {}) : rule_(rule) {}
  void add(const timing_point& p);
  bool should_run(const std::string& algorithm, std::int64_t n) const;
  // Where each stopped sort stopped, for the report.
  const std::map<std::string, stop_record>& stopped() const { return stopped_; }
  // The rule's sentence for a stopped sort ("bubble stopped at n = 45: ...").
  std::string explain(const std::string& algorithm) const;

 private:
  void reconsider(std::int64_t n);
  std::vector<timing_point> points_;
  std::map<std::pair<std::string, std::int64_t>, stop_verdict> verdicts_;
  std::map<std::string, stop_record> stopped_;
  stop_rule rule_;
};

}  // namespace mcpilot::sorting
