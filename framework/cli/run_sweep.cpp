// `mcpilot run` of a config with [sweep]: one session per point, in index order, each with its own
// seed; the table on stdout has a row per point, --table writes the results table as CSV, --json
// the points[], --plot each quantity against the swept value. --point K runs point K alone and
// shows its full session table. docs/sweeps.md describes the formats and the exit code (the worst
// point's, 130 when interrupted).

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/atomic_file.hpp"
#include "mcpilot/io/environment.hpp"
#include "mcpilot/io/progress.hpp"
#include "mcpilot/io/run_plot.hpp"
#include "mcpilot/io/session_output.hpp"
#include "mcpilot/io/sweep_output.hpp"
#include "mcpilot/number_text.hpp"
#include "mcpilot/sweep/run.hpp"
#include "run_page.hpp"
#include "run_support.hpp"

namespace mcpilot::cli {

namespace {

// "point 3 (4 of 12: model.disks = 8)"
std::string point_heading(const sweep_point& p, std::size_t position, std::size_t total) {
  return "point " + std::to_string(p.index) + " (" + std::to_string(position) + " of " +
         std::to_string(total) + ": " + point_label(p) + ")";
}

// --point K: the point's own full session table, under a line naming it.
void write_single_point(std::ostream& out, const sweep_point& p, const experiment_config& base) {
  out << base.name << ": point " << p.index << " of a sweep of " << base.sweep->size()
      << " points: " << point_label(p) << ", seed " << p.seed << " (from seed "
      << base.settings.seed << " and point " << p.index << ")\n";
  if (!p.result) {
    out << "point " << p.index << ": " << to_string(p.status) << ": " << p.reason << '\n';
    return;
  }
  write_session_table(out, *p.result,
                      {base.name, base.model_name, base.preset, p.seed, p.analytic, p.facts});
}

// "96 MiB", "1.2 GiB"
std::string bytes_text(double b) {
  char buf[32];
  if (b >= 1024.0 * 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.3g GiB", b / (1024.0 * 1024 * 1024));
  else
    std::snprintf(buf, sizeof buf, "%.3g MiB", b / (1024.0 * 1024));
  return buf;
}

// What the sweep is estimated to need, before its first point; nothing when the model estimates
// nothing.
void write_estimate(std::ostream& out, const sweep_estimate& e, const sweep_plan& plan) {
  if (e.peak_bytes <= 0 && e.certain_seconds <= 0 && e.stoppable_seconds <= 0) return;
  out << "estimate for " << e.points << " points";
  if (e.rejected_points) out << " (" << e.rejected_points << " rejected at their values)";
  out << ":\n";
  if (e.peak_bytes > 0) {
    sweep_point p;
    for (const auto& a : plan.axes) p.keys.push_back(a.key);
    p.values = plan.point(e.peak_point);
    out << "  memory: at most " << bytes_text(e.peak_bytes) << " at once (point " << e.peak_point
        << ": " << point_label(p) << ")\n";
  }
  if (e.certain_seconds > 0 || e.stoppable_seconds > 0) {
    out << "  time: about " << duration_text(e.certain_seconds)
        << " for the points no stop rule can skip";
    if (e.stoppable_seconds > 0)
      out << ", and up to " << duration_text(e.stoppable_seconds)
          << " more for those a stop-axis rule may skip (they run until it stops them)";
    out << "; each point at its first round of " << e.readings_per_point
        << " readings (a session needs more when its readings vary more)\n";
  }
  if (!e.basis.empty()) out << "  basis: " << e.basis << '\n';
}

}  // namespace

int run_sweep_command(const run_options& o, const experiment_config& cfg, const std::string& text,
                      const config_overrides& overrides, const model_registry& models,
                      const std::string& program) {
  if (!o.raw.empty() && !o.point)
    throw input_error("--raw " + o.raw +
                      ": a sweep runs many sessions; write one point's readings with --point K "
                      "--raw FILE (its seed and numbers are the sweep's)");
  const plot_format format = parse_plot_format(o.format);
  const bool table_to_stderr = stdout_is_an_output(o);
  check_outputs(o);  // before any work; the files are written at the end, atomically (and
                     // --table also as points end)

  const bool show_progress = !o.quiet && (o.progress || stderr_is_terminal());
  sweep_options options;
  options.only_point = o.point;
  options.interrupted = &interrupted;
  std::size_t position = 0;
  round_history history;  // --point K with --plot: that session's rounds
  if (!o.quiet && !o.point)
    options.on_estimate = [&](const sweep_estimate& e) {
      write_estimate(std::cerr, e, *cfg.sweep);
      std::cerr.flush();
    };
  options.on_point = [&](const sweep_point& p, std::size_t total) {
    ++position;
    if (!show_progress) return;
    if (o.point)
      std::cerr << "point " << p.index << " alone (" << point_label(p) << "): starting\n";
    else
      std::cerr << point_heading(p, position, total) << ": starting\n";
  };
  options.on_round = [&](const sweep_point& p, std::size_t total, const session_progress& s) {
    if (show_progress && o.point)
      std::cerr << "point " << p.index << ": " << progress_line(s) << '\n' << std::flush;
    else if (show_progress)
      std::cerr << "point " << p.index << " (" << position << " of " << total
                << "): " << progress_line(s) << '\n'
                << std::flush;
    if (o.point && (!o.plot.empty() || !o.report.path.empty())) history.record(s);
  };

  // --table is kept up to date as points end (at most every 30 s: a large table rewritten after
  // every short point would cost more than the points), so a sweep killed by SIGKILL or a machine
  // that goes down keeps the rows of the points it finished. A study of hours lost every row that
  // way once (the sorting study, 268 points in).
  auto last_table = std::chrono::steady_clock::now();
  if (!o.table.empty() && !o.point)
    options.on_point_done = [&](const sweep_result& so_far) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last_table < std::chrono::seconds(30)) return;
      last_table = now;
      write_output(o.table, "--table",
                   [&](std::ostream& out) { write_sweep_csv(out, so_far, cfg); });
    };

  const auto start = std::chrono::system_clock::now();
  sweep_result result;
  stop_signal_scope scope;  // until the outputs are written, as in run.cpp
  result = run_sweep(cfg, text, models, overrides, options);
  const auto end = std::chrono::system_clock::now();

  std::ostream& table = table_to_stderr ? std::cerr : std::cout;
  if (o.point)
    write_single_point(table, result.points.front(), cfg);
  else
    write_sweep_table(table, result, cfg);
  table.flush();

  if (!o.json.empty()) {
    unsigned threads = 0;
    for (const auto& p : result.points)
      if (p.result) threads = p.result->threads;
    const std::string json =
        to_json(result, cfg, environment_json(start, end, cfg.settings.seed, threads)).dump(2);
    write_output(o.json, "--json", [&](std::ostream& out) { out << json << '\n'; });
  }
  if (!o.table.empty())
    write_output(o.table, "--table", [&](std::ostream& out) { write_sweep_csv(out, result, cfg); });
  if (!o.raw.empty()) {
    const sweep_point& p = result.points.front();
    write_output(o.raw, "--raw", [&](std::ostream& out) {
      if (p.result) write_raw_readings(out, *p.result, p.spec);
    });
  }
  if (!o.report.path.empty()) write_sweep_report(o, cfg, text, result, history, start, end);
  // A closed pipe or a full disk on stdout must not pass for success.
  std::cout.flush();
  if (!std::cout) throw input_error("standard output: write failed");
  const int code = result.exit_code();
  if (code == exit_interrupted)
    std::cerr << program << ": interrupted: the points measured so far are written\n";
  if (o.plot.empty()) return code;
  return render_last(
      [&] {
        if (!o.point) return sweep_plot(result, cfg, o.plot, format);
        const sweep_point& p = result.points.front();
        if (!p.result)
          throw input_error("--plot " + o.plot + ": point " + std::to_string(p.index) +
                            " did not run, so there is nothing to draw");
        return session_plot(history, *p.result, p.analytic,
                            cfg.name + " (" + o.config + "), point " + std::to_string(p.index) +
                                ": " + point_label(p),
                            o.plot, format);
      },
      code, program);
}

}  // namespace mcpilot::cli
