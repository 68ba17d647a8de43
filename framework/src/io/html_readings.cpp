// The picture of one series of readings (analyze --plot's) on a report page, with its text
// alternative and its data: where the warm-up and cool-down were cut, the change-points with
// their p-values, and, for a short series, every reading with its phase.
#include <algorithm>

#include "html_cells.hpp"
#include "mcpilot/io/analysis_plot.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/number_text.hpp"

namespace mcpilot::html {

namespace {

// Up to this many readings are listed one per row under the figure.
constexpr std::size_t max_listed_readings = 50;

std::string span_text(std::size_t from, std::size_t to, const reading_positions* positions) {
  if (from >= to) return "none";
  std::string s = std::to_string(from) + " to " + std::to_string(to - 1);
  if (positions && to <= positions->size())
    s += " (lines " + std::to_string(positions->line(from)) + " to " +
         std::to_string(positions->line(to - 1)) + ")";
  return s;
}

}  // namespace

html::figure readings_figure(const analysis& a, std::span<const double> readings,
                             const std::string& source, const std::string& order,
                             const reading_positions* positions, const readings_axes& axes) {
  const std::size_t n = readings.size();
  const std::size_t begin = std::min(a.warmup.removed_begin, n);
  const std::size_t end = n - std::min(a.warmup.removed_end, n - begin);
  html::figure f;
  f.plot = analysis_plot(a, readings, axes, "", plot_format::svg);
  f.caption = "The readings of " + source + " in " + order +
              ": the removed warm-up and cool-down shaded, the change-points dashed, and the "
              "stable phase's " +
              std::string(mean_label(a)) + " with its interval.";
  if (n > max_plotted_readings)
    f.caption += " Every " + std::to_string((n + max_plotted_readings - 1) / max_plotted_readings) +
                 "th reading is drawn; the analysis uses all of them.";

  std::string d = std::to_string(n) + " readings";
  if (n) {
    const auto [lo, hi] = std::minmax_element(readings.begin(), readings.end());
    d += " between " + format_number(*lo) + " and " + format_number(*hi);
  }
  d += ". ";
  d += begin ? "The first " + std::to_string(begin) + " are removed as warm-up. "
             : std::string("No warm-up is removed. ");
  if (end < n) d += "The last " + std::to_string(n - end) + " are removed as cool-down. ";
  d += std::to_string(a.warmup.changepoints.size()) +
       (a.warmup.changepoints.size() == 1 ? " change-point" : " change-points");
  if (!a.warmup.changepoints.empty()) {
    d += " (before reading";
    for (std::size_t i = 0; i < a.warmup.changepoints.size(); ++i)
      d += (i ? ", " : " ") + std::to_string(a.warmup.changepoints[i]);
    d += ")";
  }
  d += ". ";
  if (a.mean)
    d += "The stable phase's " + std::string(mean_label(a)) + " is " + number_cell(a.mean, a) +
         (a.ci_low ? ", " + format_level(a.confidence) + " interval " + interval_cell(a) : "") +
         ", from " + std::to_string(a.n_used) + " readings.";
  else
    d += "There is no interval: " + a.status + ".";
  f.description = d;

  html::table phases{"Data of figure: the phases of " + source,
                     {"phase", "readings (0-based)", "count"},
                     {},
                     {false, false, true},
                     true,
                     {}};
  phases.rows.push_back({"warm-up removed", span_text(0, begin, positions), std::to_string(begin)});
  phases.rows.push_back(
      {"stable phase", span_text(begin, end, positions), std::to_string(end - begin)});
  phases.rows.push_back(
      {"cool-down removed", span_text(end, n, positions), std::to_string(n - end)});
  phases.note = a.warmup.applied ? "" : "Warm-up and cool-down were not searched for.";
  f.data.push_back(std::move(phases));
  if (!a.warmup.changepoints.empty()) {
    html::table cps{"Data of figure: the change-points",
                    {"before reading", "p-value"},
                    {},
                    {true, true},
                    true,
                    {}};
    for (std::size_t i = 0; i < a.warmup.changepoints.size(); ++i)
      cps.rows.push_back({std::to_string(a.warmup.changepoints[i]),
                          i < a.warmup.p_values.size() ? format_p(a.warmup.p_values[i]) : "-"});
    f.data.push_back(std::move(cps));
  }
  if (n <= max_listed_readings) {
    html::table all{"Data of figure: every reading",
                    {"reading", "value", "phase"},
                    {},
                    {true, true, false},
                    true,
                    {}};
    for (std::size_t i = 0; i < n; ++i)
      all.rows.push_back({std::to_string(i), number_text(readings[i]),
                          i < begin ? "warm-up"
                          : i < end ? "stable"
                                    : "cool-down"});
    f.data.push_back(std::move(all));
  } else {
    f.data_note = "Its " + std::to_string(n) + " readings are in " + source +
                  "; the phases and change-points are listed below.";
  }
  return f;
}

}  // namespace mcpilot::html
