// The report page of `mcpilot scaling`: the label and its sentence with the candidates'
// validation, the picture of the medians with the fitted shapes and the local exponents
// (scaling --plot's), and the per-size tables.
#include <algorithm>
#include <cmath>

#include "html_page.hpp"
#include "mcpilot/io/html_report.hpp"
#include "mcpilot/io/scaling_plot.hpp"
#include "mcpilot/number_text.hpp"

namespace mcpilot {

namespace {

std::string num(const std::optional<double>& v) {
  return v && std::isfinite(*v) ? format_number(*v) : "-";
}

std::string headline(scaling_label l) {
  switch (l) {
    case scaling_label::compatible:
      return "Compatible over the observed range";
    case scaling_label::insufficient_design:
      return "Insufficient design";
    case scaling_label::none_adequate:
      return "No candidate shape is adequate";
    case scaling_label::ambiguous:
      return "Ambiguous";
  }
  return std::string(to_string(l));
}

std::string fit_text(const scaling_candidate& c) {
  if (c.shape == scaling_shape::power_law)
    return "a n^b: b = " +
           (c.exponent ? format_interval(*c.exponent, c.exponent_low, c.exponent_high, false)
                       : std::string("-")) +
           ", a = " + num(c.c);
  return std::string(display_name(c.shape)) +
         ": T = c f(n) + d, c = " + format_interval(c.c, c.c_low, c.c_high, false) +
         ", d = " + num(c.d);
}

html::table candidates_table(const scaling_result& r, const scaling_options& o) {
  html::table t{
      "Each candidate shape: fit on the medians, validation (log errors against the "
      "gate " +
          format_number(r.gate) + ") and selection stability",
      {"shape", "fit", "leave-one-size-out", "holdout", "passes", "picked",
       format_level(o.confidence) + " Wilson", "note"},
      {},
      {false, false, true, true, false, true, true, false},
      true,
      {}};
  for (const auto& c : r.candidates) {
    std::string shape(to_string(c.shape));
    if (r.best && *r.best == c.shape) shape += " (best)";
    t.rows.push_back(
        {shape, fit_text(c), num(c.loso_error), num(c.holdout_error), c.passes ? "yes" : "no",
         r.bootstrap ? format_percent(c.selected_fraction) : "-",
         r.bootstrap ? bracket_text(c.selected_low, c.selected_high, format_percent) : "-",
         c.note});
  }
  t.note = selection_note;
  return t;
}

html::figure scaling_figure(const scaling_result& r, const scaling_source& s) {
  html::figure f;
  f.plot = scaling_plot(r, s, "", plot_format::svg);
  const std::string what = s.quantity.empty() ? s.value_column : s.quantity;
  const std::string unit = s.unit.empty() ? "" : " " + s.unit;
  f.caption = "Above: the median " + what +
              " at each size n on log-log axes, bars from the "
              "smallest to the largest value, and each candidate's fitted curve (dashed: it fails "
              "validation). Below: the local exponent between adjacent sizes.";
  std::string d = std::to_string(r.sizes.size()) + " sizes";
  if (!r.sizes.empty())
    d += " from n = " + format_size(r.sizes.front().n) + " to " + format_size(r.sizes.back().n) +
         ", medians from " + format_number(r.sizes.front().median) + unit + " to " +
         format_number(r.sizes.back().median) + unit;
  d += ". ";
  if (!r.steps.empty()) {
    const auto [lo, hi] = std::minmax_element(
        r.steps.begin(), r.steps.end(),
        [](const scaling_step& a, const scaling_step& b) { return a.exponent < b.exponent; });
    d += "Local exponents range from " + format_number(lo->exponent) + " to " +
         format_number(hi->exponent) + ". ";
  }
  std::size_t passing = 0;
  for (const auto& c : r.candidates) passing += c.passes;
  d += std::to_string(passing) + " of " + std::to_string(r.candidates.size()) +
       " fitted shapes pass validation. " + r.statement;
  f.description = d;
  f.data_note = "Its data are the per-size and adjacent-size tables below it.";

  html::table sizes{"Data of figure: per size (" +
                        (s.unit.empty() ? std::string("values as recorded") : "in " + s.unit) + ")",
                    {"n", "count", "median", "min", "max", "mean", "sd", "MAD/median"},
                    {},
                    std::vector<bool>(8, true),
                    true,
                    {}};
  for (const auto& z : r.sizes)
    sizes.rows.push_back({format_size(z.n), std::to_string(z.count), format_number(z.median),
                          format_number(z.min), format_number(z.max), format_number(z.mean),
                          num(z.sd), format_percent(z.mad_rel)});
  f.data.push_back(std::move(sizes));
  if (!r.steps.empty()) {
    html::table steps{"Data of figure: adjacent sizes (medians)",
                      {"n from", "n to", "T ratio", "local exponent"},
                      {},
                      {true, true, true, true},
                      true,
                      {}};
    for (const auto& st : r.steps)
      steps.rows.push_back({format_size(st.n_from), format_size(st.n_to), format_number(st.ratio),
                            format_number(st.exponent)});
    f.data.push_back(std::move(steps));
  }
  return f;
}

}  // namespace

report_outcome write_html_report(std::ostream& out, const scaling_result& r,
                                 const scaling_source& s, const scaling_options& o,
                                 const report_provenance& p) {
  const std::string what = s.quantity.empty() ? s.value_column : s.quantity;
  html::page pg;
  pg.title = "mcpilot scaling: " + s.file;
  pg.subtitle = what + " against " + s.n_column + ", " + std::to_string(r.rows) +
                (r.rows == 1 ? " row" : " rows") + " at " + std::to_string(r.sizes.size()) +
                (r.sizes.size() == 1 ? " size" : " sizes");
  pg.result = {r.label == scaling_label::compatible ? html::tone::good : html::tone::warning,
               headline(r.label),
               r.statement,
               {}};
  if (r.exploratory)
    pg.result.notes.push_back(
        "Exploratory: every shape was tried (no --models named the candidates beforehand).");
  for (const auto& d : r.design_problems) pg.result.notes.push_back("Insufficient design: " + d);
  for (const auto& w : r.warnings) pg.result.notes.push_back("Warning: " + w);
  pg.result.notes.push_back(
      "Timing data never prove a complexity class; the label speaks only of the sizes measured, "
      "under the conditions they were measured in.");
  if (!r.candidates.empty()) pg.verdict_tables.push_back(candidates_table(r, o));
  if (!r.sizes.empty()) pg.figures.push_back(scaling_figure(r, s));

  html::section method{"How the shapes were fitted and judged", {}, {}};
  method.paragraphs.push_back(
      "Least squares on the per-size medians, weighted " +
      std::string(o.weighting == scaling_weighting::relative ? "by 1/median² (relative errors)"
                                                             : "equally") +
      "; the power law on log T against log n. A shape passes when both its leave-one-size-out "
      "and its largest-size holdout log errors are within log(1 + " +
      format_level(o.relative_tolerance) + ") = " + format_number(r.gate) + " (docs/scaling.md).");
  if (!r.normalized.empty()) {
    html::table norm{"Normalized medians",
                     {"n", "T/n", "T/(n log2 n)", "T/n^2"},
                     {},
                     {true, true, true, true},
                     true,
                     {}};
    for (const auto& z : r.normalized)
      norm.rows.push_back(
          {format_size(z.n), format_number(z.per_n), num(z.per_n_log_n), format_number(z.per_n2)});
    method.tables.push_back(std::move(norm));
  }
  for (const auto& n : s.notes) method.paragraphs.push_back("Note: " + n);
  pg.details.push_back(std::move(method));
  return html::write_page(out, pg, p);
}

}  // namespace mcpilot
