#include "mcpilot/programs/bench_session.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "mcpilot/error.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/programs/bench_words.hpp"
#include "mcpilot/rng.hpp"
#include "mcpilot/stats/wps.hpp"

namespace mcpilot::programs {

namespace {

// Thrown out of a run that an interrupt cut short; the run is not recorded.
struct interrupted_run {};

}  // namespace

bench_session::bench_session(bench_settings s) : s_(std::move(s)) {
  if (s_.shell != "none" && s_.shell != "sh")
    throw input_error("--shell: expected none or sh, got '" + s_.shell + "'");
  if (s_.commands.empty()) throw input_error("bench: no command given (mcpilot bench -- CMD ...)");
  if (!s_.names.empty() && s_.names.size() != s_.commands.size())
    throw input_error("-n/--name: " + std::to_string(s_.names.size()) + " name(s) for " +
                      std::to_string(s_.commands.size()) + " command(s); give one per command");
  if (!(s_.min_seconds >= 0 && s_.min_seconds <= s_.max_seconds))
    throw input_error("--min-seconds must be 0 or more and at most --max-seconds (" +
                      format_number(s_.max_seconds) + "), got " + format_number(s_.min_seconds));
  if (!s_.launch) s_.launch = run_child;
  for (const auto& line : s_.commands)
    if (line.find(work_token) != std::string::npos) work_mode_ = true;
  if (work_mode_) {
    if (!s_.work_initial || !s_.work_max)
      throw input_error(work_token + " in the command needs --work-initial and --work-max");
    if (!(*s_.work_initial > 0) || !(*s_.work_max > *s_.work_initial))
      throw input_error("--work-initial must be positive and below --work-max");
    if (s_.commands.size() != 1)
      throw input_error(work_token + ": one command at a time (compare the rates of two runs)");
    if (!s_.columns.empty()) throw input_error(work_token + " times whole runs; drop --output csv");
    // The command receives whole numbers: fractional bounds would be rounded behind the user's
    // back, and the fit would regress on amounts that were not run.
    for (const double w : {*s_.work_initial, *s_.work_max})
      if (w != std::floor(w) || w > 9e15)
        throw input_error(
            "--work-initial and --work-max are whole numbers (the command receives "
            "integers), got " +
            format_number(w));
    if (s_.ramp_seconds && !(*s_.ramp_seconds >= 0 && std::isfinite(*s_.ramp_seconds)))
      throw input_error("--ramp-seconds must be 0 or more");
    schedule_.emplace(*s_.work_initial, *s_.work_max, s_.work_levels,
                      s_.ramp_seconds.value_or(std::min(60.0, s_.max_seconds / 10)), s_.seed);
  }

  // Probe the counters once, so that unavailable ones are said at the start and not carried as
  // quantities with no readings.
  if (!s_.counters.empty()) {
    std::vector<std::string> available;
    auto probe = open_perf_counters(s_.counters, {0, false, false});
    for (const auto& st : probe->status()) {
      if (st.available)
        available.push_back(st.name);
      else
        counter_notes_.push_back(st.name + ": unavailable (" + st.reason + ")");
    }
    s_.counters = available;
  }

  for (std::size_t i = 0; i < s_.commands.size(); ++i) {
    bench_command c;
    c.line = s_.commands[i];
    c.name = s_.names.empty() ? c.line : s_.names[i];
    c.argv = command_argv(replace_all(c.line, work_token, "1"), s_.shell);
    c.spec.stream_style();
    for (const auto& col : s_.columns) c.spec.quantity(col);
    auto& wall = c.spec.quantity("wall_time").with_unit("s").describe("wall time of one run");
    if (!s_.columns.empty() || work_mode_) wall.optional();
    c.spec.quantity("user_time").with_unit("s").describe("user CPU time").optional();
    c.spec.quantity("system_time").with_unit("s").describe("system CPU time").optional();
    c.spec.quantity("peak_rss").with_unit("KiB").describe("peak resident set size").optional();
    for (const auto& k : s_.counters)
      c.spec.quantity(k).with_unit(std::string(find_counter(k)->unit)).optional();
    engine_options eo;
    eo.session_precision = s_.requirements;
    eo.streams = 1;
    // Runs are expensive: start from what the minimum sample size needs, without the engine's
    // floor of 100 meant for cheap replications.
    eo.first_round = std::max<std::size_t>(10, 2 * s_.requirements.min_samples);
    eo.budget = s_.max_runs;
    eo.remove_warmup = s_.remove_warmup;
    eo.keep_excursions = s_.keep_excursions;
    c.eng = std::make_unique<engine>(c.spec, eo);
    commands_.push_back(std::move(c));
  }
  const std::size_t nc = commands_.size();
  verdicts_.resize(nc * (nc - 1) / 2);
}

double bench_session::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

double bench_session::pair_alpha() const {
  const double alpha = 1 - s_.requirements.confidence;
  const std::size_t nc = commands_.size();
  return s_.until_separated && nc > 2 ? alpha / static_cast<double>(nc * (nc - 1) / 2) : alpha;
}

child_result bench_session::run_once(const std::string& line, bool measured,
                                     const std::string& what, bool interruptible,
                                     const std::vector<std::string>* argv) {
  child_options co;
  co.input_file = s_.input;
  co.show_output = s_.show_output;
  co.capture_stdout = measured && !s_.columns.empty();
  if (measured) co.counters = s_.counters;
  child_result r = s_.launch(argv ? *argv : command_argv(line, s_.shell), co);
  // Ctrl-C reaches the whole foreground process group, the child too: a run cut short by it is
  // not a measurement, nor a failure of the program.
  if (interruptible && s_.interrupted && s_.interrupted->raised()) throw interrupted_run{};
  if (!r.started) throw input_error(what + ": cannot execute '" + line + "': " + r.start_error);
  if (r.exit_code != 0 && !(measured && s_.ignore_failure)) {
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
  if (!s_.prepare.empty()) run_once(s_.prepare, false, "--prepare");
  // The command's words were split once, before the session; only a work amount changes them.
  const child_result r = run_once(line, true, c.name, true, work_mode_ ? nullptr : &c.argv);
  const double ts = elapsed_seconds();
  std::vector<std::vector<double>> rows;
  if (!s_.columns.empty()) {
    rows = parse_output(r.output, s_.columns, c.name);
    // A run without a reading is the command's mistake, not a measurement: said with what it
    // printed, before anything of the run is recorded.
    if (rows.empty()) {
      const std::size_t tail = 400;
      const std::string out =
          r.output.size() > tail ? r.output.substr(r.output.size() - tail) : r.output;
      throw input_error("--output csv: " + c.name + ": run " + std::to_string(c.runs + 1) +
                        " printed no reading line; the end of its stdout: " +
                        (out.empty() ? "(nothing)" : "\"" + out + "\""));
    }
  }
  const std::uint64_t run = total_runs_++;
  ++c.runs;
  c.measured_seconds += r.wall_seconds;
  if (r.exit_code != 0) ++c.failures;
  auto add = [&](std::size_t q, double v) {
    c.eng->add_stream_readings(0, q, std::span<const double>(&v, 1));
    raw_.push_back({run, ci, ts, q, v});
  };
  std::size_t q = 0;
  if (!s_.columns.empty()) {
    double sum = 0;
    for (const auto& row : rows) {
      for (std::size_t k = 0; k < s_.columns.size(); ++k) add(k, row[k]);
      sum += row[primary];
    }
    c.per_run.push_back(sum / static_cast<double>(rows.size()));
    c.lines += rows.size();
    q = s_.columns.size();
  } else {
    c.per_run.push_back(r.wall_seconds);
  }
  add(q++, r.wall_seconds);
  add(q++, r.user_seconds);
  add(q++, r.system_seconds);
  add(q++, r.max_rss_kib);
  if (r.counts.counted)
    for (std::size_t k = 0; k < s_.counters.size() && k < r.counts.values.size(); ++k)
      add(q + k, r.counts.values[k]);
  if (work_mode_) {
    c.work.push_back(work);
    c.durations.push_back(r.wall_seconds);
    schedule_->record(r.wall_seconds);
  }
}

void bench_session::run(const std::function<void()>& after_round) {
  start_ = std::chrono::system_clock::now();
  t0_ = std::chrono::steady_clock::now();
  const std::size_t nc = commands_.size();
  philox_stream order_rng(s_.seed, 0);
  auto interrupted = [&] { return s_.interrupted && s_.interrupted->raised(); };
  const auto deadline = t0_ + std::chrono::duration<double>(s_.max_seconds);
  try {
    if (!s_.setup.empty()) run_once(s_.setup, false, "--setup");
    for (std::size_t c = 0; c < nc; ++c)
      for (std::uint64_t k = 0; k < s_.warmup; ++k) {
        if (!s_.prepare.empty()) run_once(s_.prepare, false, "--prepare");
        std::string line =
            replace_all(commands_[c].line, work_token, format_work(s_.work_initial.value_or(1)));
        run_once(line, false, commands_[c].name + " (warm-up)");
      }
    std::vector<std::size_t> order, block(nc);
    while (true) {
      for (auto& c : commands_) {
        c.last = c.eng->evaluate();
        if (c.last.stop && c.last.reason == stop_reason::unreachable && !s_.until_separated)
          stopped_because_ = stop_reason::unreachable;
      }
      if (nc > 1) compare_pairs(look_at::due);
      if (after_round && total_runs_ > 0) after_round();
      if (stopped_because_) break;
      if (goal_met()) {
        stopped_because_ = stop_reason::converged;
        break;
      }
      if (total_runs_ >= s_.max_runs) {
        stopped_because_ = stop_reason::max_runs;
        break;
      }
      // The round: blocks of one run of each command in a fresh seeded order, so that each
      // block's runs are next to each other in time and the comparison can pair them.
      order.clear();
      for (std::uint64_t b = round_blocks(); b > 0; --b) {
        std::iota(block.begin(), block.end(), std::size_t{0});
        std::shuffle(block.begin(), block.end(), order_rng);
        order.insert(order.end(), block.begin(), block.end());
      }
      const std::uint64_t room = s_.max_runs - total_runs_;
      if (order.size() > room) order.resize(room);
      // The round's readings go into storage reserved before it starts, not grown run by run.
      const std::size_t quantities = commands_[0].spec.quantities().size();
      raw_.reserve(raw_.size() + order.size() * quantities * (s_.columns.empty() ? 1 : 2));
      for (auto& c : commands_) c.per_run.reserve(c.per_run.size() + order.size() / nc + 1);
      bool cut = false;
      for (const std::size_t c : order) {
        // Each ladder's amounts in a fresh seeded order: climbed in increasing order, ladder
        // after ladder, a load that rises during a ladder would rise with w and bias the slope.
        run_measured(c, work_mode_ ? schedule_->next() : 0.0);
        if (interrupted() || std::chrono::steady_clock::now() >= deadline) {
          cut = true;
          break;
        }
      }
      if (cut) {
        stopped_because_ = interrupted() ? stop_reason::interrupted : stop_reason::max_seconds;
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
  // grow with the runs a pair still seems to need, and a round is not evaluated until it ends.
  // Judged on every reading the report shows, at a moment the readings did not choose, that is
  // the goal met. Under --until separated that judgement is one more look, at its own level.
  if (stopped_because_ == stop_reason::max_seconds || stopped_because_ == stop_reason::max_runs) {
    if (nc > 1) compare_pairs(look_at::closing);
    if (goal_met()) stopped_because_ = stop_reason::converged;
  }
  if (!s_.cleanup.empty()) {
    try {
      run_once(s_.cleanup, false, "--cleanup", false);  // after an interrupt too
    } catch (const input_error& e) {
      warnings_.push_back(e.what());
    }
  }
  end_ = std::chrono::system_clock::now();
  if (nc > 1) compare_pairs(look_at::none);
}

}  // namespace mcpilot::programs
