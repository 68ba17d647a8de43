// `mcpilot bench --report FILE.html`: what the session found, handed to the page writer
// (io/html_report.hpp) in the words of the table on stdout.
#include <chrono>
#include <limits>

#include "bench_run.hpp"
#include "mcpilot/io/environment.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/stats/wps.hpp"

namespace mcpilot::cli::bench {

void write_report_page(const bench_options& o, const programs::bench_session& s) {
  bench_report r;
  r.requirements = s.settings().requirements;
  r.preset = o.precision_options.preset;
  r.until = o.until;
  r.runs = s.total_runs();
  r.warmup_runs = o.warmup;
  r.stopped_because = s.stopped_because().value();
  r.error = s.failure();
  r.counter_notes = s.counter_notes();
  for (const auto& c : s.commands()) {
    bench_report::command rc;
    rc.name = c.name;
    rc.line = c.line;
    rc.quantities = c.eng->results();
    rc.primary_readings = c.eng->stream_readings(0, primary);
    rc.runs = c.runs;
    rc.failures = c.failures;
    if (s.work_mode()) rc.wps = s.wps(c);
    r.commands.push_back(std::move(rc));
  }
  for (const auto& p : s.pairs()) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const ratio_interval ratio{p.cmp.mean_a != 0 ? p.cmp.mean_b / p.cmp.mean_a : nan,
                               p.cmp.ratio_low.value_or(nan), p.cmp.ratio_high.value_or(nan)};
    r.pairs.push_back({p.a, p.b, ratio, p.cmp.p, p.resolved, pair_words(s, p, false)});
  }
  report_provenance prov;
  prov.command = command_words(o.report);
  prov.seed = o.seed;
  prov.seed_note = "the order in which the commands' runs are interleaved";
  prov.settings = {{"preset", o.precision_options.preset},
                   {"until", o.until},
                   {"shell", o.shell},
                   {"warm-up runs (discarded)", std::to_string(o.warmup)},
                   {"max runs", std::to_string(o.max_runs)},
                   {"max seconds", format_number(o.max_seconds)},
                   {"min seconds", format_number(s.settings().min_seconds)},
                   {"output", o.output}};
  for (const auto& [name, value] :
       {std::pair<const char*, const std::string*>{"prepare", &o.prepare},
        {"setup", &o.setup},
        {"cleanup", &o.cleanup},
        {"input", &o.input}})
    if (!value->empty()) prov.settings.push_back({name, *value});
  prov.environment = environment_json(s.start(), s.end(), o.seed, 1);
  write_report_file(o.report, [&](std::ostream& out) { return write_html_report(out, r, prov); });
}

}  // namespace mcpilot::cli::bench
