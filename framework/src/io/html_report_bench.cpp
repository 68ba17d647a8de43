// The report page of `mcpilot bench`: the verdict with each command's intervals and each pair's
// ratio, the readings of each command in run order (the picture analyze --plot draws), the ratios
// with their intervals, and what each estimate rests on.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "html_cells.hpp"
#include "html_page.hpp"
#include "mcpilot/io/html_report.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/join.hpp"
#include "mcpilot/number_text.hpp"

namespace mcpilot {

namespace {

std::string names_of(const bench_report& r) {
  std::vector<std::string> names;
  for (const auto& c : r.commands) names.push_back(c.name);
  return join(names);
}

std::string pair_name(const bench_report& r, const bench_report::pair& p) {
  return r.commands[p.b].name + " / " + r.commands[p.a].name;
}

html::verdict bench_verdict(const bench_report& r) {
  const std::string runs = std::to_string(r.runs) + (r.runs == 1 ? " run" : " runs");
  if (r.error) return {html::tone::bad, "Failed", "stopped after " + runs, {"error: " + *r.error}};
  if (r.stopped_because == stop_reason::interrupted)
    return {html::tone::warning,
            "Interrupted",
            "stopped by a signal after " + runs + "; the results so far are shown",
            {}};
  if (r.stopped_because == stop_reason::converged)
    return {html::tone::good,
            "Converged",
            (r.until == "separated" ? "every pair of commands is told apart"
                                    : "every required interval meets its precision") +
                std::string(" after ") + runs,
            {}};
  return {html::tone::warning,
          "Not converged",
          "stopped: " + std::string(to_string(r.stopped_because)) + " (" +
              std::string(explain(r.stopped_because)) + ") after " + runs,
          {}};
}

html::table quantities_table(const bench_report& r) {
  html::table t{
      "Each command's estimates and " + format_level(r.requirements.confidence) + " intervals",
      {"command", "quantity", "estimated", "value", "interval", "±", "target", "readings used",
       "converged"},
      {},
      {false, false, false, true, true, true, true, true, false},
      true,
      {}};
  for (const auto& c : r.commands)
    for (const auto& q : c.quantities) {
      const analysis& a = q.stats;
      t.rows.push_back({c.name, q.name + (q.unit.empty() ? "" : " (" + q.unit + ")"),
                        std::string(mean_label(q.stats)), html::number_cell(a.mean, a),
                        html::interval_cell(a), html::half_width_cell(a),
                        html::target_cell(q.requirements), html::readings_cell(a),
                        html::converged_cell(a, q.required)});
    }
  return t;
}

html::table pairs_table(const bench_report& r) {
  const std::string what = r.commands.empty() || r.commands[0].quantities.empty()
                               ? ""
                               : r.commands[0].quantities[0].name;
  html::table t{"Comparisons of " + what + ": the ratio of the means with its " +
                    format_level(r.requirements.confidence) +
                    " interval, the paired test's p on the runs' differences, and the verdict",
                {"pair", "ratio", "p", "verdict"},
                {},
                {false, true, true, false},
                true,
                {}};
  for (const auto& p : r.pairs)
    t.rows.push_back({pair_name(r, p),
                      format_interval(p.ratio.ratio, p.ratio.low, p.ratio.high, false) + " x",
                      format_p(p.p), p.verdict});
  return t;
}

// Each pair's ratio b / a as a point with its interval, one row per pair, beside the line of no
// difference; resolved pairs filled, the others open.
plot_request ratio_plot(const bench_report& r) {
  plot_request req;
  req.height = std::max(300, 160 + 70 * static_cast<int>(r.pairs.size()));
  plot_data resolved{"resolved", {"ratio", "pair", "low", "high"}, {}};
  plot_data open{"unresolved", {"ratio", "pair", "low", "high"}, {}};
  double lo = 1, hi = 1;
  for (std::size_t i = 0; i < r.pairs.size(); ++i) {
    const auto& p = r.pairs[i];
    (p.resolved ? resolved : open)
        .rows.push_back({p.ratio.ratio, static_cast<double>(i), p.ratio.low, p.ratio.high});
    for (double v : {p.ratio.low, p.ratio.high, p.ratio.ratio})
      if (std::isfinite(v) && v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
  }
  std::ostringstream cmd;
  cmd << "set title "
      << gnuplot_quote("mcpilot bench: ratios of the means, " +
                       format_level(r.requirements.confidence) + " intervals")
      << "\nset grid x lc rgb '#dddddd'\nset key below\nset ytics (";
  for (std::size_t i = 0; i < r.pairs.size(); ++i)
    cmd << (i ? ", " : "") << gnuplot_quote(pair_name(r, r.pairs[i])) << ' ' << i;
  cmd << ")\nset yrange [" << r.pairs.size() << "-0.5:-0.5]\n";
  const bool log_x = hi / lo >= 10;
  if (log_x) cmd << "set logscale x\n";
  const double pad = log_x ? 1.3 : 0.08 * (hi - lo) + 0.02;
  cmd << "set xrange [" << number_text(log_x ? lo / pad : lo - pad) << ':'
      << number_text(log_x ? hi * pad : hi + pad) << "]\n";
  cmd << "set xlabel " << gnuplot_quote("ratio of the means, B / A (1: no difference)") << '\n';
  cmd << "set arrow from 1, graph 0 to 1, graph 1 nohead dt 2 lc rgb '#555555'\n";
  std::vector<std::string> plots;
  if (!resolved.rows.empty())
    plots.push_back("$resolved using 1:2:3:4 with xerrorbars pt 7 ps 1.2 lc rgb '#0072B2' title " +
                    gnuplot_quote("resolved"));
  if (!open.rows.empty())
    plots.push_back(
        "$unresolved using 1:2:3:4 with xerrorbars pt 6 ps 1.2 lc rgb '#D55E00' title " +
        gnuplot_quote("not resolved"));
  cmd << "plot " << join(plots) << '\n';
  if (!resolved.rows.empty()) req.data.push_back(std::move(resolved));
  if (!open.rows.empty()) req.data.push_back(std::move(open));
  req.commands = cmd.str();
  return req;
}

html::figure ratio_figure(const bench_report& r) {
  html::figure f;
  f.plot = ratio_plot(r);
  f.caption = "Each pair's ratio of the means (B / A) with its " +
              format_level(r.requirements.confidence) +
              " interval, beside the dashed line of no difference at 1; filled: resolved.";
  std::vector<std::string> d;
  for (const auto& p : r.pairs)
    d.push_back(pair_name(r, p) + ": " +
                format_interval(p.ratio.ratio, p.ratio.low, p.ratio.high, false) + ", " +
                (p.resolved ? "resolved." : "not resolved."));
  f.description = join(d, " ");
  f.data_note = "Its data are the comparisons table of the verdict above.";
  return f;
}

}  // namespace

report_outcome write_html_report(std::ostream& out, const bench_report& r,
                                 const report_provenance& p) {
  html::page pg;
  pg.title = "mcpilot bench: " + names_of(r);
  pg.subtitle = std::to_string(r.runs) + " runs, preset " + r.preset + ", " +
                format_level(r.requirements.confidence) + " confidence, target " +
                html::target_cell(r.requirements) + ", until " + r.until;
  pg.result = bench_verdict(r);
  for (const auto& n : r.counter_notes) pg.result.notes.push_back("counter " + n);
  pg.verdict_tables.push_back(quantities_table(r));
  if (!r.pairs.empty()) pg.verdict_tables.push_back(pairs_table(r));

  for (const auto& c : r.commands) {
    if (c.quantities.empty()) continue;
    const quantity_result& q = c.quantities.front();
    const readings_axes axes{"mcpilot bench: " + c.name + ", " + q.name,
                             "run of " + c.name + " (in the order they ran)",
                             q.name + (q.unit.empty() ? "" : " (" + q.unit + ")")};
    pg.figures.push_back(
        html::readings_figure(q.stats, c.primary_readings, c.name, "run order", nullptr, axes));
  }
  if (!r.pairs.empty()) pg.figures.push_back(ratio_figure(r));

  html::section runs{"The commands and their runs", {}, {}};
  runs.paragraphs.push_back(
      "Each run is a fresh process; several commands run interleaved in an order drawn from the "
      "seed, so that a drift of the machine reaches them alike (docs/bench.md)." +
      (r.warmup_runs
           ? " Each command first ran " + std::to_string(r.warmup_runs) + " discarded warm-up runs."
           : std::string()));
  html::table cmds{"Commands", {"command", "command line", "runs", "failed runs"},
                   {},         {false, false, true, true},
                   true,       {}};
  for (const auto& c : r.commands)
    cmds.rows.push_back(
        {c.name, c.line, std::to_string(c.runs),
         c.failures ? std::to_string(c.failures) + " (kept: --ignore-failure)" : "0"});
  runs.tables.push_back(std::move(cmds));
  html::table method{"The analysis of each command's readings",
                     html::method_header(),
                     {},
                     html::method_numeric(),
                     true,
                     {}};
  for (const auto& c : r.commands)
    for (const auto& q : c.quantities)
      method.rows.push_back(html::method_row(c.name + ": " + q.name, q.stats));
  runs.tables.push_back(std::move(method));
  bool any_wps = false;
  html::table wps{"Rate from the work-vs-duration regression (%WORK_AMOUNT%)",
                  {"command", "rate (work/s)", "intercept (s per run)", "naive rate (biased)",
                   "short runs left out"},
                  {},
                  {false, true, true, true, false},
                  true,
                  {}};
  for (const auto& c : r.commands) {
    if (!c.wps) continue;
    any_wps = true;
    const wps_fit& f = *c.wps;
    wps.rows.push_back(
        {c.name, format_interval(f.rate, f.rate_low, f.rate_high),
         format_interval(f.alpha, f.alpha - f.alpha_half_width, f.alpha + f.alpha_half_width),
         format_number(f.naive_rate),
         f.excluded_rounds ? short_rounds_note(f, "run", "runs") : "none"});
  }
  if (any_wps) runs.tables.push_back(std::move(wps));
  pg.details.push_back(std::move(runs));
  return html::write_page(out, pg, p);
}

}  // namespace mcpilot
