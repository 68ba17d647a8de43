// `mcpilot bench --report FILE.html`: what the session found, handed to the page writer
// (io/html_report.hpp) in the words of the table on stdout.
#include <chrono>

#include "bench_session.hpp"
#include "mcpilot/io/environment.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/stats/wps.hpp"

namespace mcpilot::cli::bench {

void bench_session::write_report_page(const std::vector<pair_result>& pairs) const {
  bench_report r;
  r.requirements = requirements_;
  r.preset = o_.precision_options.preset;
  r.until = o_.until;
  r.runs = total_runs_;
  r.warmup_runs = o_.warmup;
  r.stopped_because = stopped_because_.value();
  r.error = failure_;
  r.counter_notes = counter_notes_;
  for (const auto& c : commands_) {
    bench_report::command rc;
    rc.name = c.name;
    rc.line = c.line;
    rc.quantities = c.eng->results();
    rc.primary_readings = c.eng->stream_readings(0, primary);
    rc.runs = c.runs;
    rc.failures = c.failures;
    if (work_mode_) rc.wps = fit_wps(c.work, c.durations, requirements_.confidence);
    r.commands.push_back(std::move(rc));
  }
  for (const auto& p : pairs) {
    std::string v = p.resolved ? "resolved" : "not resolved";
    if (o_.until == "separated" && p.looks > 0)
      v += p.resolved ? " at look " + std::to_string(p.looks) + " (p " + format_p(p.look_p) +
                            " <= level " + format_p(p.level) + ")"
                      : " after " + std::to_string(p.looks) + (p.looks == 1 ? " look" : " looks");
    if (!p.resolved)
      v += p.runs_needed ? ", ~" + std::to_string(*p.runs_needed) + " more runs of " +
                               commands_[p.b].name + " to separate"
                         : ", more runs of " + commands_[p.a].name + " needed first";
    r.pairs.push_back({p.a, p.b, p.ratio, p.w.p, p.resolved, v});
  }
  report_provenance prov;
  prov.command = command_words(o_.report);
  prov.seed = o_.seed;
  prov.seed_note = "the order in which the commands' runs are interleaved";
  prov.settings = {{"preset", o_.precision_options.preset},
                   {"until", o_.until},
                   {"shell", o_.shell},
                   {"warm-up runs (discarded)", std::to_string(o_.warmup)},
                   {"max runs", std::to_string(o_.max_runs)},
                   {"max seconds", format_number(o_.max_seconds)},
                   {"output", o_.output}};
  for (const auto& [name, value] :
       {std::pair<const char*, const std::string*>{"prepare", &o_.prepare},
        {"setup", &o_.setup},
        {"cleanup", &o_.cleanup},
        {"input", &o_.input}})
    if (!value->empty()) prov.settings.push_back({name, *value});
  prov.environment = environment_json(start_, end_, o_.seed, 1);
  write_report_file(o_.report, [&](std::ostream& out) { return write_html_report(out, r, prov); });
}

}  // namespace mcpilot::cli::bench
