#include "analyze_page.hpp"

#include <chrono>

#include "mcpilot/io/environment.hpp"
#include "mcpilot/io/report.hpp"

namespace mcpilot::cli {

void write_analysis_report(const report_request& r, const shared_options& o,
                           const analysis_options& opt, const csv_column& c, const analysis& a,
                           const std::string& warning) {
  report_provenance p;
  p.command = command_words(r);
  p.seed_note = "none: the analysis uses no random numbers; the same file gives the same result";
  const precision& q = opt.requirements;
  p.settings = {
      {"file", c.source},
      {"column (0-based)", std::to_string(o.column)},
      {"header line", c.header_line
                          ? std::to_string(c.header_line) + (c.header_guessed ? " (guessed)" : "")
                          : "none"},
      {"kind", o.kind},
      {"preset", o.preset},
      {"confidence", format_level(q.confidence)},
      {"target width", q.ci_abs ? format_number(*q.ci_abs) + " (whole, in the unit)"
                                : format_level(q.ci_perc) + " of the mean (whole)"},
      {"lag-1 autocorrelation limit", format_number(q.autocorrelation_limit)},
      {"fewest subsessions", std::to_string(q.min_samples)},
      {"interval", std::string(to_string(q.interval.value_or(interval_method::adjusted)))},
      {"warm-up removal", !opt.remove_warmup    ? "off (--no-warmup-removal)"
                          : opt.keep_excursions ? "on"
                                                : "on, excursions cut (--cut-excursions)"}};
  const auto now = std::chrono::system_clock::now();
  p.environment = environment_json(now, now, 0, 1);
  p.environment.erase("seed");
  p.environment.erase("threads");
  const report_context ctx{c.source,          o.preset,     q,
                           opt.remove_warmup, &c.positions, opt.keep_excursions};
  write_report_file(r, [&](std::ostream& out) {
    return write_html_report(out, a, c.values, ctx, p,
                             warning.empty() ? std::vector<std::string>{} : std::vector{warning});
  });
}

}  // namespace mcpilot::cli
