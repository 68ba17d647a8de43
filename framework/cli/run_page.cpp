#include "run_page.hpp"

#include "mcpilot/error.hpp"
#include "mcpilot/io/environment.hpp"
#include "mcpilot/io/html_report.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/io/sweep_output.hpp"
#include "report_option.hpp"

namespace mcpilot::cli {

namespace {

report_provenance run_provenance(const run_options& o, const experiment_config& cfg,
                                 const std::string& config_text, std::uint64_t seed,
                                 nlohmann::ordered_json environment) {
  report_provenance p;
  p.command = command_words(o.report);
  p.seed = seed;
  p.seed_note =
      "replication i draws only from the random stream keyed by (seed, i), so the estimates are "
      "the same on any number of threads";
  p.config_source = o.config.empty() ? o.resume : o.config;
  p.config_text = config_text;
  p.overrides = o.sets;
  p.settings = {{"preset", cfg.preset},
                {"max_replications", std::to_string(cfg.settings.max_replications)},
                {"max_seconds", format_number(cfg.settings.max_seconds)}};
  if (!o.resume.empty()) p.settings.push_back({"resumed from", o.resume});
  p.environment = std::move(environment);
  return p;
}

}  // namespace

void write_session_report(const run_options& o, const experiment_config& cfg,
                          const std::string& config_text, const session_result& r,
                          const round_history& history) {
  const session_labels labels{cfg.name + " (" + (o.config.empty() ? o.resume : o.config) + ")",
                              cfg.model_name,
                              cfg.preset,
                              cfg.settings.seed,
                              cfg.instance->analytic(),
                              cfg.instance->model_facts()};
  const report_provenance p =
      run_provenance(o, cfg, config_text, cfg.settings.seed,
                     environment_json(r.start, r.end, cfg.settings.seed, r.threads));
  write_report_file(
      o.report, [&](std::ostream& out) { return write_html_report(out, r, history, labels, p); });
}

void write_sweep_report(const run_options& o, const experiment_config& cfg,
                        const std::string& config_text, const sweep_result& r,
                        const round_history& history, std::chrono::system_clock::time_point start,
                        std::chrono::system_clock::time_point end) {
  unsigned threads = 0;
  for (const auto& pt : r.points)
    if (pt.result) threads = pt.result->threads;
  report_provenance p = run_provenance(o, cfg, config_text, cfg.settings.seed,
                                       environment_json(start, end, cfg.settings.seed, threads));
  if (!o.point) {
    p.seed_note = "each point's seed is drawn from it and the point's index (docs/sweeps.md)";
    write_report_file(o.report,
                      [&](std::ostream& out) { return write_html_report(out, r, cfg, p); });
    return;
  }
  const sweep_point& pt = r.points.front();
  if (!pt.result)
    throw input_error("--report " + o.report.path + ": point " + std::to_string(pt.index) +
                      " did not run (" + pt.reason + "), so there is no session to report");
  const session_labels labels{
      cfg.name + " (" + o.config + "), point " + std::to_string(pt.index) + ": " + point_label(pt),
      cfg.model_name,
      cfg.preset,
      pt.seed,
      pt.analytic,
      pt.facts};
  p.seed = pt.seed;
  p.seed_note = "point " + std::to_string(pt.index) + "'s own, drawn from the sweep's seed " +
                std::to_string(cfg.settings.seed) + " and the point's index";
  write_report_file(o.report, [&](std::ostream& out) {
    return write_html_report(out, *pt.result, history, labels, p);
  });
}

}  // namespace mcpilot::cli
