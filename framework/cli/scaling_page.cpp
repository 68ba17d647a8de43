#include "scaling_page.hpp"

#include <chrono>

#include "mcpilot/io/environment.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/join.hpp"

namespace mcpilot::cli {

void write_scaling_page(const report_request& r, const scaling_result& result,
                        const scaling_source& s, const scaling_options& o) {
  report_provenance p;
  p.command = command_words(r);
  p.seed = o.seed;
  p.seed_note = "the within-size resamples of the selection-stability step draw from it";
  std::vector<std::string> names;
  for (auto shape : o.models) names.emplace_back(to_string(shape));
  const std::string models = join(names);
  p.settings = {{"file", s.file},
                {"n column", s.n_column},
                {"value column", s.value_column},
                {"quantity", s.quantity.empty() ? "- (rows of n and a value)" : s.quantity},
                {"unit", s.unit.empty() ? "-" : s.unit},
                {"candidates", models.empty() ? "every shape (exploratory)" : models},
                {"resamples", std::to_string(o.bootstrap)},
                {"relative tolerance", format_number(o.relative_tolerance)},
                {"confidence", format_level(o.confidence)}};
  const auto now = std::chrono::system_clock::now();
  p.environment = environment_json(now, now, o.seed, 1);
  p.environment.erase("threads");
  write_report_file(r, [&](std::ostream& out) { return write_html_report(out, result, s, o, p); });
}

}  // namespace mcpilot::cli
