// The report page of one `mcpilot run` session: the verdict with each quantity's interval beside
// its exact value, the picture of the intervals round by round (run --plot's), and what each
// estimate rests on.
#include <chrono>
#include <cmath>
#include <cstdio>

#include "html_cells.hpp"
#include "html_page.hpp"
#include "mcpilot/io/html_report.hpp"
#include "mcpilot/join.hpp"

namespace mcpilot {

namespace {

// Past this many rows a figure's data are not listed under it (a session has a few dozen rounds;
// more would bury the page).
constexpr std::size_t max_listed_rows = 300;

std::string seconds_text(const session_result& r) {
  char took[32];
  std::snprintf(took, sizeof took, "%.3g s",
                std::chrono::duration<double>(r.end - r.start).count());
  return took;
}

std::vector<const quantity_result*> shown_quantities(const session_result& r) {
  std::vector<const quantity_result*> shown;
  for (const auto& q : r.quantities)
    if (q.required) shown.push_back(&q);
  if (shown.empty())
    for (const auto& q : r.quantities) shown.push_back(&q);
  return shown;
}

html::verdict session_verdict(const session_result& r, const session_labels& labels) {
  const bool stream = r.readings && r.readings->stream_style();
  const std::string done = std::to_string(r.replications) +
                           (stream ? " readings" : " replications") + " in " +
                           std::to_string(r.rounds) + (r.rounds == 1 ? " round" : " rounds") +
                           " (" + seconds_text(r) + ")";
  html::verdict v;
  if (r.error) {
    v = {html::tone::bad,
         "Failed",
         "a replication failed after " + done +
             "; the intervals are "
             "those of the replications before it",
         {"error: " + *r.error}};
  } else if (r.stopped_because == stop_reason::interrupted) {
    v = {html::tone::warning,
         "Interrupted",
         "the session was stopped by a signal after " + done +
             "; the intervals are those obtained so far",
         {}};
  } else if (!r.quantities.empty() && r.all_required_converged()) {
    v = {html::tone::good,
         "Converged",
         "every required interval meets its precision after " + done,
         {}};
  } else {
    v = {html::tone::warning,
         "Not converged",
         "stopped: " + std::string(to_string(r.stopped_because)) + " (" +
             std::string(explain(r.stopped_because)) + ") after " + done,
         {}};
  }
  std::size_t with_exact = 0, covered = 0;
  for (const auto& q : r.quantities)
    if (const auto e = labels.analytic.find(q.name); e != labels.analytic.end()) {
      ++with_exact;
      if (covers(q.stats, e->second).value_or(false)) ++covered;
    }
  if (with_exact)
    v.notes.push_back("The model knows the exact value of " + std::to_string(with_exact) +
                      (with_exact == 1 ? " quantity" : " quantities") + "; " +
                      std::to_string(covered) + " of these intervals cover it.");
  for (const auto& q : r.quantities)
    if (!q.derived && q.stats.n != q.stats.n_used)
      v.notes.push_back("Discarded from " + q.name + ": " + discarded_text(q.stats) + ".");
  return v;
}

html::table intervals_table(const session_result& r, const session_labels& labels) {
  const bool exact = !labels.analytic.empty();
  const double level = r.quantities.empty() ? 0.95 : r.quantities.front().requirements.confidence;
  html::table t{"Each quantity's estimate and " + format_level(level) + " interval",
                {"quantity", "estimated", "value", "interval", "±", "target"},
                {},
                {false, false, true, true, true, true},
                true,
                {}};
  if (exact) t.header.insert(t.header.end(), {"exact", "covered"});
  t.header.insert(t.header.end(), {"readings used", "converged"});
  t.numeric.insert(t.numeric.end(), {true, false, true, false});
  if (!exact) t.numeric = {false, false, true, true, true, true, true, false};
  for (const auto& q : r.quantities) {
    const analysis& a = q.stats;
    std::vector<std::string> row = {q.name + (q.unit.empty() ? "" : " (" + q.unit + ")"),
                                    std::string(mean_label(q.stats)),
                                    html::number_cell(a.mean, a),
                                    html::interval_cell(a),
                                    html::half_width_cell(a),
                                    html::target_cell(q.requirements)};
    if (exact) {
      const auto e = labels.analytic.find(q.name);
      const auto c = e == labels.analytic.end() ? std::nullopt : covers(a, e->second);
      row.push_back(e == labels.analytic.end() ? "-"
                                               : format_number(e->second, html::resolution_of(a)));
      row.push_back(c ? (*c ? "yes" : "no") : "-");
    }
    row.push_back(html::readings_cell(a));
    row.push_back(html::converged_cell(a, q.required));
    t.rows.push_back(std::move(row));
  }
  if (r.quantities.empty()) t.note = "no readings";
  return t;
}

html::figure rounds_figure(const round_history& h, const session_result& r,
                           const session_labels& labels) {
  html::figure f;
  f.plot = session_plot(h, r, labels.analytic, labels.experiment, "", plot_format::svg);
  const auto shown = shown_quantities(r);
  f.caption =
      "The interval of each " + std::string(shown.size() > 1 ? "required quantity" : "quantity") +
      " after every round, against the " + (h.stream_style() ? "readings" : "replications") +
      " so far (log scale), with the band the final interval had to fit in" +
      (labels.analytic.empty() ? "." : " and the exact value.");
  std::size_t rows = 0;
  for (const auto* q : shown) rows += h.of(q->name).size();
  std::vector<std::string> descriptions;
  for (const auto* q : shown) {
    const auto rounds = h.of(q->name);
    const analysis& a = q->stats;
    const double res = html::resolution_of(a);
    auto interval = [&](const round_history::entry& e) {
      return std::isnan(e.low) ? std::string("no interval")
                               : std::string("[") + format_number(e.low, res) + ", " +
                                     (std::isnan(e.high) ? std::string("unbounded)")
                                                         : format_number(e.high, res) + "]");
    };
    std::string description = q->name + ": " + std::to_string(rounds.size()) +
                              (rounds.size() == 1 ? " round" : " rounds");
    if (!rounds.empty())
      description += ", from " + interval(rounds.front()) + " after " +
                     std::to_string(rounds.front().replications) + " to " +
                     interval(rounds.back()) + " after " +
                     std::to_string(rounds.back().replications);
    if (a.mean && a.target_width > 0 && std::isfinite(a.target_width))
      description += "; the target band is " + format_number(*a.mean, res) + " ± " +
                     format_number(a.target_width / 2, res);
    if (const auto e = labels.analytic.find(q->name); e != labels.analytic.end()) {
      const auto c = covers(a, e->second);
      description +=
          "; the exact value " + format_number(e->second, res) +
          (c ? (*c ? " lies inside the final interval" : " lies outside the final interval") : "");
    }
    descriptions.push_back(description + ".");
    if (rows > max_listed_rows) continue;
    html::table t{
        "Data of figure: " + q->name + " after each round",
        {"round", h.stream_style() ? "readings" : "replications", "estimate", "low", "high"},
        {},
        {true, true, true, true, true},
        true,
        {}};
    for (std::size_t i = 0; i < rounds.size(); ++i) {
      const auto& e = rounds[i];
      auto num = [&](double v) { return std::isnan(v) ? std::string("-") : format_number(v, res); };
      t.rows.push_back({std::to_string(i + 1), std::to_string(e.replications), num(e.mean),
                        num(e.low), num(e.high)});
    }
    f.data.push_back(std::move(t));
  }
  f.description = join(descriptions, " ");
  if (rows > max_listed_rows)
    f.data_note = "Its " + std::to_string(rows) + " data rows are not listed here.";
  return f;
}

}  // namespace

report_outcome write_html_report(std::ostream& out, const session_result& r,
                                 const round_history& history, const session_labels& labels,
                                 const report_provenance& p) {
  const bool stream = r.readings && r.readings->stream_style();
  html::page pg;
  pg.title = "mcpilot run: " + labels.experiment;
  pg.subtitle = "model " + labels.model + ", seed " + std::to_string(labels.seed) + ", preset " +
                labels.preset + ", " + std::to_string(r.threads) +
                (r.threads == 1 ? " thread" : " threads") +
                (stream ? ", " + std::to_string(r.readings->streams()) + " streams" : "");
  pg.result = session_verdict(r, labels);
  pg.verdict_tables.push_back(intervals_table(r, labels));
  if (!labels.facts.empty()) {
    html::table facts{"Exact facts of this configuration (not estimates: no interval)",
                      {"fact", "value", "what it is"},
                      {},
                      {false, false, false},
                      true,
                      {}};
    for (const auto& f : labels.facts)
      facts.rows.push_back({f.name, to_string(f.value), f.description});
    pg.verdict_tables.push_back(std::move(facts));
  }
  if (!history.empty()) pg.figures.push_back(rounds_figure(history, r, labels));

  html::section rests{"What each estimate rests on", {}, {}};
  rests.paragraphs.push_back(
      "Warm-up and cool-down are found by change-points and left out; the readings are grouped "
      "into subsessions long enough that their means are nearly uncorrelated, and the interval is "
      "built on those means (docs/statistics.md).");
  html::table method{"The analysis of each quantity's readings",
                     html::method_header(),
                     {},
                     html::method_numeric(),
                     true,
                     {}};
  for (const auto& q : r.quantities)
    method.rows.push_back(html::method_row(q.name + (q.derived ? " (derived)" : ""), q.stats));
  rests.tables.push_back(std::move(method));
  pg.details.push_back(std::move(rests));
  return html::write_page(out, pg, p);
}

}  // namespace mcpilot
