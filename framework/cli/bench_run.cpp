// One `mcpilot bench` session on the command line: options checked and turned into settings,
// the framework's session run with progress lines on stderr, then the table and the files.
#include "bench_run.hpp"

#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/atomic_file.hpp"
#include "mcpilot/io/progress.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/programs/bench_words.hpp"
#include "run_support.hpp"

namespace mcpilot::cli::bench {

programs::bench_settings settings_from(const bench_options& o) {
  programs::bench_settings s;
  s.requirements = requirements(o.precision_options);
  if (o.until != "precise" && o.until != "separated")
    throw input_error("--until: expected precise or separated, got '" + o.until + "'");
  if (o.output != "time") {
    s.columns = programs::csv_columns(o.output);
    if (s.columns.empty())
      throw input_error("--output: expected time, csv or csv:COLUMN,..., got '" + o.output + "'");
  }
  s.commands = programs::group_commands(o.commands, o.names.size());
  s.names = o.names;
  s.shell = o.shell;
  s.warmup = o.warmup;
  s.prepare = o.prepare;
  s.setup = o.setup;
  s.cleanup = o.cleanup;
  s.input = o.input;
  s.show_output = o.show_output;
  s.ignore_failure = o.ignore_failure;
  s.until_separated = o.until == "separated";
  s.max_runs = o.max_runs;
  if (!(o.max_seconds > 0)) throw input_error("--max-seconds must be positive");
  s.max_seconds = o.max_seconds;
  s.min_seconds = o.min_seconds;
  s.seed = o.seed;
  if (!o.counters.empty()) {
    std::stringstream ss(o.counters);
    for (std::string n; std::getline(ss, n, ',');) s.counters.push_back(n);
    check_counter_names(s.counters, "--counters");
  }
  s.work_initial = o.work_initial;
  s.work_max = o.work_max;
  s.work_levels = o.work_levels;
  s.ramp_seconds = o.ramp_seconds;
  s.remove_warmup = !o.precision_options.no_warmup_removal;
  s.keep_excursions = keep_excursions(o.precision_options);
  s.interrupted = &interrupted;
  return s;
}

namespace {

std::string progress_text(const programs::bench_session& s) {
  std::ostringstream os;
  os << s.total_runs() << " runs, " << format_number(s.elapsed_seconds(), 0.1) << " s";
  const precision& req = s.settings().requirements;
  for (const auto& c : s.commands()) {
    const auto& res = c.eng->results();
    os << " | " << c.name << ": ";
    if (res.size() <= primary || !res[primary].stats.mean) {
      os << "no interval yet";
      continue;
    }
    const analysis& a = res[primary].stats;
    os << format_number(*a.mean) << (res[primary].unit.empty() ? "" : " " + res[primary].unit);
    if (a.ci_width_rel)
      os << " ±" << format_percent(*a.ci_width_rel / 2) << " (target ±"
         << format_percent(req.ci_perc / 2) << ")";
    if (!c.last.stop) os << ", ~" << c.last.count << " more runs";
    // Where a met interval waits for --min-seconds, the line says so rather than nothing.
    if (c.measured_seconds < s.settings().min_seconds)
      os << ", " << format_number(c.measured_seconds, 0.1) << " of --min-seconds "
         << format_number(s.settings().min_seconds) << " s";
  }
  // The pairs, when they decide the stop: the ratio and where the looks stand.
  if (s.settings().until_separated)
    for (const auto& p : s.pairs()) {
      os << " | " << s.commands()[p.b].name << '/' << s.commands()[p.a].name << ' '
         << format_number(p.cmp.mean_a != 0 ? p.cmp.mean_b / p.cmp.mean_a : 0) << ", ";
      if (p.resolved)
        os << "resolved at look " << p.looks;
      else
        os << p.looks << " look" << (p.looks == 1 ? "" : "s") << ", next at level "
           << format_p(p.next_level);
    }
  return os.str();
}

}  // namespace

int run_session(const bench_options& o, const std::string& program, sweep_row_target sweep) {
  programs::bench_session s(settings_from(o));
  check_distinct_outputs({{"--export-json", o.export_json},
                          {"--export-csv", o.export_csv},
                          {"--export-markdown", o.export_markdown},
                          {"--report", o.report.path}});
  if (!o.export_json.empty()) check_writable(o.export_json, "--export-json");
  if (!o.export_csv.empty()) check_writable(o.export_csv, "--export-csv");
  if (!o.export_markdown.empty()) check_writable(o.export_markdown, "--export-markdown");
  if (!o.report.path.empty()) check_writable(o.report.path, "--report");

  const bool show_progress = !o.quiet && (o.progress || stderr_is_terminal());
  {
    stop_signal_scope scope;
    s.run([&] {
      if (show_progress) std::cerr << progress_text(s) << '\n';
    });
  }
  for (const auto& w : s.warnings()) std::cerr << program << ": warning: " << w << '\n';
  if (s.total_runs() > 0) write_table(std::cout, o, s);
  std::cout.flush();
  if (!o.export_json.empty()) {
    const std::string text = to_json_result(o, s).dump(2);
    write_file_atomically(o.export_json, "--export-json",
                          [&](std::ostream& out) { out << text << '\n'; });
  }
  if (!o.export_csv.empty())
    write_file_atomically(o.export_csv, "--export-csv",
                          [&](std::ostream& out) { write_csv(out, s); });
  if (!o.export_markdown.empty())
    write_file_atomically(o.export_markdown, "--export-markdown",
                          [&](std::ostream& out) { write_markdown(out, s); });
  if (!o.report.path.empty()) write_report_page(o, s);
  if (sweep.out) sweep_rows(*sweep.out, s, sweep.point, sweep.value);

  if (s.failure()) {
    std::cerr << program << ": error: " << *s.failure() << '\n';
    return exit_input;
  }
  if (s.stopped_because() == stop_reason::interrupted) return exit_interrupted;
  return s.stopped_because() == stop_reason::converged ? exit_ok : exit_limit;
}

}  // namespace mcpilot::cli::bench
