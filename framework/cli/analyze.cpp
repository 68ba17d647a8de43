// `mcpilot analyze FILE|-`: the interval of one column of readings (design.md section 4), or with
// --wps W,D the rate from a fit of duration against work.
//
// Exit codes: 0 when an analysis was produced, converged or not (the readings are all there is,
// so "not converged" is a result, reported as converged:false with the readings still
// required); 2 for usage and input errors, each naming file:line:column; 1 for a bug.
#include <array>
#include <charconv>
#include <iostream>
#include <memory>
#include <string_view>

#include "analysis_options.hpp"
#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/analysis_json.hpp"
#include "mcpilot/io/analysis_plot.hpp"
#include "mcpilot/io/plot.hpp"
#include "mcpilot/io/readings_csv.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/stats/wps.hpp"

namespace mcpilot::cli {

namespace {

struct analyze_state {
  std::string file;
  std::string wps;
  std::string plot;  // --plot FILE: the readings, removed phases, change-points, mean
  std::string format = "svg";
  shared_options o;
};

nlohmann::ordered_json requirements_json(const shared_options& o, const precision& p) {
  return {{"preset", o.preset},
          {"autocorrelation_limit", p.autocorrelation_limit},
          {"ci_perc", p.ci_perc},
          {"ci", p.ci_abs ? nlohmann::ordered_json(*p.ci_abs) : nlohmann::ordered_json(nullptr)},
          {"confidence", p.confidence},
          {"min_samples", p.min_samples}};
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
  for (const csv_column* c : {&work, &duration})
    for (std::size_t i = 0; i < c->values.size(); ++i)
      if (c->values[i] < 0)
        throw input_error(c->where(i) + ": field " + std::to_string(c->field) + ": " +
                          (c == &work ? "a work amount" : "a duration") +
                          " cannot be negative, got " + format_number(c->values[i]));
  const auto fit = fit_wps(work.values, duration.values, req.confidence);
  if (!fit)
    throw input_error(work.source + ": " + std::to_string(work.values.size()) +
                      " rounds; the fit needs at least 3 rounds and at least two different work "
                      "amounts");
  if (st.o.json) {
    nlohmann::ordered_json j = {{"source", work.source},
                                {"n", work.values.size()},
                                {"confidence", req.confidence},
                                {"wps", to_json(*fit)}};
    std::cout << j.dump(2) << '\n';
  } else {
    write_report(std::cout, *fit, work.source, req.confidence);
  }
}

void run_analyze(const analyze_state& st) {
  if (!st.wps.empty()) return run_wps(st);
  const analysis_options opt = to_analysis_options(st.o);
  const csv_column c = read_readings(st.file, {st.o.column, st.o.header});
  const analysis a = analyze_column(c, opt);
  if (st.o.json) {
    nlohmann::ordered_json j = to_json(a);
    j["source"] = c.source;
    j["column"] = st.o.column;
    j["requirements"] = requirements_json(st.o, opt.requirements);
    std::cout << j.dump(2) << '\n';
  } else {
    write_report(std::cout, a,
                 {c.source, st.o.preset, opt.requirements, opt.remove_warmup, &c.positions});
  }
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
  cmd->callback([st, &ctx] {
    run_analyze(*st);
    ctx.result = exit_ok;
  });
}

}  // namespace mcpilot::cli
