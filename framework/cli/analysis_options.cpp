#include "analysis_options.hpp"

#include "mcpilot/error.hpp"

namespace mcpilot::cli {

namespace {

// CLI11 would read "-1" into a size_t as 2^64 - 1: accept digits only.
const CLI::Validator field_index(
    [](std::string& s) -> std::string {
      if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos) return {};
      return "expects a field index (0, 1, 2, ...), got '" + s + "'";
    },
    "N");

}  // namespace

void add_input_options(CLI::App* cmd, shared_options& o) {
  o.column_opt = cmd->add_option("--column", o.column, "field holding the readings (0-based)")
                     ->check(field_index)
                     ->default_val(0);
  cmd->add_flag("--header", o.header,
                "the first line is a header (otherwise a non-numeric first line is taken as one)");
  o.kind_opt = cmd->add_option("--kind", o.kind,
                               "ordinary (arithmetic mean), rate (harmonic mean, readings > 0) "
                               "or proportion (0/1 readings)")
                   ->check(CLI::IsMember({"ordinary", "rate", "proportion"}))
                   ->default_val("ordinary");
  cmd->add_flag("--json", o.json, "print the result as one JSON object on stdout, nothing else");
}

void add_precision_options(CLI::App* cmd, shared_options& o) {
  cmd->add_option("--preset", o.preset,
                  "quick (ac 0.8, width 20%, 30 subsessions), normal (0.2, 10%, 50) or strict "
                  "(0.1, 10%, 200)")
      ->check(CLI::IsMember({"quick", "normal", "strict"}))
      ->default_val("normal");
  o.ac_opt = cmd->add_option("--ac", o.ac,
                             "largest lag-1 autocorrelation allowed between subsession means");
  o.ci_perc_opt = cmd->add_option(
      "--ci-perc", o.ci_perc, "whole interval width as a fraction of the mean (0.10 means +-5%)");
  o.ci_opt = cmd->add_option("--ci", o.ci,
                             "whole interval width in the readings' unit (wins over --ci-perc)");
  o.confidence_opt = cmd->add_option("--confidence", o.confidence, "confidence level (0.95)");
  o.min_samples_opt =
      cmd->add_option("--min-samples", o.min_samples, "fewest subsession means to converge");
  cmd->add_option("--interval", o.interval,
                  "adjusted (batch means widened for their lag-1 autocorrelation; the default) or "
                  "pilot (Pilot's t interval, number for number)")
      ->check(CLI::IsMember({"adjusted", "pilot"}))
      ->default_val("adjusted");
  cmd->add_flag("--no-warmup-removal", o.no_warmup_removal,
                "keep every reading: skip warm-up and cool-down detection");
  cmd->add_flag("--wilson", o.wilson,
                "proportions: Wilson's score interval (honest near 0 and 1) instead of Wald's");
}

precision requirements(const shared_options& o) {
  auto p = preset(o.preset);
  if (!p) throw input_error("--preset: unknown preset '" + o.preset + "'");
  if (o.ac_opt && o.ac_opt->count()) p->autocorrelation_limit = o.ac;
  if (o.ci_perc_opt && o.ci_perc_opt->count()) p->ci_perc = o.ci_perc;
  if (o.ci_opt && o.ci_opt->count()) p->ci_abs = o.ci;
  if (o.confidence_opt && o.confidence_opt->count()) p->confidence = o.confidence;
  if (o.min_samples_opt && o.min_samples_opt->count()) p->min_samples = o.min_samples;
  p->interval = parse_interval_method(o.interval);
  if (!p->interval) throw input_error("--interval: unknown interval '" + o.interval + "'");
  validate(*p);
  return *p;
}

analysis_options to_analysis_options(const shared_options& o) {
  analysis_options a;
  const auto kind = parse_quantity_kind(o.kind);
  if (!kind) throw input_error("--kind: unknown kind '" + o.kind + "'");
  a.kind = *kind;
  a.requirements = requirements(o);
  a.remove_warmup = !o.no_warmup_removal;
  a.wilson = o.wilson;
  return a;
}

analysis analyze_column(const csv_column& c, const analysis_options& opt) {
  analysis a;
  try {
    a = analyze(c.values, opt);
  } catch (const reading_error& e) {
    throw input_error(c.where(e.index()) + ": field " + std::to_string(c.field) + ": " + e.what());
  }
  // Below 3 readings no subsession size exists (q <= n/3), so there is no interval at all.
  constexpr std::size_t fewest = 3;
  if (c.values.size() < fewest) {
    const std::size_t preset_min = opt.requirements.min_samples;
    throw input_error(c.source + ": " + std::to_string(c.values.size()) +
                      (c.values.size() == 1 ? " reading" : " readings") + "; at least " +
                      std::to_string(fewest) + " are needed for an interval, and " +
                      std::to_string(preset_min) + " (one per subsession) for it to converge");
  }
  return a;
}

}  // namespace mcpilot::cli
