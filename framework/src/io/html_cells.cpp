// The words every report page writes the same way: an interval with as many digits as it
// resolves, the target it had to meet, what the estimate rests on, and one row of the table that
// says, for each quantity, what the analysis did with its readings.
#include <cmath>

#include "html_cells.hpp"
#include "mcpilot/io/report.hpp"

namespace mcpilot::html {

double resolution_of(const analysis& a) {
  if (a.mean && a.ci_low) return std::abs(*a.mean - *a.ci_low);
  if (a.mean && a.ci_high) return std::abs(*a.ci_high - *a.mean);
  return 0;
}

std::string number_cell(const std::optional<double>& v, const analysis& a) {
  return v ? format_number(*v, resolution_of(a)) : "-";
}

std::string interval_cell(const analysis& a) {
  if (!a.ci_low) return "-";
  const double res = resolution_of(a);
  std::string s = "[";
  s += format_number(*a.ci_low, res) + ", ";
  s += a.ci_high ? format_number(*a.ci_high, res) + "]" : std::string("unbounded)");
  if (a.one_sided) s += " one-sided";
  if (a.constant) s += " constant";
  return s;
}

std::string half_width_cell(const analysis& a) {
  if (a.ci_low && !a.ci_high) return "unbounded";
  if (a.ci_width_rel) return "±" + format_percent(*a.ci_width_rel / 2);
  if (a.ci_width) return "±" + format_number(*a.ci_width / 2);
  return "-";
}

std::string target_cell(const precision& p) {
  if (p.ci_abs) return "±" + format_number(*p.ci_abs / 2);
  return "±" + format_percent(p.ci_perc / 2);
}

std::string readings_cell(const analysis& a) {
  if (a.n == a.n_used) return std::to_string(a.n);
  return std::to_string(a.n_used) + " of " + std::to_string(a.n);
}

std::string converged_cell(const analysis& a, bool required) {
  std::string s;
  if (a.converged)
    s = "yes";
  else if (a.unreachable)
    s = "no: unreachable";
  else if (a.required_samples)
    s = "no: needs about " + std::to_string(*a.required_samples) + " readings, has " +
        std::to_string(a.n_used);
  else
    s = "no: " + a.status;
  if (!required) s += " (optional)";
  return s;
}

std::vector<std::string> method_header() {
  return {"quantity",    "readings",           "discarded", "change-points",   "subsession",
          "lag-1 (raw)", "lag-1 (subsession)", "interval",  "variance factor", "centre shift",
          "status"};
}

std::vector<std::string> method_row(const std::string& name, const analysis& a) {
  const auto opt = [](const std::optional<double>& v) {
    return v ? format_number(*v, 0.001) : std::string("-");
  };
  std::string sub = "-";
  if (a.subsession_size && a.subsession_count)
    sub = std::to_string(*a.subsession_size) + " x " + std::to_string(*a.subsession_count);
  std::string cps =
      a.warmup.applied ? std::to_string(a.warmup.changepoints.size()) : "not searched";
  if (a.warmup.applied && a.warmup.resolution > 1)
    cps += " (searched on means of " + std::to_string(a.warmup.resolution) + ")";
  if (a.warmup.applied && !a.warmup.accepted) cps += "; no stable phase over half the readings";
  return {name,
          readings_cell(a),
          discarded_text(a),
          cps,
          sub,
          opt(a.autocorrelation),
          opt(a.subsession_autocorrelation),
          std::string(to_string(a.interval)),
          format_number(a.variance_inflation, 0.001),
          a.interval_shift != 0 ? format_number(a.interval_shift, 0.001) + " half-widths" : "0",
          a.status};
}

std::vector<bool> method_numeric() {
  return {false, true, false, false, true, true, true, false, true, true, false};
}

}  // namespace mcpilot::html
