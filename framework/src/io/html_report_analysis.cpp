// The report page of `mcpilot analyze`: the verdict on one column's interval, the picture of the
// readings with what was removed (analyze --plot's), and what the estimate rests on.
#include "html_cells.hpp"
#include "html_page.hpp"
#include "mcpilot/io/html_report.hpp"

namespace mcpilot {

namespace {

html::verdict analysis_verdict(const analysis& a, const report_context& ctx) {
  const std::string target = html::target_cell(ctx.requirements);
  if (a.converged)
    return {html::tone::good,
            "Converged",
            "the " + format_level(a.confidence) + " interval " + html::interval_cell(a) + " (" +
                html::half_width_cell(a) + ") meets the target " + target + " with " +
                html::readings_cell(a) + " readings",
            {}};
  if (!a.mean || !a.ci_low) return {html::tone::bad, "No interval", a.status, {}};
  std::string why = "the " + format_level(a.confidence) + " interval " + html::interval_cell(a) +
                    " (" + html::half_width_cell(a) + ") does not meet the target " + target +
                    ": " + a.status;
  if (a.unreachable)
    why += "; no number of readings can reach it";
  else if (a.required_samples)
    why += "; about " + std::to_string(*a.required_samples) +
           " readings in the stable phase would, and there are " + std::to_string(a.n_used);
  return {html::tone::warning, "Not converged", why, {}};
}

}  // namespace

report_outcome write_html_report(std::ostream& out, const analysis& a,
                                 std::span<const double> readings, const report_context& ctx,
                                 const report_provenance& p,
                                 const std::vector<std::string>& warnings) {
  html::page pg;
  pg.title = "mcpilot analyze: " + ctx.source;
  pg.subtitle = std::to_string(a.n) + " readings, " + std::string(to_string(a.kind)) + ", preset " +
                ctx.preset + ", " + format_level(a.confidence) + " confidence";
  pg.result = analysis_verdict(a, ctx);
  if (a.n != a.n_used) pg.result.notes.push_back("Discarded: " + discarded_text(a) + ".");
  for (const auto& w : warnings) pg.result.notes.push_back("Warning: " + w + ".");

  html::table t{"The estimate and its " + format_level(a.confidence) + " interval",
                {"estimated", "value", "interval", "±", "target", "readings used", "converged"},
                {},
                {false, true, true, true, true, true, false},
                true,
                {}};
  t.rows.push_back({std::string(mean_label(a)), html::number_cell(a.mean, a),
                    html::interval_cell(a), html::half_width_cell(a),
                    html::target_cell(ctx.requirements), html::readings_cell(a),
                    html::converged_cell(a, true)});
  pg.verdict_tables.push_back(std::move(t));
  pg.figures.push_back(html::readings_figure(a, readings, ctx.source, "file order", ctx.positions,
                                             readings_axes{"mcpilot analyze: " + ctx.source}));

  html::section rests{"What the estimate rests on", {}, {}};
  rests.paragraphs.push_back(
      ctx.remove_warmup
          ? "Warm-up and cool-down are found by change-points and left out; the stable readings "
            "are grouped into subsessions long enough that their means are nearly uncorrelated, "
            "and the interval is built on those means (docs/statistics.md)."
          : "Every reading is kept (--no-warmup-removal); the readings are grouped into "
            "subsessions long enough that their means are nearly uncorrelated, and the interval "
            "is built on those means (docs/statistics.md).");
  html::table method{
      "The analysis of the readings", html::method_header(), {}, html::method_numeric(), true, {}};
  method.rows.push_back(html::method_row(ctx.source, a));
  rests.tables.push_back(std::move(method));
  pg.details.push_back(std::move(rests));
  return html::write_page(out, pg, p);
}

}  // namespace mcpilot
