// `mcpilot compare A B`: is B's mean different from A's? Each file is analysed as `analyze` does
// (warm-up removal, subsession size); Welch's test then compares the two sets of subsession
// means, which are nearly independent where the raw readings may not be.
//
// Rates are tested on the reciprocal scale, where the harmonic mean is an ordinary mean; t is
// reported with the sign of the difference of the rates, and the difference's interval is
// carried back by the delta method (stats/mean_comparison.hpp).
//
// Exit codes: 0 when the comparison was made (significant or not), 2 for input errors (including
// a file whose readings give no interval), 1 for a bug.
#include <iostream>
#include <memory>
#include <stdexcept>

#include "analysis_options.hpp"
#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/analysis_json.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/mean_comparison.hpp"
#include "mcpilot/stats/stable_moments.hpp"
#include "mcpilot/stats/welch.hpp"

namespace mcpilot::cli {

namespace {

struct compare_state {
  std::string file_a, file_b;
  double power = 0;
  shared_options o;
};

struct side {
  csv_column readings;
  analysis result;
  sample_moments moments;  // of the subsession means, on the analysed scale (1/y for rates)
};

side analyse_side(const std::string& path, const compare_state& st, const analysis_options& opt) {
  side s{read_readings(path, {st.o.column, st.o.header}), {}, {}};
  note_header(s.readings, std::cerr);
  s.result = analyze_column(s.readings, opt);
  std::vector<double> storage;
  const auto m = stable_moments(analysed_scale(s.readings.values, opt.kind, storage), s.result);
  if (!m) throw input_error(s.readings.source + ": no interval to compare: " + s.result.status);
  s.moments = *m;
  return s;
}

void run_compare(const compare_state& st) {
  const analysis_options opt = to_analysis_options(st.o);
  if (!(st.power >= 0 && st.power < 1))
    throw input_error("--power must lie in [0, 1), got " + format_number(st.power));
  const double confidence = opt.requirements.confidence;
  const side a = analyse_side(st.file_a, st, opt);
  const side b = analyse_side(st.file_b, st, opt);
  // Each side's batch means carry the variance their interval carries (stable_moments).
  mean_comparison cmp;
  try {
    cmp = compare_means(a.moments, b.moments, opt.kind, confidence, st.power,
                        opt.requirements.min_samples);
  } catch (const std::invalid_argument&) {
    throw input_error(a.readings.source + ", " + b.readings.source +
                      ": the subsession means do not vary in either file; Welch's test needs "
                      "some variation");
  }
  const std::size_t qb = *b.result.subsession_size;
  const std::string reason =
      "no number of B readings suffices: A's own uncertainty (s_A^2/n_A) already exceeds what "
      "the observed difference allows at this confidence" +
      std::string(st.power > 0 ? " and power" : "") + "; more A readings are needed";

  if (st.o.json) {
    nlohmann::ordered_json j = {
        {"mean_a", *a.result.mean},
        {"mean_b", *b.result.mean},
        {"t", cmp.t},
        {"df", cmp.test.df},
        {"p", cmp.test.p},
        {"diff", *a.result.mean - *b.result.mean},
        {"diff_ci_low", cmp.shown.diff_low},
        {"diff_ci_high", cmp.shown.diff_high},
        {"significant", cmp.significant},
        {"confidence", confidence},
        {"power", st.power},
        {"kind", st.o.kind},
        {"test_scale", opt.kind == quantity_kind::rate ? "reciprocal" : "readings"},
        {"interval", std::string(to_string(*opt.requirements.interval))},
        {"warmup_removal", warmup_removal_name(opt.remove_warmup, opt.keep_excursions)},
        {"a", to_json(a.result)},
        {"b", to_json(b.result)},
    };
    j["a"]["source"] = a.readings.source;
    j["b"]["source"] = b.readings.source;
    j["a"]["header"] = header_json(a.readings);
    j["b"]["header"] = header_json(b.readings);
    if (cmp.b_batches) {
      j["required_b"] = static_cast<std::size_t>(*cmp.b_batches) * qb;
      j["required_b_batches"] = static_cast<std::size_t>(*cmp.b_batches);
    } else {
      j["required_b"] = nullptr;
      j["required_b_batches"] = nullptr;
      j["reason"] = reason;
    }
    std::cout << j.dump(2) << '\n';
    return;
  }

  std::cout << "compare A = " << a.readings.source << " with B = " << b.readings.source << " ("
            << st.o.kind << ", preset " << st.o.preset << ", " << format_level(confidence)
            << " confidence)\n\n";
  report_table tab;
  for (const side* s : {&a, &b}) {
    const analysis& r = s->result;
    std::string v = format_interval(*r.mean, r.ci_low, r.ci_high) + ", " +
                    std::to_string(r.n_used) + " of " + std::to_string(r.n) + " readings in " +
                    std::to_string(*r.subsession_count) + " subsessions of " +
                    std::to_string(*r.subsession_size);
    if (r.warmup.removed_begin || r.warmup.removed_end)
      v += ", " + std::to_string(r.warmup.removed_begin) + " warm-up and " +
           std::to_string(r.warmup.removed_end) + " cool-down removed";
    tab.add(s == &a ? "A" : "B", v);
  }
  const double diff = *a.result.mean - *b.result.mean;
  tab.add("A - B", format_interval(diff, cmp.shown.diff_low, cmp.shown.diff_high, false) +
                       (opt.kind == quantity_kind::rate ? " (delta method)" : ""));
  tab.add("Welch t", format_number(cmp.t, 0.1) + ", df " + format_number(cmp.test.df, 1) +
                         (opt.kind == quantity_kind::rate ? " (on the reciprocals)" : ""));
  tab.add("p", format_p(cmp.test.p) +
                   (cmp.significant ? ": the means differ" : ": no significant difference") +
                   " at the " + format_level(1 - confidence) + " level");
  if (cmp.b_batches)
    tab.add("required B",
            std::to_string(static_cast<std::size_t>(*cmp.b_batches) * qb) + " readings (" +
                std::to_string(static_cast<std::size_t>(*cmp.b_batches)) + " subsessions of " +
                std::to_string(qb) + "; have " + std::to_string(b.result.n_used) + ")" +
                (st.power > 0 ? " to detect this difference with power " + format_level(st.power)
                              : " for this difference to be significant"));
  else
    tab.add("required B", reason);
  tab.write(std::cout);
}

}  // namespace

void add_compare_command(CLI::App& app, context& ctx) {
  auto st = std::make_shared<compare_state>();
  CLI::App* cmd = app.add_subcommand(
      "compare",
      "Welch's test of two files' means, on subsession means, and the B readings needed");
  cmd->add_option("A", st->file_a, "CSV file of the baseline's readings, or -")->required();
  cmd->add_option("B", st->file_b, "CSV file of the candidate's readings, or -")->required();
  add_input_options(cmd, st->o);
  add_precision_options(cmd, st->o);
  add_changepoint_limit_option(cmd, st->o);
  cmd->add_option("--power", st->power,
                  "probability of detecting the observed difference, for required_b (0: just "
                  "significance)")
      ->default_val(0);
  cmd->callback([st, &ctx] {
    if (st->file_a == "-" && st->file_b == "-")
      throw input_error("compare: only one of A and B can be read from standard input");
    if (ctx.parse_only) return (void)to_analysis_options(st->o);
    run_compare(*st);
    ctx.result = exit_ok;
  });
}

}  // namespace mcpilot::cli
