// `mcpilot analyze FILE|-`: the interval of one column of readings (docs/cli-analysis.md), or with
// --wps W,D the rate from a fit of duration against work.
//
// Exit codes: 0 when an analysis was produced, converged or not (the readings are all there is,
// so "not converged" is a result, reported as converged:false with the readings still
// required); 2 for usage and input errors, each naming file:line:column; 1 for a bug.
#include <array>
#include <charconv>
#include <cmath>
#include <iostream>
#include <memory>
#include <string_view>

#include "analysis_options.hpp"
#include "analyze_page.hpp"
#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/analysis_json.hpp"
#include "mcpilot/io/analysis_plot.hpp"
#include "mcpilot/io/plot.hpp"
#include "mcpilot/io/readings_csv.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/stats/magnitude.hpp"
#include "mcpilot/stats/trend.hpp"
#include "mcpilot/stats/wps.hpp"

namespace mcpilot::cli {

namespace {

struct analyze_state {
  std::string file;
  std::string wps;
  std::string plot;  // --plot FILE: the readings, removed phases, change-points, mean
  std::string format = "svg";
  shared_options o;
  report_request report;  // --report FILE.html
};

// The preset's name, then the precision in the words `run --json` gives each quantity's (`ac`, as
// in configs and on the command line), the interval resolved.
nlohmann::ordered_json requirements_json(const shared_options& o, precision p) {
  p.interval = p.interval.value_or(interval_method::adjusted);
  nlohmann::ordered_json j = {{"preset", o.preset}};
  j.update(to_json(p));
  return j;
}

// "3,5" -> {3, 5}; anything else is a usage error.
std::array<std::size_t, 2> parse_wps_columns(const std::string& s) {
  const auto comma = s.find(',');
  std::size_t work = 0, duration = 0;
  const auto parse = [](std::string_view t, std::size_t& v) {
    const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    return ec == std::errc() && p == t.data() + t.size() && !t.empty();
  };
  if (comma == std::string::npos || !parse(std::string_view(s).substr(0, comma), work) ||
      !parse(std::string_view(s).substr(comma + 1), duration))
    throw input_error("--wps expects WORK_COLUMN,DURATION_COLUMN (0-based), got '" + s + "'");
  if (work == duration) throw input_error("--wps: the work and duration columns must differ");
  return {work, duration};
}

void run_wps(const analyze_state& st) {
  const precision req = requirements(st.o);
  const auto cols = parse_wps_columns(st.wps);
  const auto columns = read_csv_columns(st.file, cols, st.o.header);
  const csv_column &work = columns[0], &duration = columns[1];
  note_header(work, std::cerr);
  for (const csv_column* c : {&work, &duration})
    for (std::size_t i = 0; i < c->values.size(); ++i)
      if (c->values[i] < 0)
        throw input_error(c->where(i) + ": field " + std::to_string(c->field) + ": " +
                          (c == &work ? "a work amount" : "a duration") +
                          " cannot be negative, got " + format_number(c->values[i]));
  for (const csv_column* c : {&work, &duration})
    if (const auto i = first_unanalysable(c->values))
      throw input_error(c->where(*i) + ": field " + std::to_string(c->field) + ": " +
                        unanalysable_message(c->values[*i], false));
  const auto fit =
      fit_wps_stable(work.values, duration.values, req.confidence, req.autocorrelation_limit);
  if (!fit)
    throw input_error(work.source + ": " + std::to_string(work.values.size()) +
                      " rounds; the fit needs at least 3 rounds, at least two different work "
                      "amounts, and (for autocorrelated rounds) at least 3 subsessions of rounds "
                      "whose residuals' lag-1 autocorrelation is within the limit, with different "
                      "mean work (when the intercept is below 0, among the rounds long enough to "
                      "hold a stable phase)");
  if (st.o.json) {
    nlohmann::ordered_json j = {{"source", work.source},
                                {"n", work.values.size()},
                                {"header", header_json(work)},
                                {"confidence", req.confidence},
                                {"wps", to_json(*fit)}};
    std::cout << j.dump(2) << '\n';
  } else {
    write_report(std::cout, *fit, work.source, req.confidence);
  }
}

// A trend test at 1%: under a steady state one analysis in a hundred warns by chance.
constexpr double trend_alpha = 0.01;

// Says it on stderr, and returns it for --report; empty when there is no trend to warn of.
std::string warn_trend(const std::string& source, const std::optional<trend_result>& t) {
  if (!t || !(t->p < trend_alpha)) return {};
  const std::string said = "the subsession means trend (slope t = " + format_number(t->t, 0.1) +
                           " over " + std::to_string(t->count) + " subsessions, p " +
                           (t->p < 1e-300 ? "" : "= ") + format_p(t->p) +
                           "): the readings may not have reached a steady state, which the "
                           "interval assumes";
  std::cerr << source << ": warning: " << said << '\n';
  return said;
}

nlohmann::ordered_json trend_json(const std::optional<trend_result>& t) {
  if (!t) return nullptr;
  return {
      {"slope", t->slope},
      {"t", std::isfinite(t->t) ? nlohmann::ordered_json(t->t) : nlohmann::ordered_json(nullptr)},
      {"p", t->p},
      {"subsessions", t->count},
      {"warning", t->p < trend_alpha}};
}

// What run_analyze checks before it reads the file.
void check_analyze_options(const analyze_state& st) {
  if (st.wps.empty())
    (void)to_analysis_options(st.o);
  else
    (void)requirements(st.o), (void)parse_wps_columns(st.wps);
}

void run_analyze(const analyze_state& st) {
  if (!st.wps.empty()) return run_wps(st);
  const analysis_options opt = to_analysis_options(st.o);
  const csv_column c = read_readings(st.file, {st.o.column, st.o.header});
  note_header(c, std::cerr);
  const analysis a = analyze_column(c, opt);
  const auto trend = subsession_trend(c.values, a);
  const std::string trend_warning = warn_trend(c.source, trend);
  if (st.o.json) {
    nlohmann::ordered_json j = to_json(a);
    j["trend"] = trend_json(trend);
    j["source"] = c.source;
    j["column"] = st.o.column;
    j["header"] = header_json(c);
    j["requirements"] = requirements_json(st.o, opt.requirements);
    j["warmup_removal"] = warmup_removal_name(opt.remove_warmup, opt.keep_excursions);
    std::cout << j.dump(2) << '\n';
  } else {
    write_report(std::cout, a,
                 {c.source, st.o.preset, opt.requirements, opt.remove_warmup, &c.positions,
                  opt.keep_excursions});
  }
  if (!st.report.path.empty()) write_analysis_report(st.report, st.o, opt, c, a, trend_warning);
  if (!st.plot.empty()) {
    // After the report, so that a missing gnuplot costs only the picture.
    std::cout.flush();
    render_plot(analysis_plot(a, c.values, c.source, st.plot, parse_plot_format(st.format)));
  }
}

}  // namespace

void add_analyze_command(CLI::App& app, context& ctx) {
  auto st = std::make_shared<analyze_state>();
  CLI::App* cmd = app.add_subcommand(
      "analyze",
      "Interval, subsession size and readings still required for one column of readings");
  cmd->add_option("FILE", st->file, "CSV file of readings, or - for standard input")->required();
  add_input_options(cmd, st->o);
  add_precision_options(cmd, st->o);
  add_changepoint_limit_option(cmd, st->o);
  cmd->add_option("--wps", st->wps,
                  "WORK,DURATION: fit duration against work amount (0-based columns) and report "
                  "the rate")
      ->excludes(st->o.column_opt)
      ->excludes(st->o.kind_opt);
  CLI::Option* plot = cmd->add_option(
      "--plot", st->plot,
      "draw the readings, removed warm-up/cool-down, change-points and the stable phase's mean "
      "and interval to this file (gnuplot)");
  plot->excludes("--wps");
  cmd->add_option("--format", st->format, "plot format: svg or png")
      ->default_val("svg")
      ->needs(plot);
  add_report_option(cmd, st->report, ctx)->excludes("--wps");
  cmd->callback([st, &ctx] {
    if (ctx.parse_only) return check_analyze_options(*st);
    run_analyze(*st);
    ctx.result = exit_ok;
  });
}

}  // namespace mcpilot::cli
