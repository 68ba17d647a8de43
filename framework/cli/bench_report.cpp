// What a bench session reports: the table on stdout, --export-json, --export-csv (every reading
// with its run and time), --export-markdown, and the rows of a --parameter-scan's sweep table.
#include <string>
#include <string_view>
#include <vector>

#include "bench_run.hpp"
#include "mcpilot/io/analysis_json.hpp"
#include "mcpilot/io/csv_table.hpp"
#include "mcpilot/io/environment.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/number_text.hpp"
#include "mcpilot/programs/bench_words.hpp"
#include "mcpilot/stats/wps.hpp"

namespace mcpilot::cli::bench {

namespace {

std::string duration_words(double seconds) {
  if (seconds < 120) return format_number(seconds, 1) + " s";
  if (seconds < 7200) return format_number(seconds / 60, 1) + " min";
  return format_number(seconds / 3600, 0.1) + " h";
}

// What a verdict that did not come would still cost: the runs the required size asks for beyond
// those made (the warm-up the session removed counted as made again), at the command's own pace.
// A user whose limit ended the session learns whether the precision is a minute away or a day.
std::string still_needed(const analysis& a, const programs::bench_command& c, bool per_line) {
  if (!a.required_samples || c.runs == 0 || c.measured_seconds <= 0) return "";
  const std::size_t need = *a.required_samples + a.warmup.removed_begin + a.warmup.removed_end;
  if (need <= a.n) return "";
  // A reading per run, or per line of --output csv.
  const std::uint64_t more = per_line ? c.runs_for_lines(need - a.n) : need - a.n;
  return " (about " + std::to_string(more) + " more runs at the spread seen, " +
         duration_words(static_cast<double>(more) * c.measured_seconds /
                        static_cast<double>(c.runs)) +
         " of runs)";
}

}  // namespace

void write_table(std::ostream& out, const bench_options& o, const programs::bench_session& s) {
  const precision& req = s.settings().requirements;
  const bool work_mode = s.work_mode();
  out << "bench: " << s.total_runs() << " runs (preset " << o.precision_options.preset << ", "
      << format_level(req.confidence) << " confidence, target ±" << format_percent(req.ci_perc / 2)
      << ", seed " << o.seed << ")\n";
  // Which statistic every interval below is for: a median's interval and a mean's differ in
  // what they promise, and heavy-tailed run times set them far apart.
  out << (req.statistic == summary_statistic::median
              ? "intervals: the median of each command's stable runs (distribution-free, on the "
                "order statistics)\n"
              : "intervals: the mean of each command's stable runs\n");
  for (const auto& n : s.counter_notes()) out << "  counter " << n << '\n';
  for (const auto& c : s.commands()) {
    out << '\n' << c.name << (c.name != c.line ? "  (" + c.line + ")" : "") << '\n';
    report_table tab;
    for (const auto& r : c.eng->results()) {
      const analysis& a = r.stats;
      // The unit goes with a number, never after a status sentence.
      const std::string unit = r.unit.empty() ? "" : " " + r.unit;
      std::string v;
      if (a.mean && a.ci_low)
        v = format_interval(*a.mean, a.ci_low, a.ci_high) + unit;
      else if (a.mean)
        v = format_number(*a.mean) + unit + " (" + a.status + ")";
      else
        v = a.status;
      if (a.subsession_size || a.statistic == summary_statistic::median)
        v += ", " + std::to_string(a.n_used) + " of " + std::to_string(a.n) + " readings";
      if (a.warmup.leading_warmup)
        // Not all of them a warm-up: say which were the start and which an earlier level.
        v += ", " + std::to_string(a.warmup.removed_begin) + " removed before the stable phase (" +
             removed_at_start_text(a) + ")";
      else if (a.warmup.removed_begin)
        v += ", " + std::to_string(a.warmup.removed_begin) + " warm-up removed";
      if (a.warmup.excursions)
        v += ", " + std::to_string(a.warmup.excursions) + " in excursions kept";
      if (a.phase.latest && a.ci_low)
        v += ", of the latest phase only (runs " + std::to_string(a.phase.begin + 1) + "-" +
             std::to_string(a.phase.end) + " of " + std::to_string(a.phase.segments) +
             " segments: no phase holds half of the runs), not a verdict";
      if (r.required)
        v += a.converged ? ", converged"
                         : ", not converged" + still_needed(a, c, r.name != "wall_time");
      tab.add(r.name, v);
    }
    std::string runs = std::to_string(c.runs);
    if (o.warmup) runs += " (after " + std::to_string(o.warmup) + " discarded warm-up runs)";
    if (c.failures) runs += ", " + std::to_string(c.failures) + " failed (kept: --ignore-failure)";
    runs += ", " + format_number(c.measured_seconds, 0.01) + " s of runs";
    tab.add("runs", runs);
    if (work_mode) {
      if (auto f = s.wps(c)) {
        tab.add("rate (WPS)", format_interval(f->rate, f->rate_low, f->rate_high) +
                                  " work/s (work-vs-duration regression on " +
                                  std::to_string(f->subsessions) + " means of " +
                                  std::to_string(f->subsession_size) + " consecutive run" +
                                  (f->subsession_size == 1 ? "" : "s") + ")");
        tab.add("intercept", format_interval(f->alpha, f->alpha - f->alpha_half_width,
                                             f->alpha + f->alpha_half_width) +
                                 " s per run (set-up, start-up)");
        if (f->excluded_rounds > 0)
          tab.add("short runs left out", short_rounds_note(*f, "run", "runs"));
        const auto& w = *s.schedule();
        tab.add("work amounts", std::to_string(w.ramp_runs()) + " run" +
                                    (w.ramp_runs() == 1 ? "" : "s") + " of ramp, then " +
                                    std::to_string(w.ladders_done()) +
                                    " whole ladders (the spacing halved up to three times)");
        tab.add("naive rate", format_number(f->naive_rate) + " work/s (sum w / sum T, biased)");
      } else {
        tab.add("rate (WPS)",
                "not enough runs for the regression (at least 3 groups of consecutive runs whose "
                "residuals' lag-1 autocorrelation is within the limit)");
      }
    }
    tab.write(out);
  }
  const auto& pairs = s.pairs();
  if (!pairs.empty()) {
    out << "\ncomparisons (" << s.commands()[0].eng->results()[primary].name
        << ", paired runs: the ratio of the means over the blocks both kept)\n";
    report_table tab;
    for (const auto& p : pairs) {
      const auto& r = p.cmp.ratio;
      const double ratio = p.cmp.mean_a != 0 ? p.cmp.mean_b / p.cmp.mean_a : 0;
      std::string v =
          p.cmp.ratio_low && p.cmp.ratio_high
              ? format_interval(ratio, p.cmp.ratio_low, p.cmp.ratio_high, false) + " x"
              : format_number(ratio) + " x (" + (r.status.empty() ? "no interval" : r.status) + ")";
      v += ", p " + format_p(p.cmp.p) + ", blocks " + std::to_string(p.cmp.kept_begin + 1) + "-" +
           std::to_string(p.cmp.kept_end) + " of " + std::to_string(p.cmp.blocks) + ", " +
           pair_words(s, p, true);
      tab.add(s.commands()[p.b].name + " / " + s.commands()[p.a].name, v);
    }
    tab.write(out);
  }
  out << "\nstopped: " << s.stopped_because().value() << '\n';
  if (!s.floor_met())
    out << "(no verdict before --min-seconds " << format_number(s.settings().min_seconds)
        << " s of each command's runs)\n";
}

std::string pair_words(const programs::bench_session& s, const programs::pair_result& p,
                       bool with_next_level) {
  std::string v = p.resolved ? "resolved" : "not resolved";
  // Under --until separated the looks' levels fall, and the words say which one decided.
  if (s.settings().until_separated && p.looks > 0) {
    if (p.resolved)
      v += " at look " + std::to_string(p.looks) + " (p " + format_p(p.look_p) + " <= level " +
           format_p(p.level) + ")";
    else if (with_next_level)
      v += " after " + std::to_string(p.looks) + " look" + (p.looks == 1 ? "" : "s") +
           " (the next at level " + format_p(p.next_level) + ")";
    else
      v += " after " + std::to_string(p.looks) + (p.looks == 1 ? " look" : " looks");
  }
  if (!p.resolved)
    v += p.runs_needed ? ", ~" + std::to_string(*p.runs_needed) + " more runs of each to separate"
                       : ", no estimate of the runs that would separate them";
  return v;
}

nlohmann::ordered_json to_json_result(const bench_options& o, const programs::bench_session& s) {
  nlohmann::ordered_json j;
  j["stopped_because"] = to_string(s.stopped_because().value());
  j["runs"] = s.total_runs();
  j["warmup_runs"] = o.warmup;
  j["shell"] = o.shell;
  j["precision"] = to_json(s.settings().requirements);
  j["preset"] = o.precision_options.preset;
  j["min_seconds"] = s.settings().min_seconds;
  j["warmup_removal"] =
      warmup_removal_name(s.settings().remove_warmup, s.settings().keep_excursions);
  if (s.failure()) j["error"] = *s.failure();
  nlohmann::ordered_json cmds = nlohmann::ordered_json::array();
  for (const auto& c : s.commands()) {
    nlohmann::ordered_json jc;
    jc["name"] = c.name;
    jc["command"] = c.line;
    jc["argv"] = c.argv;
    jc["runs"] = c.runs;
    jc["failures"] = c.failures;
    jc["measured_seconds"] = c.measured_seconds;
    nlohmann::ordered_json qs = nlohmann::ordered_json::array();
    for (const auto& r : c.eng->results()) {
      nlohmann::ordered_json jq = to_json(r.stats);
      jq["name"] = r.name;
      jq["unit"] = r.unit;
      jq["required"] = r.required;
      qs.push_back(jq);
    }
    jc["quantities"] = qs;
    if (s.work_mode()) {
      if (auto f = s.wps(c)) jc["wps"] = to_json(*f);
      const auto& w = *s.schedule();
      jc["work_schedule"] = {{"ramp_runs", w.ramp_runs()}, {"ladders_done", w.ladders_done()}};
    }
    cmds.push_back(jc);
  }
  j["commands"] = cmds;
  auto opt = [](const std::optional<double>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json jp = nlohmann::ordered_json::array();
  for (const auto& p : s.pairs()) {
    const auto& d = p.cmp.difference;
    jp.push_back(
        {{"a", s.commands()[p.a].name},
         {"b", s.commands()[p.b].name},
         {"method", "paired"},
         {"blocks", p.cmp.blocks},
         {"kept_from", p.cmp.kept_begin},
         {"kept_to", p.cmp.kept_end},
         {"mean_a", p.cmp.mean_a},
         {"mean_b", p.cmp.mean_b},
         {"ratio_b_over_a", p.cmp.mean_a != 0 ? nlohmann::ordered_json(p.cmp.mean_b / p.cmp.mean_a)
                                              : nlohmann::ordered_json(nullptr)},
         {"ratio_ci_low", opt(p.cmp.ratio_low)},
         {"ratio_ci_high", opt(p.cmp.ratio_high)},
         {"difference_b_minus_a", opt(d.mean)},
         {"difference_ci_low", opt(p.cmp.difference_low)},
         {"difference_ci_high", opt(p.cmp.difference_high)},
         {"difference", to_json(d)},
         {"t", p.cmp.t},
         {"df", p.cmp.df},
         {"p", p.cmp.p},
         {"resolved", p.resolved},
         {"looks", p.looks},
         {"level", p.level},
         {"look_p", p.look_p},
         {"runs_needed", p.runs_needed ? nlohmann::ordered_json(*p.runs_needed)
                                       : nlohmann::ordered_json(nullptr)}});
  }
  j["comparisons"] = jp;
  j["counters_unavailable"] = s.counter_notes();
  nlohmann::ordered_json env = environment_json(s.start(), s.end(), o.seed, 1);
  env["commands"] = s.settings().commands;
  env["prepare"] = o.prepare;
  env["setup"] = o.setup;
  env["cleanup"] = o.cleanup;
  env["input"] = o.input;
  j["environment"] = env;
  return j;
}

void write_csv(std::ostream& out, const programs::bench_session& s) {
  const auto& commands = s.commands();
  std::vector<std::string> names;
  for (const auto& c : commands) names.push_back(csv_field(c.name));
  out << "run,command,timestamp_s,quantity,value\n";
  // Numbers as their shortest exact text (std::to_chars), lines built in one string: iostream's
  // 17 digits took about 20 ms for a session of 2,000 runs, most of bench's own time beyond the
  // runs (docs/bench.md, "Against hyperfine").
  std::string line;
  auto row = [&](const programs::raw_reading& r, std::string_view quantity, double value) {
    line.clear();
    line += std::to_string(r.run);
    line += ',';
    line += names[r.command];
    line += ',';
    line += number_text(r.timestamp);
    line += ',';
    line += quantity;
    line += ',';
    line += number_text(value);
    line += '\n';
    out.write(line.data(), static_cast<std::streamsize>(line.size()));
  };
  for (const auto& r : s.raw()) {
    row(r, commands[r.command].spec.quantities()[r.quantity].name, r.value);
    // The run's work amount, beside its first reading (a work-mode session has one command, so
    // its runs are that command's, in order).
    if (s.work_mode() && r.quantity == 0) row(r, "work_amount", commands[r.command].work[r.run]);
  }
}

void write_markdown(std::ostream& out, const programs::bench_session& s) {
  // "Removed at start", not "warm-up": before a stable phase that follows an earlier level of the
  // machine, the count holds that level too (the table above splits it).
  out << "| Command | Mean [s] | Interval [s] | Runs | Removed at start | Relative |\n"
      << "|:---|---:|---:|---:|---:|---:|\n";
  const std::size_t wall = s.settings().columns.size();
  double base = 0;
  for (const auto& c : s.commands()) {
    const auto& r = c.eng->results();
    if (r.size() > wall && r[wall].stats.mean && (base == 0 || *r[wall].stats.mean < base))
      base = *r[wall].stats.mean;
  }
  for (const auto& c : s.commands()) {
    const auto& r = c.eng->results();
    if (r.size() <= wall) continue;
    const analysis& a = r[wall].stats;
    out << "| `" << c.line << "` | " << (a.mean ? format_number(*a.mean) : "-") << " | "
        << (a.ci_low && a.ci_high
                ? "[" + format_number(*a.ci_low) + ", " + format_number(*a.ci_high) + "]"
                : "-")
        << " | " << c.runs << " | " << a.warmup.removed_begin << " | "
        << (a.mean && base > 0 ? format_number(*a.mean / base, 0.01) : "-") << " |\n";
  }
}

void sweep_rows(std::ostream& out, const programs::bench_session& s, std::size_t point,
                const std::string& value) {
  auto num = [](const std::optional<double>& v) { return v ? number_text(*v) : std::string(); };
  const auto& commands = s.commands();
  for (const auto& c : commands)
    for (const auto& r : c.eng->results()) {
      const std::string q = commands.size() > 1 ? c.name + ":" + r.name : r.name;
      const analysis& a = r.stats;
      out << point << ',' << csv_field(value) << ',' << csv_field(q) << ',' << num(a.mean) << ','
          << num(a.ci_low) << ',' << num(a.ci_high) << ',' << num(a.ci_width_rel) << ',' << a.n
          << ',' << (a.converged ? "true" : "false") << ',' << s.stopped_because().value() << ",\n";
    }
}

}  // namespace mcpilot::cli::bench
