#pragma once
// What a model may say about the points of a sweep along one of its axes: "this point, and those
// beyond it on the same line of the grid, are not worth running", judged from the estimates of the
// points already run. The sorting study's rule, for instance, stops a quadratic sort along model.n
// once it is clearly slower than the slowest n log n sort. A model sees points as their values and
// estimates only, never the grid or the sweep that runs it (docs/sweeps.md, "Stopping an axis
// early").

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mcpilot/parameters.hpp"

namespace mcpilot {

// One point of a sweep as a rule sees it: the swept keys with this point's values, and, for a
// point that ran, each quantity's estimate.
struct axis_point {
  struct estimate {
    std::optional<double> mean;
    std::optional<double> ci_low, ci_high;  // none: no interval (or unbounded)
    bool converged = false;
  };
  std::vector<std::pair<std::string, param_value>> values;
  std::map<std::string, estimate> estimates;  // empty for a point that has not run

  // This point's value of `key`, or nullptr when the key is not swept.
  const param_value* value(std::string_view key) const;
  // The same as a number (integers convert); nullopt for a string, a boolean or an unswept key.
  std::optional<double> number(std::string_view key) const;
  // The same as a string; nullopt otherwise.
  std::optional<std::string> text(std::string_view key) const;
  // The named quantity's estimate, or nullptr.
  const estimate* quantity(std::string_view name) const;
};

struct stop_axis_rule {
  std::string axis;  // a swept key; a rule whose axis is not swept is ignored
  // Before each point: the point about to run (values only) and every point already run, in
  // order. A reason skips that point, and with it every later value of `axis` whose other swept
  // values are the same (the rest of that line of the grid). The reason is shown in the table.
  std::function<std::optional<std::string>(const axis_point& next,
                                           std::span<const axis_point> done)>
      stop;
  // Whether the rule may ever skip a point of this line; unset: any. Used before a sweep starts,
  // to tell the time its points certainly take from the time they take at most.
  std::function<bool(const axis_point& point)> applies;
};

}  // namespace mcpilot
