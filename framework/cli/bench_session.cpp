#include "bench_session.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <iostream>
#include <numeric>
#include <sstream>

#include "bench_words.hpp"
#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/atomic_file.hpp"
#include "mcpilot/io/progress.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/measure/child.hpp"
#include "mcpilot/rng.hpp"
#include "mcpilot/runner.hpp"
#include "mcpilot/stats/stable_moments.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "mcpilot/stats/wps.hpp"
#include "run_support.hpp"

namespace mcpilot::cli::bench {

namespace {

// Thrown out of a run that the interrupt cut short; the run is not recorded.
struct interrupted_run {};

}  // namespace

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
                          {"--export-markdown", o_.export_markdown},
                          {"--report", o_.report.path}});
  if (!o_.export_json.empty()) check_writable(o_.export_json, "--export-json");
  if (!o_.export_csv.empty()) check_writable(o_.export_csv, "--export-csv");
  if (!o_.export_markdown.empty()) check_writable(o_.export_markdown, "--export-markdown");
  if (!o_.report.path.empty()) check_writable(o_.report.path, "--report");

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
    return c.last.stop && c.last.reason == stop_reason::converged;
  });
}

// The table on stdout and each --export file asked for.
void bench_session::write_outputs(const std::vector<pair_result>& pairs) const {
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
  if (!o_.report.path.empty()) write_report_page(pairs);
}

// The next round: each command's runs as its engine asks (readings turned into runs, whole
// ladders in work mode, and under --until separated what an unresolved pair's next look seems to
// need), one entry per run, in command order; run() shuffles it.
std::vector<std::size_t> bench_session::round_order(const std::vector<pair_result>& pairs) const {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < commands_.size(); ++i) {
    const bench_command& c = commands_[i];
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
          extra = std::max({extra, due, std::min(p.runs_needed.value_or(c.runs), 4 * c.runs)});
        }
      if (c.runs == 0) extra = c.last.count;
      n = std::max(n, extra);
    }
    order.insert(order.end(), n, i);
  }
  if (order.empty()) order.assign(commands_.size(), 0);
  return order;
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
          if (c.last.stop && c.last.reason == stop_reason::unreachable && o_.until == "precise") {
            stopped_because_ = stop_reason::unreachable;
          }
        }
        std::vector<pair_result> pairs;
        if (commands_.size() > 1) {
          pairs = comparisons();
          judge(pairs, look_at::due);
        }
        if (show_progress && total_runs_ > 0) std::cerr << progress_text(pairs) << '\n';
        if (stopped_because_) break;
        if (goal_met(pairs)) {
          stopped_because_ = stop_reason::converged;
          break;
        }
        if (total_runs_ >= o_.max_runs) {
          stopped_because_ = stop_reason::max_runs;
          break;
        }
        // The round: each command's share, shuffled.
        std::vector<std::size_t> order = round_order(pairs);
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
          stopped_because_ = stop_reason::error;
          break;
        }
        if (interrupted.load()) {
          stopped_because_ = stop_reason::interrupted;
          break;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
          stopped_because_ = stop_reason::max_seconds;
          break;
        }
      }
    } catch (const input_error& e) {
      failure_ = e.what();
      stopped_because_ = stop_reason::error;
    } catch (const interrupted_run&) {
      stopped_because_ = stop_reason::interrupted;
    }
    for (auto& c : commands_) c.last = c.eng->evaluate();
    // A limit that ends a round midway may have let in the readings that meet the goal: rounds
    // grow with the runs a pair still seems to need (up to 4 times the runs so far), and a round
    // is not evaluated until it ends. Judged on every reading the report shows, at a moment the
    // readings did not choose, that is the goal met. Under --until separated that judgement is
    // one more look, at the next look's (lower) level.
    if (stopped_because_ == stop_reason::max_seconds || stopped_because_ == stop_reason::max_runs) {
      auto pairs = commands_.size() > 1 ? comparisons() : std::vector<pair_result>{};
      judge(pairs, look_at::closing);  // one more look, at its own level
      if (goal_met(pairs)) stopped_because_ = stop_reason::converged;
    }
    if (!o_.cleanup.empty()) {
      try {
        interrupted.store(false);  // the cleanup runs after an interrupt too
        run_once(o_.cleanup, false, "--cleanup");
      } catch (const input_error& e) {
        std::cerr << program_ << ": warning: " << e.what() << '\n';
      } catch (const interrupted_run&) {
        stopped_because_ = stop_reason::interrupted;
      }
    }
  }
  end_ = std::chrono::system_clock::now();

  auto pairs = commands_.size() > 1 ? comparisons() : std::vector<pair_result>{};
  judge(pairs, look_at::none);
  write_outputs(pairs);
  if (failure_) {
    std::cerr << program_ << ": error: " << *failure_ << '\n';
    return exit_input;
  }
  if (stopped_because_ == stop_reason::interrupted) return exit_interrupted;
  return stopped_because_ == stop_reason::converged ? exit_ok : exit_limit;
}

}  // namespace mcpilot::cli::bench
