#include "analysis_options.hpp"

#include <cctype>
#include <cmath>
#include <ostream>
#include <string_view>

#include "mcpilot/error.hpp"
#include "option_checks.hpp"

namespace mcpilot::cli {

void add_input_options(CLI::App* cmd, shared_options& o) {
  o.column_opt = cmd->add_option("--column", o.column, "field holding the readings (0-based)")
                     ->check(unsigned_in(0, std::uint32_t{0xffffffff}, "a field index"))
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
                             "largest lag-1 autocorrelation allowed between subsession means")
                 ->check(number_between(0, 1));
  o.ci_perc_opt =
      cmd->add_option("--ci-perc", o.ci_perc,
                      "whole interval width as a fraction of the mean (0.10 means +-5%)")
          ->check(number_between(0, HUGE_VAL));
  o.ci_opt = cmd->add_option("--ci", o.ci,
                             "whole interval width in the readings' unit (wins over --ci-perc)")
                 ->check(number_between(0, HUGE_VAL));
  o.confidence_opt = cmd->add_option("--confidence", o.confidence, "confidence level (0.95)")
                         ->check(number_between(0, 1));
  o.min_samples_opt =
      cmd->add_option("--min-samples", o.min_samples, "fewest subsession means to converge")
          ->check(unsigned_in(2, max_min_samples, "a number of subsessions"));
  cmd->add_option("--interval", o.interval,
                  "adjusted (batch means widened for their lag-1 autocorrelation and moved for "
                  "their skewness; the default) or pilot (Pilot's t interval, number for number)")
      ->check(CLI::IsMember({"adjusted", "pilot"}))
      ->default_val("adjusted");
  cmd->add_option("--statistic", o.statistic,
                  "mean (the default) or median (a distribution-free interval on the order "
                  "statistics, for heavy-tailed readings)")
      ->check(CLI::IsMember({"mean", "median"}))
      ->default_val("mean");
  cmd->add_flag("--no-warmup-removal", o.no_warmup_removal,
                "keep every reading: skip warm-up and cool-down detection");
  cmd->add_flag("--cut-excursions", o.cut_excursions,
                "warm-up removal keeps one segment between change-points, as Pilot does, instead "
                "of keeping inside the phase a burst the level came back from");
  cmd->add_flag("--wilson", o.wilson,
                "proportions: Wilson's score interval (honest near 0 and 1) instead of Wald's");
}

void add_changepoint_limit_option(CLI::App* cmd, shared_options& o) {
  cmd->add_option("--changepoint-max-points", o.changepoint_max_points,
                  "warm-up removal searches a longer series on means of ceil(n / N) readings; "
                  "0: reading by reading")
      ->check(unsigned_in(0, std::uint32_t{0xffffffff}, "a number of points"))
      ->default_val(changepoint_options{}.max_points);
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
  const auto statistic = parse_summary_statistic(o.statistic);
  if (!statistic) throw input_error("--statistic: unknown statistic '" + o.statistic + "'");
  p->statistic = *statistic;
  validate(*p);
  return *p;
}

bool keep_excursions(const shared_options& o) {
  if (o.cut_excursions && o.no_warmup_removal)
    throw input_error(
        "--cut-excursions: it changes how warm-up removal picks the stable phase, and "
        "--no-warmup-removal turns that off");
  return !o.cut_excursions;
}

const char* warmup_removal_name(bool remove_warmup, bool keep_excursions) {
  return !remove_warmup ? "off" : keep_excursions ? "on" : "cut-excursions";
}

analysis_options to_analysis_options(const shared_options& o) {
  analysis_options a;
  const auto kind = parse_quantity_kind(o.kind);
  if (!kind) throw input_error("--kind: unknown kind '" + o.kind + "'");
  a.kind = *kind;
  if (o.wilson && a.kind != quantity_kind::proportion)
    throw input_error(
        "--wilson: Wilson's interval is for proportions (--kind proportion); the "
        "readings here are " +
        o.kind);
  a.requirements = requirements(o);
  if (a.requirements.statistic == summary_statistic::median && a.kind != quantity_kind::ordinary)
    throw input_error("--statistic median: the median is for ordinary readings; a " + o.kind +
                      " has its own estimate (" +
                      (a.kind == quantity_kind::rate ? "the harmonic mean" : "the proportion") +
                      ")");
  a.remove_warmup = !o.no_warmup_removal;
  a.keep_excursions = keep_excursions(o);
  const std::size_t least = 2 * changepoint_options{}.min_segment;
  if (o.changepoint_max_points != 0 && o.changepoint_max_points < least)
    throw input_error("--changepoint-max-points must be 0 or at least " + std::to_string(least) +
                      ", got " + std::to_string(o.changepoint_max_points) +
                      ": fewer means leave no split to test");
  a.changepoint_max_points = o.changepoint_max_points;
  a.wilson = o.wilson;
  return a;
}

namespace {

// "12abc", "0x10", "3,5": a first line that starts like a number but does not parse is more
// likely a misread reading than a column name.
bool looks_numeric(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  return !s.empty() && (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '.');
}

}  // namespace

void note_header(const csv_column& c, std::ostream& err) {
  if (!c.header_guessed || !looks_numeric(c.header_field)) return;
  err << c.source << ':' << c.header_line << ": note: line " << c.header_line
      << " was taken as a header, since field " << c.header_field_index << " (\"" << c.header_field
      << "\") is not a number; fix the line if it is a reading, or pass "
      << "--header to say it is a header\n";
}

nlohmann::ordered_json header_json(const csv_column& c) {
  if (!c.header_line) return nullptr;
  return {{"line", c.header_line}, {"guessed", c.header_guessed}};
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
