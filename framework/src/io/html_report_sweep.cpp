// The report page of a sweep: the verdict over every point, one row per point with each shown
// quantity's interval beside its exact value, the picture of each quantity against the swept
// value (run --plot's), and the points that did not run with the reason.
#include <algorithm>
#include <variant>

#include "html_cells.hpp"
#include "html_page.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/io/html_report.hpp"
#include "mcpilot/io/sweep_output.hpp"
#include "mcpilot/join.hpp"

namespace mcpilot {

namespace {

std::vector<const quantity_spec*> shown_quantities(const model_spec& spec) {
  std::vector<const quantity_spec*> shown;
  for (const auto& q : spec.quantities())
    if (q.required) shown.push_back(&q);
  if (shown.empty())
    for (const auto& q : spec.quantities()) shown.push_back(&q);
  return shown;
}

std::optional<double> exact_of(const sweep_point& p, const std::string& name) {
  const auto it = p.analytic.find(name);
  return it == p.analytic.end() ? std::nullopt : std::optional<double>(it->second);
}

std::string stopped_cell(const sweep_point& p) {
  if (p.result) return std::string(to_string(p.result->stopped_because));
  return std::string(to_string(p.status)) + (p.reason.empty() ? "" : ": " + p.reason);
}

html::verdict sweep_verdict(const sweep_result& r) {
  std::size_t counts[4] = {0, 0, 0, 0};
  for (const auto& p : r.points) ++counts[static_cast<int>(p.status)];
  std::size_t converged = 0;
  for (const auto& p : r.points)
    if (p.result && !p.result->quantities.empty() && p.result->all_required_converged())
      ++converged;
  const std::string summary =
      std::to_string(r.points.size()) + " points: " + std::to_string(counts[0]) + " ran (" +
      std::to_string(converged) + " converged), " + std::to_string(counts[1]) + " failed, " +
      std::to_string(counts[2]) + " skipped" +
      (counts[3] ? ", " + std::to_string(counts[3]) + " not run" : std::string());
  switch (r.exit_code()) {
    case exit_ok:
      return {html::tone::good, "Every point converged", summary, {}};
    case exit_interrupted:
      return {html::tone::warning,
              "Interrupted",
              summary + "; the points measured before the signal are shown",
              {}};
    case exit_limit:
      return {html::tone::warning,
              "Not every point converged",
              summary + "; a limit stopped some points first (their intervals are those obtained)",
              {}};
    default:
      return {html::tone::bad, "Some points failed", summary, {}};
  }
}

html::table points_table(const sweep_result& r, const experiment_config& base) {
  const auto shown = shown_quantities(base.spec);
  std::vector<bool> exact(shown.size(), false);
  for (std::size_t c = 0; c < shown.size(); ++c)
    for (const auto& p : r.points) exact[c] = exact[c] || exact_of(p, shown[c]->name);
  html::table t{"Each point's intervals (a * marks one that did not converge)",
                {"point"},
                {},
                {true},
                true,
                {}};
  for (const auto& a : base.sweep->axes) {
    t.header.push_back(a.key);
    t.numeric.push_back(true);
  }
  for (std::size_t c = 0; c < shown.size(); ++c) {
    t.header.push_back(shown[c]->name +
                       (shown[c]->unit.empty() ? "" : " (" + shown[c]->unit + ")"));
    t.numeric.push_back(true);
    if (!exact[c]) continue;
    t.header.insert(t.header.end(), {"exact", "covered"});
    t.numeric.insert(t.numeric.end(), {true, false});
  }
  t.header.insert(t.header.end(), {"readings", "stopped"});
  t.numeric.insert(t.numeric.end(), {true, false});
  for (const auto& p : r.points) {
    std::vector<std::string> row = {std::to_string(p.index)};
    for (const auto& v : p.values) {
      const auto* s = std::get_if<std::string>(&v);
      row.push_back(s ? *s : to_string(v));
    }
    for (std::size_t c = 0; c < shown.size(); ++c) {
      const quantity_result* q = p.quantity(shown[c]->name);
      std::string cell = "-";
      if (q && q->stats.mean)
        cell = format_interval(*q->stats.mean, q->stats.ci_low, q->stats.ci_high);
      if (q && q->stats.mean && !q->stats.converged) cell += " *";
      row.push_back(cell);
      if (!exact[c]) continue;
      const auto e = exact_of(p, shown[c]->name);
      const auto covered = q && e ? covers(q->stats, *e) : std::nullopt;
      row.push_back(e ? format_number(*e) : "-");
      row.push_back(covered ? (*covered ? "yes" : "no") : "-");
    }
    row.push_back(p.result ? std::to_string(p.result->replications) : "-");
    row.push_back(stopped_cell(p));
    t.rows.push_back(std::move(row));
  }
  return t;
}

// The words of sweep_plot's x axis: the first numeric swept key, or the point index.
std::string x_axis_of(const sweep_plan& plan) {
  for (const auto& a : plan.axes)
    if (std::all_of(a.values.begin(), a.values.end(), [](const param_value& v) {
          return std::holds_alternative<std::int64_t>(v) || std::holds_alternative<double>(v);
        }))
      return a.key;
  return "the point index";
}

html::figure sweep_figure(const sweep_result& r, const experiment_config& base) {
  html::figure f;
  f.plot = sweep_plot(r, base, "", plot_format::svg);
  const std::string x = x_axis_of(*base.sweep);
  f.caption = "Each required quantity's mean and interval against " + x +
              ", one series per value of the other swept keys; dashed lines are exact values.";
  f.data_note = "Its data are the table of the verdict above.";
  std::vector<std::string> said;
  for (const auto* q : shown_quantities(base.spec)) {
    const sweep_point *lo = nullptr, *hi = nullptr;
    for (const auto& p : r.points) {
      const quantity_result* res = p.quantity(q->name);
      if (!res || !res->stats.mean) continue;
      if (!lo || *res->stats.mean < *lo->quantity(q->name)->stats.mean) lo = &p;
      if (!hi || *res->stats.mean > *hi->quantity(q->name)->stats.mean) hi = &p;
    }
    std::string d = q->name + " against " + x + ": ";
    if (!lo) {
      said.push_back(d + "no point has an estimate.");
      continue;
    }
    d += "lowest " + format_number(*lo->quantity(q->name)->stats.mean) + " at point " +
         std::to_string(lo->index) + " (" + point_label(*lo) + "), highest " +
         format_number(*hi->quantity(q->name)->stats.mean) + " at point " +
         std::to_string(hi->index) + " (" + point_label(*hi) + ").";
    said.push_back(d);
  }
  f.description = join(said, " ");
  return f;
}

}  // namespace

report_outcome write_html_report(std::ostream& out, const sweep_result& r,
                                 const experiment_config& base, const report_provenance& p) {
  const sweep_plan& plan = *base.sweep;
  html::page pg;
  pg.title = "mcpilot run: " + base.name + " (sweep of " + std::to_string(plan.size()) + " points)";
  std::string axes;
  for (std::size_t i = 0; i < plan.axes.size(); ++i)
    axes += (i ? (plan.mode == sweep_mode::zip ? " with " : " x ") : "") + plan.axes[i].key + " (" +
            std::to_string(plan.axes[i].values.size()) + ")";
  pg.subtitle = "model " + base.model_name + ", " +
                (plan.mode == sweep_mode::zip ? "zip of " : "product of ") + axes + ", seed " +
                std::to_string(base.settings.seed) + " (each point its own), preset " + base.preset;
  pg.result = sweep_verdict(r);
  std::size_t with_exact = 0, covered = 0;
  double level = 0.95;
  for (const auto& pt : r.points)
    for (const auto* q : shown_quantities(base.spec))
      if (const auto e = exact_of(pt, q->name); e && pt.quantity(q->name)) {
        const analysis& a = pt.quantity(q->name)->stats;
        const auto c = covers(a, *e);
        if (!c) continue;
        level = a.confidence;
        ++with_exact;
        covered += *c;
      }
  if (with_exact)
    pg.result.notes.push_back(std::to_string(covered) + " of the " + std::to_string(with_exact) +
                              " intervals shown beside an exact value cover it (" +
                              format_level(level) + " intervals: about " + format_level(1 - level) +
                              " of them are expected to miss).");
  pg.verdict_tables.push_back(points_table(r, base));
  const bool any_ran = std::any_of(r.points.begin(), r.points.end(),
                                   [](const sweep_point& pt) { return pt.result; });
  if (any_ran) pg.figures.push_back(sweep_figure(r, base));

  html::section points{"Each point's session", {}, {}};
  points.paragraphs.push_back(
      "Each point runs its own session with its own seed, drawn from the sweep's seed and the "
      "point's index, so that --point K reruns point K alone with the same numbers "
      "(docs/sweeps.md).");
  html::table seeds{"Seeds and sessions",
                    {"point", "values", "seed", "rounds", "readings", "how it ended"},
                    {},
                    {true, false, true, true, true, false},
                    true,
                    {}};
  for (const auto& pt : r.points) {
    std::string ended = stopped_cell(pt);
    if (pt.result && pt.result->error) ended += ": " + *pt.result->error;
    seeds.rows.push_back({std::to_string(pt.index), point_label(pt), std::to_string(pt.seed),
                          pt.result ? std::to_string(pt.result->rounds) : "-",
                          pt.result ? std::to_string(pt.result->replications) : "-", ended});
  }
  points.tables.push_back(std::move(seeds));
  pg.details.push_back(std::move(points));
  return html::write_page(out, pg, p);
}

}  // namespace mcpilot
