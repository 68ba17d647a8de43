// `mcpilot bench [options] -- COMMAND [ARGS...]`: runs a real program, one fresh process per
// run, until every quantity's interval meets the precision (docs/bench.md). Each command's runs
// are a time-ordered stream fed to the engine, which removes warm-up by change-points, sizes the
// subsessions from the autocorrelation and says how many more runs are needed. Several commands
// are run interleaved in a seeded random order, so that drift hits them alike, and compared
// pairwise with Welch's test on their subsession means, as `compare` does.
//
// Exit codes (docs/cli.md): 0 converged (or, with --until separated, every pair resolved);
// 3 a limit (--max-runs, --max-seconds) stopped it before the goal was met; 130 interrupted,
// results so far written; 2 a usage error, a command that cannot be executed, a run that failed
// (unless --ignore-failure) or a line of --output csv that does not parse.

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "analysis_options.hpp"
#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/engine.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/analysis_json.hpp"
#include "mcpilot/io/atomic_file.hpp"
#include "mcpilot/io/environment.hpp"
#include "mcpilot/io/progress.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/measure/child.hpp"
#include "mcpilot/rng.hpp"
#include "mcpilot/runner.hpp"
#include "mcpilot/stats/repeated_looks.hpp"
#include "mcpilot/stats/stable_moments.hpp"
#include "mcpilot/stats/welch.hpp"
#include "mcpilot/stats/wps.hpp"
#include "run_support.hpp"

namespace mcpilot::cli {

namespace {

const std::string work_token = "%WORK_AMOUNT%";

// The quantity that progress lines show and pairs are compared on: the first column of
// --output csv, or else the wall time (each command's quantities are declared in that order).
constexpr std::size_t primary = 0;

struct bench_options {
  std::vector<std::string> names;     // -n NAME, one per command in order
  std::vector<std::string> commands;  // positional
  std::string shell = "none";
  std::size_t warmup = 0;
  std::string prepare, setup, cleanup;
  std::string input;
  bool show_output = false;
  bool ignore_failure = false;
  std::string output = "time";  // "time" or "csv[:COLUMNS]"
  std::string until = "precise";
  std::uint64_t max_runs = 100000;
  double max_seconds = 600;
  std::uint64_t seed = 1;
  std::string counters;
  std::optional<double> work_initial, work_max;
  std::size_t work_levels = 5;
  std::string export_json, export_csv, export_markdown;
  std::vector<std::string> scan;  // --parameter-scan NAME LOW HIGH
  std::optional<double> scan_step, scan_factor;
  std::string export_sweep;
  bool quiet = false, progress = false;
  shared_options precision_options;
};

// One command under test and everything measured of it.
struct bench_command {
  std::string name;
  std::string line;
  std::vector<std::string> argv;
  model_spec spec;
  std::unique_ptr<engine> eng;
  decision last;
  std::uint64_t runs = 0;
  std::uint64_t failures = 0;
  std::uint64_t lines = 0;              // --output csv: lines read so far
  std::vector<double> work, durations;  // %WORK_AMOUNT%: one pair per run
};

struct raw_reading {
  std::uint64_t run;
  std::size_t command;
  double timestamp;  // seconds since the session started
  std::size_t quantity;
  double value;
};

struct pair_result {
  std::size_t a = 0, b = 0;
  sample_moments ma, mb;                     // of the subsession means
  welch_result w;                            // at the session's confidence, for the report
  ratio_interval ratio;                      // mean_b / mean_a
  std::optional<std::uint64_t> runs_needed;  // of B to separate them at the next look's level
  // The verdict (bench_session::judge): resolved at a look of this level, where Welch's p was
  // look_p; or, not resolved, the latest look's level and p.
  bool resolved = false;
  std::uint64_t looks = 0;
  double level = 0, look_p = 1;
  double next_level = 0;  // where the next look would test it
};

// What --until separated has found about one pair so far. The looks are tested at falling
// levels (stats/repeated_looks.hpp), so that the chance of resolving two equal commands at any
// of them stays within 1 - confidence; the first look that separates them settles the pair.
struct pair_verdict {
  look_schedule schedule;
  bool resolved = false;
  double level = 0, look_p = 1;
};

std::vector<std::string> csv_columns(const std::string& output) {
  if (output == "csv") return {"reading"};
  if (output.rfind("csv:", 0) != 0) return {};
  std::vector<std::string> names;
  std::stringstream ss(output.substr(4));
  for (std::string n; std::getline(ss, n, ',');) {
    if (n.empty()) throw input_error("--output " + output + ": empty column name");
    names.push_back(n);
  }
  if (names.empty()) throw input_error("--output " + output + ": no column names after csv:");
  return names;
}

// Each non-empty line: one number per column. A header line equal to the names is skipped.
std::vector<std::vector<double>> parse_output(const std::string& text,
                                              const std::vector<std::string>& columns,
                                              const std::string& command) {
  std::vector<std::vector<double>> rows;
  std::stringstream in(text);
  std::size_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    std::vector<std::string> fields;
    std::stringstream ls(line);
    for (std::string f; std::getline(ls, f, ',');) fields.push_back(f);
    if (fields == columns) continue;
    std::vector<double> row;
    bool ok = fields.size() == columns.size();
    for (std::size_t i = 0; ok && i < fields.size(); ++i) {
      const std::string& f = fields[i];
      char* end = nullptr;
      const double v = std::strtod(f.c_str(), &end);
      ok = end != f.c_str() && std::string(end).find_first_not_of(" \t") == std::string::npos &&
           std::isfinite(v);
      row.push_back(v);
    }
    if (!ok)
      throw input_error("--output csv: " + command + ": stdout line " + std::to_string(line_no) +
                        " does not give " + std::to_string(columns.size()) +
                        " number(s) for column(s) " +
                        [&] {
                          std::string s;
                          for (const auto& c : columns) s += (s.empty() ? "" : ",") + c;
                          return s;
                        }() +
                        ": \"" + line + "\"");
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

std::string format_work(double w) {
  std::ostringstream os;
  os << static_cast<long long>(std::llround(w));
  return os.str();
}

std::string quote_word(const std::string& w) {
  if (!w.empty() && w.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;~#") == std::string::npos) return w;
  return "'" + replace_all(w, "'", "'\\''") + "'";
}

// The positional words as command lines. Words with spaces are whole command lines each, as in
// hyperfine (`bench 'sort a' 'sort b'`); words without are one command and its arguments
// (`bench -- sleep 0.1`), unless one -n name is given per word.
std::vector<std::string> group_commands(const std::vector<std::string>& words, std::size_t names) {
  const bool lines = std::any_of(words.begin(), words.end(), [](const std::string& w) {
    return w.find_first_of(" \t") != std::string::npos;
  });
  if (lines || (names > 1 && names == words.size()) || words.size() == 1) return words;
  std::string joined;
  for (const auto& w : words) joined += (joined.empty() ? "" : " ") + quote_word(w);
  return {joined};
}

// Thrown out of a run that the interrupt cut short; the run is not recorded.
struct interrupted_run {};

class bench_session {
 public:
  bench_session(bench_options o, std::string program) : o_(std::move(o)), program_(program) {}
  int run();
  // After run(): one row per command and quantity for a sweep table.
  void sweep_rows(std::ostream& out, std::size_t point, const std::string& value) const;

 private:
  void set_up();
  child_result run_once(const std::string& line, bool measured, const std::string& what);
  void run_measured(std::size_t c, double work);
  std::vector<pair_result> comparisons() const;
  // How judge() may look at the pairs under --until separated: at a round's end, when a look is
  // due; when the session closes, whenever runs came in since the last look; or not at all.
  enum class look_at { due, closing, none };
  void judge(std::vector<pair_result>& pairs, look_at when);
  bool goal_met(const std::vector<pair_result>& pairs) const;
  void write_table(std::ostream& out, const std::vector<pair_result>& pairs) const;
  nlohmann::ordered_json to_json_result(const std::vector<pair_result>& pairs) const;
  void write_markdown(std::ostream& out) const;
  void write_csv(std::ostream& out) const;
  std::string progress_text(const std::vector<pair_result>& pairs) const;
  // Each pair's share of 1 - confidence. --until separated claims that every pair differs, and
  // stops on that claim, so its pairs share the error rate (Bonferroni): the chance that any of
  // them is resolved falsely, at any look, stays within 1 - confidence. --until precise reports
  // each comparison on its own, at 1 - confidence, as `mcpilot compare` does.
  double pair_alpha() const {
    const double alpha = 1 - requirements_.confidence;
    const std::size_t nc = commands_.size();
    return o_.until == "separated" && nc > 2 ? alpha / static_cast<double>(nc * (nc - 1) / 2)
                                             : alpha;
  }
  // Pair (a, b)'s place among all pairs in order.
  std::size_t pair_index(const pair_result& p) const {
    const std::size_t nc = commands_.size();
    return p.a * nc - p.a * (p.a + 1) / 2 + (p.b - p.a - 1);
  }

  bench_options o_;
  std::string program_;
  precision requirements_;
  std::vector<std::string> columns_;  // --output csv
  std::vector<std::string> counters_;
  bool work_mode_ = false;
  std::vector<bench_command> commands_;
  std::vector<raw_reading> raw_;
  std::uint64_t total_runs_ = 0;
  std::string stopped_because_;
  std::optional<std::string> failure_;
  std::chrono::system_clock::time_point start_, end_;
  std::chrono::steady_clock::time_point t0_;
  std::vector<std::string> counter_notes_;
  std::vector<pair_verdict> verdicts_;  // one per pair (a, b), a < b, in order
};

void bench_session::set_up() {
  requirements_ = requirements(o_.precision_options);
  if (o_.shell != "none" && o_.shell != "sh")
    throw input_error("--shell: expected none or sh, got '" + o_.shell + "'");
  if (o_.until != "precise" && o_.until != "separated")
    throw input_error("--until: expected precise or separated, got '" + o_.until + "'");
  if (o_.output != "time") {
    columns_ = csv_columns(o_.output);
    if (columns_.empty())
      throw input_error("--output: expected time, csv or csv:COLUMN,..., got '" + o_.output + "'");
  }
  if (o_.commands.empty()) throw input_error("bench: no command given (mcpilot bench -- CMD ...)");
  o_.commands = group_commands(o_.commands, o_.names.size());
  if (!o_.names.empty() && o_.names.size() != o_.commands.size())
    throw input_error("-n/--name: " + std::to_string(o_.names.size()) + " name(s) for " +
                      std::to_string(o_.commands.size()) + " command(s); give one per command");
  if (o_.max_runs < 3) throw input_error("--max-runs must be at least 3");
  if (!(o_.max_seconds > 0)) throw input_error("--max-seconds must be positive");
  if (!o_.counters.empty()) {
    std::stringstream ss(o_.counters);
    for (std::string n; std::getline(ss, n, ',');) counters_.push_back(n);
    check_counter_names(counters_, "--counters");
  }
  for (const auto& line : o_.commands)
    if (line.find(work_token) != std::string::npos) work_mode_ = true;
  if (work_mode_) {
    if (!o_.work_initial || !o_.work_max)
      throw input_error(work_token + " in the command needs --work-initial and --work-max");
    if (!(*o_.work_initial > 0) || !(*o_.work_max > *o_.work_initial))
      throw input_error("--work-initial must be positive and below --work-max");
    if (o_.commands.size() != 1)
      throw input_error(work_token + ": one command at a time (compare the rates of two runs)");
    if (!columns_.empty()) throw input_error(work_token + " times whole runs; drop --output csv");
    if (o_.work_levels < 3) throw input_error("--work-levels must be at least 3");
  }
  check_distinct_outputs({{"--export-json", o_.export_json},
                          {"--export-csv", o_.export_csv},
                          {"--export-markdown", o_.export_markdown}});
  if (!o_.export_json.empty()) check_writable(o_.export_json, "--export-json");
  if (!o_.export_csv.empty()) check_writable(o_.export_csv, "--export-csv");
  if (!o_.export_markdown.empty()) check_writable(o_.export_markdown, "--export-markdown");

  // Probe the counters once, so that unavailable ones are said at the start and not carried as
  // quantities with no readings.
  std::vector<std::string> available;
  if (!counters_.empty()) {
    auto probe = open_perf_counters(counters_, {0, false, false});
    for (const auto& s : probe->status()) {
      if (s.available)
        available.push_back(s.name);
      else
        counter_notes_.push_back(s.name + ": unavailable (" + s.reason + ")");
    }
    counters_ = available;
  }

  for (std::size_t i = 0; i < o_.commands.size(); ++i) {
    bench_command c;
    c.line = o_.commands[i];
    c.name = o_.names.empty() ? c.line : o_.names[i];
    const std::string probe_line = replace_all(c.line, work_token, "1");
    c.argv = command_argv(probe_line, o_.shell);
    c.spec.stream_style();
    for (const auto& col : columns_) c.spec.quantity(col);
    auto& wall = c.spec.quantity("wall_time").with_unit("s").describe("wall time of one run");
    if (!columns_.empty() || work_mode_) wall.optional();
    c.spec.quantity("user_time").with_unit("s").describe("user CPU time").optional();
    c.spec.quantity("system_time").with_unit("s").describe("system CPU time").optional();
    c.spec.quantity("peak_rss").with_unit("KiB").describe("peak resident set size").optional();
    for (const auto& k : counters_)
      c.spec.quantity(k).with_unit(std::string(find_counter(k)->unit)).optional();
    engine_options eo;
    eo.session_precision = requirements_;
    eo.streams = 1;
    // Runs are expensive: start from what the minimum sample size needs, without the engine's
    // floor of 100 meant for cheap replications.
    eo.first_round = std::max<std::size_t>(10, 2 * requirements_.min_samples);
    eo.budget = o_.max_runs;
    eo.remove_warmup = !o_.precision_options.no_warmup_removal;
    c.eng = std::make_unique<engine>(c.spec, eo);
    commands_.push_back(std::move(c));
  }
}

child_result bench_session::run_once(const std::string& line, bool measured,
                                     const std::string& what) {
  child_options co;
  co.input_file = o_.input;
  co.show_output = o_.show_output;
  co.capture_stdout = measured && !columns_.empty();
  if (measured) co.counters = counters_;
  child_result r = run_child(command_argv(line, o_.shell), co);
  // Ctrl-C reaches the whole foreground process group, the child too: a run cut short by it is
  // not a measurement, nor a failure of the program.
  if (interrupted.load()) throw interrupted_run{};
  if (!r.started) throw input_error(what + ": cannot execute '" + line + "': " + r.start_error);
  if (r.exit_code != 0 && !(measured && o_.ignore_failure)) {
    std::string m = what + (what == line ? "" : ": '" + line + "'") + " failed with exit code " +
                    std::to_string(r.exit_code);
    if (r.signal) m += " (signal " + std::to_string(r.signal) + ")";
    if (!r.stderr_tail.empty()) m += "; the end of its stderr:\n" + r.stderr_tail;
    if (measured) m += "\n(--ignore-failure keeps measuring runs that fail)";
    throw input_error(m);
  }
  return r;
}

void bench_session::run_measured(std::size_t ci, double work) {
  bench_command& c = commands_[ci];
  std::string line = c.line;
  if (work_mode_) line = replace_all(line, work_token, format_work(work));
  if (!o_.prepare.empty()) run_once(o_.prepare, false, "--prepare");
  const child_result r = run_once(line, true, c.name);
  const double ts = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  const std::uint64_t run = total_runs_++;
  ++c.runs;
  if (r.exit_code != 0) ++c.failures;
  auto add = [&](std::size_t q, double v) {
    c.eng->add_stream_readings(0, q, std::span<const double>(&v, 1));
    raw_.push_back({run, ci, ts, q, v});
  };
  std::size_t q = 0;
  if (!columns_.empty()) {
    const auto rows = parse_output(r.output, columns_, c.name);
    for (const auto& row : rows)
      for (std::size_t k = 0; k < columns_.size(); ++k) add(k, row[k]);
    c.lines += rows.size();
    q = columns_.size();
  }
  add(q++, r.wall_seconds);
  add(q++, r.user_seconds);
  add(q++, r.system_seconds);
  add(q++, r.max_rss_kib);
  if (r.counts.counted)
    for (std::size_t k = 0; k < counters_.size() && k < r.counts.values.size(); ++k)
      add(q + k, r.counts.values[k]);
  if (work_mode_) {
    c.work.push_back(work);
    c.durations.push_back(r.wall_seconds);
  }
}

std::vector<pair_result> bench_session::comparisons() const {
  std::vector<pair_result> out;
  const double conf = requirements_.confidence;
  // The primary quantity's subsession means over its stable phase, with the variance its
  // interval carries, as `compare` tests them.
  auto stable = [&](const bench_command& c) -> std::optional<sample_moments> {
    const auto& res = c.eng->results();
    if (res.size() <= primary) return std::nullopt;
    return stable_moments(c.eng->stream_readings(0, primary), res[primary].stats);
  };
  for (std::size_t i = 0; i < commands_.size(); ++i)
    for (std::size_t j = i + 1; j < commands_.size(); ++j) {
      const auto sa = stable(commands_[i]), sb = stable(commands_[j]);
      if (!sa || !sb) continue;
      const sample_moments ma = *sa, mb = *sb;
      pair_result p;
      p.a = i;
      p.b = j;
      p.ma = ma;
      p.mb = mb;
      try {
        p.w = welch_test(ma, mb, conf);
      } catch (const std::invalid_argument&) {
        continue;
      }
      p.ratio = welch_ratio(ma, mb, p.w);
      out.push_back(p);
    }
  return out;
}

// --until precise judges each pair once, at the end, at 1 - confidence: the runs were chosen by
// each command's own precision, not by the difference. --until separated looks at a pair after
// every round that at least doubled its runs (the rounds are sized so that each one does), and
// a look that resolves it settles it.
void bench_session::judge(std::vector<pair_result>& pairs, look_at when) {
  const double alpha = pair_alpha();
  const std::size_t nc = commands_.size();
  verdicts_.resize(nc * (nc - 1) / 2);  // once: the commands are fixed
  for (auto& p : pairs) {
    p.next_level = alpha;
    if (o_.until == "separated") {
      pair_verdict& v = verdicts_[pair_index(p)];
      const std::uint64_t n = std::min(commands_[p.a].runs, commands_[p.b].runs);
      const bool look = !v.resolved && (when == look_at::due       ? v.schedule.due(n)
                                        : when == look_at::closing ? n > v.schedule.last_n()
                                                                   : false);
      if (look) {
        v.level = v.schedule.take(n, alpha);
        v.look_p = p.w.p;  // Welch's p does not depend on the level
        v.resolved = separated(p.ma, p.mb, v.level);
      }
      p.resolved = v.resolved;
      p.looks = v.schedule.looks();
      p.level = v.level;
      p.look_p = v.look_p;
      p.next_level = v.schedule.next_level(alpha);
    } else {
      p.resolved = separated(p.ma, p.mb, alpha);
      p.looks = 1;
      p.level = alpha;
      p.look_p = p.w.p;
    }
    p.runs_needed.reset();
    if (auto nb = required_b(p.ma, p.mb, 1 - p.next_level)) {
      const double q =
          static_cast<double>(*commands_[p.b].eng->results()[primary].stats.subsession_size);
      const double have = static_cast<double>(commands_[p.b].eng->results()[primary].stats.n_used);
      p.runs_needed = static_cast<std::uint64_t>(std::max(0.0, std::ceil(*nb * q - have)));
    }
  }
}

std::string bench_session::progress_text(const std::vector<pair_result>& pairs) const {
  std::ostringstream os;
  const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  os << total_runs_ << " runs, " << format_number(el, 0.1) << " s";
  for (const auto& c : commands_) {
    const auto& res = c.eng->results();
    os << " | " << c.name << ": ";
    constexpr std::size_t q = primary;
    if (res.size() <= q || !res[q].stats.mean) {
      os << "no interval yet";
      continue;
    }
    const analysis& a = res[q].stats;
    os << format_number(*a.mean) << (res[q].unit.empty() ? "" : " " + res[q].unit);
    if (a.ci_width_rel)
      os << " ±" << format_percent(*a.ci_width_rel / 2) << " (target ±"
         << format_percent(requirements_.ci_perc / 2) << ")";
    if (!c.last.stop) os << ", ~" << c.last.count << " more runs";
  }
  // The pairs, when they decide the stop: the ratio and where the looks stand.
  if (o_.until == "separated")
    for (const auto& p : pairs) {
      os << " | " << commands_[p.b].name << '/' << commands_[p.a].name << ' '
         << format_number(p.ratio.ratio) << ", ";
      if (p.resolved)
        os << "resolved at look " << p.looks;
      else
        os << p.looks << " look" << (p.looks == 1 ? "" : "s") << ", next at level "
           << format_p(p.next_level);
    }
  return os.str();
}

// The goal of --until: in work mode the regression's rate within the precision (ladders of every
// amount twice at least); with --until separated every pair of commands resolved; otherwise every
// command's intervals within the precision. Reads each command's last evaluation.
bool bench_session::goal_met(const std::vector<pair_result>& pairs) const {
  if (work_mode_) {
    const auto fit = fit_wps(commands_[0].work, commands_[0].durations, requirements_.confidence);
    return fit && fit->rate_low && fit->rate_high && commands_[0].runs >= 2 * o_.work_levels &&
           (*fit->rate_high - *fit->rate_low) / fit->rate <= requirements_.ci_perc;
  }
  if (o_.until == "separated" && commands_.size() > 1) {
    bool all = pairs.size() == commands_.size() * (commands_.size() - 1) / 2;
    for (const auto& p : pairs) all = all && p.resolved;
    return all;
  }
  return std::all_of(commands_.begin(), commands_.end(), [](const bench_command& c) {
    return c.last.stop && c.last.reason == "converged";
  });
}

int bench_session::run() {
  set_up();
  start_ = std::chrono::system_clock::now();
  t0_ = std::chrono::steady_clock::now();
  const bool show_progress = !o_.quiet && (o_.progress || stderr_is_terminal());
  philox_stream order_rng(o_.seed, 0);
  // Each ladder's work amounts in a fresh seeded order: climbed in increasing order, ladder after
  // ladder, a load that rises during a ladder would rise with w and bias the fitted slope.
  philox_stream ladder_rng(o_.seed, 1);
  std::vector<std::size_t> ladder(o_.work_levels);
  auto seq = make_sequential_runner();
  std::atomic<bool> cancel{false};
  {
    stop_signal_scope scope;
    try {
      if (!o_.setup.empty()) run_once(o_.setup, false, "--setup");
      for (std::size_t c = 0; c < commands_.size(); ++c)
        for (std::size_t k = 0; k < o_.warmup; ++k) {
          if (!o_.prepare.empty()) run_once(o_.prepare, false, "--prepare");
          std::string line =
              replace_all(commands_[c].line, work_token, format_work(o_.work_initial.value_or(1)));
          run_once(line, false, commands_[c].name + " (warm-up)");
        }
      std::size_t work_step = 0;
      while (true) {
        // Evaluate every command; decide.
        for (auto& c : commands_) {
          c.last = c.eng->evaluate();
          if (c.last.stop && c.last.reason == "unreachable" && o_.until == "precise") {
            stopped_because_ = "unreachable";
          }
        }
        std::vector<pair_result> pairs;
        if (commands_.size() > 1) {
          pairs = comparisons();
          judge(pairs, look_at::due);
        }
        if (show_progress && total_runs_ > 0) std::cerr << progress_text(pairs) << '\n';
        if (!stopped_because_.empty()) break;
        if (goal_met(pairs)) {
          stopped_because_ = "converged";
          break;
        }
        if (total_runs_ >= o_.max_runs) {
          stopped_because_ = "max_runs";
          break;
        }
        // The round: each command's share, shuffled.
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < commands_.size(); ++i) {
          bench_command& c = commands_[i];
          std::uint64_t n = c.last.stop ? 0 : c.last.count;
          if (!columns_.empty() && c.runs > 0 && c.lines > 0)
            n = (n * c.runs + c.lines - 1) / c.lines;  // readings -> runs
          if (work_mode_) {
            // The regression decides, not the engine: whole ladders, growing by about a tenth.
            const std::uint64_t levels = o_.work_levels;
            const std::uint64_t ladders = std::max<std::uint64_t>(1, c.runs / (10 * levels));
            n = (c.runs == 0 ? 2 : ladders) * levels;
          }
          if (o_.until == "separated") {
            // An unresolved pair's commands get what the next look's level seems to need, up
            // to 4 times their runs so far, and at least what makes that look due (their runs
            // doubled since the last one): rounds that fell short of it would run without
            // being judged.
            std::uint64_t extra = std::max<std::uint64_t>(c.runs / 10, 1);
            for (const auto& p : pairs)
              if (!p.resolved && (p.a == i || p.b == i)) {
                const std::uint64_t last = verdicts_[pair_index(p)].schedule.last_n();
                const std::uint64_t due = 2 * last > c.runs ? 2 * last - c.runs : 0;
                extra =
                    std::max({extra, due, std::min(p.runs_needed.value_or(c.runs), 4 * c.runs)});
              }
            if (c.runs == 0) extra = c.last.count;
            n = std::max(n, extra);
          }
          order.insert(order.end(), n, i);
        }
        if (order.empty()) order.assign(commands_.size(), 0);
        std::shuffle(order.begin(), order.end(), order_rng);
        const std::uint64_t room = o_.max_runs - total_runs_;
        if (order.size() > room) order.resize(room);
        const auto deadline = t0_ + std::chrono::duration<double>(o_.max_seconds);
        std::optional<input_error> failed;
        const std::size_t levels = o_.work_levels;
        seq->run(
            0, order.size(),
            [&](std::uint64_t k) {
              double work = 0;
              if (work_mode_) {
                // A ladder from --work-initial to --work-max, run again and again in a new order
                // each time, so that the regression sees every amount many times.
                if (work_step % levels == 0) {
                  std::iota(ladder.begin(), ladder.end(), std::size_t{0});
                  std::shuffle(ladder.begin(), ladder.end(), ladder_rng);
                }
                const double f = static_cast<double>(ladder[work_step++ % levels]) / (levels - 1);
                work = *o_.work_initial + f * (*o_.work_max - *o_.work_initial);
              }
              try {
                run_measured(order[k], work);
              } catch (const input_error& e) {
                failed.emplace(e);
                cancel.store(true);
              } catch (const interrupted_run&) {
                cancel.store(true);
              }
              if (interrupted.load() || std::chrono::steady_clock::now() >= deadline)
                cancel.store(true);
            },
            &cancel);
        if (failed) {
          failure_ = failed->what();
          stopped_because_ = "error";
          break;
        }
        if (interrupted.load()) {
          stopped_because_ = "interrupted";
          break;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
          stopped_because_ = "max_seconds";
          break;
        }
      }
    } catch (const input_error& e) {
      failure_ = e.what();
      stopped_because_ = "error";
    } catch (const interrupted_run&) {
      stopped_because_ = "interrupted";
    }
    for (auto& c : commands_) c.last = c.eng->evaluate();
    // A limit that ends a round midway may have let in the readings that meet the goal: rounds
    // grow with the runs a pair still seems to need (up to 4 times the runs so far), and a round
    // is not evaluated until it ends. Judged on every reading the report shows, at a moment the
    // readings did not choose, that is the goal met. Under --until separated that judgement is
    // one more look, at the next look's (lower) level.
    if (stopped_because_ == "max_seconds" || stopped_because_ == "max_runs") {
      auto pairs = commands_.size() > 1 ? comparisons() : std::vector<pair_result>{};
      judge(pairs, look_at::closing);  // one more look, at its own level
      if (goal_met(pairs)) stopped_because_ = "converged";
    }
    if (!o_.cleanup.empty()) {
      try {
        interrupted.store(false);  // the cleanup runs after an interrupt too
        run_once(o_.cleanup, false, "--cleanup");
      } catch (const input_error& e) {
        std::cerr << program_ << ": warning: " << e.what() << '\n';
      } catch (const interrupted_run&) {
        stopped_because_ = "interrupted";
      }
    }
  }
  end_ = std::chrono::system_clock::now();

  auto pairs = commands_.size() > 1 ? comparisons() : std::vector<pair_result>{};
  judge(pairs, look_at::none);
  if (total_runs_ > 0) write_table(std::cout, pairs);
  std::cout.flush();
  if (!o_.export_json.empty()) {
    const std::string text = to_json_result(pairs).dump(2);
    write_file_atomically(o_.export_json, "--export-json",
                          [&](std::ostream& out) { out << text << '\n'; });
  }
  if (!o_.export_csv.empty())
    write_file_atomically(o_.export_csv, "--export-csv",
                          [&](std::ostream& out) { write_csv(out); });
  if (!o_.export_markdown.empty())
    write_file_atomically(o_.export_markdown, "--export-markdown",
                          [&](std::ostream& out) { write_markdown(out); });
  if (failure_) {
    std::cerr << program_ << ": error: " << *failure_ << '\n';
    return exit_input;
  }
  if (stopped_because_ == "interrupted") return exit_interrupted;
  return stopped_because_ == "converged" ? exit_ok : exit_limit;
}

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
  out << "\nstopped: " << stopped_because_ << '\n';
}

nlohmann::ordered_json bench_session::to_json_result(const std::vector<pair_result>& pairs) const {
  nlohmann::ordered_json j;
  j["stopped_because"] = stopped_because_;
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
          << (a.converged ? "true" : "false") << ',' << stopped_because_ << ",\n";
    }
}

// The values of --parameter-scan: LOW, LOW + S, ... (or LOW, LOW F, ...) up to HIGH.
std::vector<double> scan_values(const bench_options& o) {
  const auto parse = [&](const std::string& t, const std::string& what) {
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end == t.c_str() || *end || !std::isfinite(v))
      throw input_error("--parameter-scan " + what + ": not a number: '" + t + "'");
    return v;
  };
  const double low = parse(o.scan[1], "LOW"), high = parse(o.scan[2], "HIGH");
  if (!(high >= low)) throw input_error("--parameter-scan: HIGH is below LOW");
  if (o.scan_step && o.scan_factor)
    throw input_error("--parameter-step and --geometric exclude each other");
  std::vector<double> v;
  const double slack = 1e-9 * std::max(1.0, std::fabs(high));
  if (o.scan_factor) {
    if (!(*o.scan_factor > 1) || !(low > 0))
      throw input_error("--geometric F needs F > 1 and LOW > 0");
    for (double x = low; x <= high + slack; x *= *o.scan_factor) v.push_back(x);
  } else {
    const double step = o.scan_step.value_or(1);
    if (!(step > 0)) throw input_error("--parameter-step must be positive");
    for (std::size_t i = 0; low + i * step <= high + slack; ++i) v.push_back(low + i * step);
  }
  if (v.size() > 10000) throw input_error("--parameter-scan: more than 10000 values");
  return v;
}

std::string scan_text(double v) {
  std::ostringstream os;
  os.precision(12);
  os << v;
  return os.str();
}

// One session per value of the parameter, {NAME} replaced in every command line; the sweep table
// (docs/bench.md) goes to --export-sweep, in the format `mcpilot scaling` reads.
int run_scan(const bench_options& o, const std::string& program) {
  const std::string token = "{" + o.scan[0] + "}";
  bool used = false;
  for (const auto& c : o.commands) used = used || c.find(token) != std::string::npos;
  if (!used)
    throw input_error("--parameter-scan " + o.scan[0] + ": no " + token + " in the command");
  if (!o.export_json.empty() || !o.export_csv.empty() || !o.export_markdown.empty())
    throw input_error(
        "--parameter-scan writes one table (--export-sweep); the per-session "
        "exports are not available with it");
  if (!o.export_sweep.empty()) check_writable(o.export_sweep, "--export-sweep");
  std::ostringstream table;
  table << "point," << o.scan[0]
        << ",quantity,mean,ci_low,ci_high,ci_width_rel,readings,converged,stopped_because,"
           "analytic\n";
  int worst = exit_ok;
  const auto values = scan_values(o);
  for (std::size_t i = 0; i < values.size(); ++i) {
    bench_options p = o;
    const std::string value = scan_text(values[i]);
    for (auto* s : {&p.prepare, &p.setup, &p.cleanup}) *s = replace_all(*s, token, value);
    for (auto& c : p.commands) c = replace_all(c, token, value);
    std::cout << "== " << o.scan[0] << " = " << value << '\n';
    bench_session s(p, program);
    const int rc = s.run();
    s.sweep_rows(table, i, value);
    if (rc == exit_interrupted || rc == exit_input) {
      worst = rc;
      break;
    }
    if (rc != exit_ok) worst = rc;
  }
  if (!o.export_sweep.empty())
    write_file_atomically(o.export_sweep, "--export-sweep",
                          [&](std::ostream& out) { out << table.str(); });
  return worst;
}

}  // namespace

void add_bench_command(CLI::App& app, context& ctx) {
  auto o = std::make_shared<bench_options>();
  CLI::App* cmd = app.add_subcommand(
      "bench",
      "Run a program, a fresh process per run, until its wall time (and more) is precise enough");
  cmd->add_option("command", o->commands,
                  "command(s) to benchmark; several are run interleaved and compared");
  cmd->add_option("-n,--name", o->names, "name of each command, in order (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--shell", o->shell, "none (default: exec directly) or sh");
  cmd->add_option("-w,--warmup", o->warmup, "runs per command before measuring, discarded");
  cmd->add_option("-p,--prepare", o->prepare, "command run before every measured run, untimed");
  cmd->add_option("--setup", o->setup, "command run once before all runs");
  cmd->add_option("-c,--cleanup", o->cleanup, "command run once after all runs");
  cmd->add_option("--input", o->input, "file given to every run as standard input");
  cmd->add_flag("--show-output", o->show_output, "pass the commands' output through");
  cmd->add_flag("-i,--ignore-failure", o->ignore_failure, "keep measuring runs that exit non-zero");
  cmd->add_option("--output", o->output,
                  "time (default) or csv[:COLUMNS]: each stdout line is one reading per column");
  cmd->add_option("--until", o->until,
                  "precise (default): every interval meets the precision; separated: every pair "
                  "of commands is told apart, at looks of falling level (docs/bench.md)");
  cmd->add_option("--max-runs", o->max_runs, "most runs in all (default 100000)");
  cmd->add_option("--max-seconds", o->max_seconds, "most seconds in all (default 600)");
  cmd->add_option("--seed", o->seed, "seed of the interleaving order (default 1)");
  cmd->add_option("--counters", o->counters, "perf counters of each run: cycles,instructions,...");
  cmd->add_option("--work-initial", o->work_initial, "smallest " + work_token);
  cmd->add_option("--work-max", o->work_max, "largest " + work_token);
  cmd->add_option("--work-levels", o->work_levels, "work amounts on the ladder (default 5)");
  cmd->add_option("--export-json", o->export_json, "write the results as JSON to FILE");
  cmd->add_option("--export-csv", o->export_csv, "write every reading with run and time to FILE");
  cmd->add_option("--export-markdown", o->export_markdown, "write a Markdown table to FILE");
  cmd->add_flag("--quiet,-q", o->quiet, "no progress lines");
  cmd->add_flag("--progress", o->progress, "progress lines on stderr even when not a terminal");
  cmd->add_option("--parameter-scan", o->scan,
                  "NAME LOW HIGH: one session per value, {NAME} replaced in the command")
      ->expected(3);
  cmd->add_option("--parameter-step", o->scan_step, "step of --parameter-scan (default 1)");
  cmd->add_option("--geometric", o->scan_factor, "--parameter-scan by this factor (> 1)");
  cmd->add_option("--export-sweep", o->export_sweep,
                  "--parameter-scan: write the sweep table (for mcpilot scaling) to FILE");
  add_precision_options(cmd, o->precision_options);
  cmd->callback([o, &ctx] {
    if (ctx.parse_only) return;  // never start a program from the parser's fuzz target
    if (!o->scan.empty()) {
      ctx.result = run_scan(*o, ctx.program);
      return;
    }
    bench_session s(*o, ctx.program);
    ctx.result = s.run();
  });
}

}  // namespace mcpilot::cli
