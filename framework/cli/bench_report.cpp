// What a bench session reports: the table on stdout, --export-json, --export-csv (every reading
// with its run and time), --export-markdown, and the rows of a --parameter-scan's sweep table.
#include <sstream>

#include "bench_session.hpp"
#include "bench_words.hpp"
#include "mcpilot/io/analysis_json.hpp"
#include "mcpilot/io/environment.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/stats/wps.hpp"

namespace mcpilot::cli::bench {

void bench_session::write_table(std::ostream& out, const std::vector<pair_result>& pairs) const {
  out << "bench: " << total_runs_ << " runs (preset " << o_.precision_options.preset << ", "
      << format_level(requirements_.confidence) << " confidence, target ±"
      << format_percent(requirements_.ci_perc / 2) << ", seed " << o_.seed << ")\n";
  for (const auto& n : counter_notes_) out << "  counter " << n << '\n';
  for (const auto& c : commands_) {
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
      if (a.subsession_size)
        v += ", " + std::to_string(a.n_used) + " of " + std::to_string(a.n) + " readings";
      if (a.warmup.removed_begin)
        v += ", " + std::to_string(a.warmup.removed_begin) + " warm-up removed";
      if (r.required) v += a.converged ? ", converged" : ", not converged";
      tab.add(r.name, v);
    }
    std::string runs = std::to_string(c.runs);
    if (o_.warmup) runs += " (after " + std::to_string(o_.warmup) + " discarded warm-up runs)";
    if (c.failures) runs += ", " + std::to_string(c.failures) + " failed (kept: --ignore-failure)";
    tab.add("runs", runs);
    if (work_mode_) {
      if (auto f = fit_wps(c.work, c.durations, requirements_.confidence)) {
        tab.add("rate (WPS)", format_interval(f->rate, f->rate_low, f->rate_high) +
                                  " work/s (work-vs-duration regression)");
        tab.add("intercept", format_number(f->alpha, 1e-4) + " s per run (set-up, start-up)");
        tab.add("naive rate", format_number(f->naive_rate) + " work/s (sum w / sum T, biased)");
      } else {
        tab.add("rate (WPS)", "not enough runs for the regression");
      }
    }
    tab.write(out);
  }
  if (!pairs.empty()) {
    out << "\ncomparisons (" << commands_[0].eng->results()[primary].name
        << ", Welch on subsession means)\n";
    report_table tab;
    for (const auto& p : pairs) {
      std::string v = format_interval(p.ratio.ratio, p.ratio.low, p.ratio.high, false) + " x, p " +
                      format_p(p.w.p) + (p.resolved ? ", resolved" : ", not resolved");
      // Under --until separated the looks' levels fall, and the report says which one decided.
      if (o_.until == "separated" && p.looks > 0)
        v += p.resolved
                 ? " at look " + std::to_string(p.looks) + " (p " + format_p(p.look_p) +
                       " <= level " + format_p(p.level) + ")"
                 : " after " + std::to_string(p.looks) + " look" + (p.looks == 1 ? "" : "s") +
                       " (the next at level " + format_p(p.next_level) + ")";
      if (!p.resolved)
        v += p.runs_needed ? ", ~" + std::to_string(*p.runs_needed) + " more runs of " +
                                 commands_[p.b].name + " to separate"
                           : ", more runs of " + commands_[p.a].name + " needed first";
      tab.add(commands_[p.b].name + " / " + commands_[p.a].name, v);
    }
    tab.write(out);
  }
  out << "\nstopped: " << stopped_because_.value() << '\n';
}

nlohmann::ordered_json bench_session::to_json_result(const std::vector<pair_result>& pairs) const {
  nlohmann::ordered_json j;
  j["stopped_because"] = to_string(stopped_because_.value());
  j["runs"] = total_runs_;
  j["warmup_runs"] = o_.warmup;
  j["shell"] = o_.shell;
  j["precision"] = to_json(requirements_);
  j["preset"] = o_.precision_options.preset;
  if (failure_) j["error"] = *failure_;
  nlohmann::ordered_json cmds = nlohmann::ordered_json::array();
  for (const auto& c : commands_) {
    nlohmann::ordered_json jc;
    jc["name"] = c.name;
    jc["command"] = c.line;
    jc["argv"] = c.argv;
    jc["runs"] = c.runs;
    jc["failures"] = c.failures;
    nlohmann::ordered_json qs = nlohmann::ordered_json::array();
    for (const auto& r : c.eng->results()) {
      nlohmann::ordered_json jq = to_json(r.stats);
      jq["name"] = r.name;
      jq["unit"] = r.unit;
      jq["required"] = r.required;
      qs.push_back(jq);
    }
    jc["quantities"] = qs;
    if (work_mode_)
      if (auto f = fit_wps(c.work, c.durations, requirements_.confidence)) jc["wps"] = to_json(*f);
    cmds.push_back(jc);
  }
  j["commands"] = cmds;
  nlohmann::ordered_json jp = nlohmann::ordered_json::array();
  for (const auto& p : pairs)
    jp.push_back({{"a", commands_[p.a].name},
                  {"b", commands_[p.b].name},
                  {"ratio_b_over_a", p.ratio.ratio},
                  {"ratio_ci_low", p.ratio.low},
                  {"ratio_ci_high", p.ratio.high},
                  {"diff", p.w.diff},
                  {"t", p.w.t},
                  {"df", p.w.df},
                  {"p", p.w.p},
                  {"resolved", p.resolved},
                  {"looks", p.looks},
                  {"level", p.level},
                  {"look_p", p.look_p},
                  {"runs_needed", p.runs_needed ? nlohmann::ordered_json(*p.runs_needed)
                                                : nlohmann::ordered_json(nullptr)}});
  j["comparisons"] = jp;
  j["counters_unavailable"] = counter_notes_;
  nlohmann::ordered_json env = environment_json(start_, end_, o_.seed, 1);
  std::vector<std::string> lines;
  for (const auto& c : o_.commands) lines.push_back(c);
  env["commands"] = lines;
  env["prepare"] = o_.prepare;
  env["setup"] = o_.setup;
  env["cleanup"] = o_.cleanup;
  env["input"] = o_.input;
  j["environment"] = env;
  return j;
}

void bench_session::write_csv(std::ostream& out) const {
  out << "run,command,timestamp_s,quantity,value\n";
  out.precision(17);
  for (const auto& r : raw_) {
    std::string name = commands_[r.command].name;
    if (name.find_first_of(",\"\n") != std::string::npos)
      name = "\"" + replace_all(name, "\"", "\"\"") + "\"";
    out << r.run << ',' << name << ',' << r.timestamp << ','
        << commands_[r.command].spec.quantities()[r.quantity].name << ',' << r.value << '\n';
    // The run's work amount, beside its first reading (a work-mode session has one command, so
    // its runs are that command's, in order).
    if (work_mode_ && r.quantity == 0)
      out << r.run << ',' << name << ',' << r.timestamp << ",work_amount,"
          << commands_[r.command].work[r.run] << '\n';
  }
}

void bench_session::write_markdown(std::ostream& out) const {
  out << "| Command | Mean [s] | Interval [s] | Runs | Warm-up removed | Relative |\n"
      << "|:---|---:|---:|---:|---:|---:|\n";
  const std::size_t wall = columns_.size();
  double base = 0;
  for (const auto& c : commands_) {
    const auto& r = c.eng->results();
    if (r.size() > wall && r[wall].stats.mean && (base == 0 || *r[wall].stats.mean < base))
      base = *r[wall].stats.mean;
  }
  for (const auto& c : commands_) {
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

void bench_session::sweep_rows(std::ostream& out, std::size_t point,
                               const std::string& value) const {
  auto num = [](const std::optional<double>& v) {
    if (!v) return std::string();
    std::ostringstream os;
    os.precision(17);
    os << *v;
    return os.str();
  };
  for (const auto& c : commands_)
    for (const auto& r : c.eng->results()) {
      const std::string q = commands_.size() > 1 ? c.name + ":" + r.name : r.name;
      const analysis& a = r.stats;
      out << point << ',' << value << ',' << q << ',' << num(a.mean) << ',' << num(a.ci_low) << ','
          << num(a.ci_high) << ',' << num(a.ci_width_rel) << ',' << a.n << ','
          << (a.converged ? "true" : "false") << ',' << stopped_because_.value() << ",\n";
    }
}

}  // namespace mcpilot::cli::bench
