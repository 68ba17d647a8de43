// `mcpilot run CONFIG`: runs a seeded experiment until every required interval meets its
// precision, then writes the table (stdout), the JSON result (--json), the raw readings (--raw)
// and a picture of the intervals round by round (--plot). A config with a [sweep] runs one session
// per point instead (run_sweep.cpp).
//
// Exit codes (docs/cli.md): 0 converged; 3 a limit stopped it first (max_replications,
// max_seconds, or a precision no number of readings can reach); 130 interrupted; 2 a config or
// usage error, and also a replication that threw: that failure is reproducible from the input
// alone (config, seed, replication index), like a bad config, and is not worth retrying with a
// bigger budget the way exit 3 is. Exit 1 stays for bugs in mcpilot itself.

#include <chrono>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/cluster.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/atomic_file.hpp"
#include "mcpilot/io/checkpoint.hpp"
#include "mcpilot/io/config.hpp"
#include "mcpilot/io/environment.hpp"
#include "mcpilot/io/progress.hpp"
#include "mcpilot/io/run_plot.hpp"
#include "mcpilot/io/session_output.hpp"
#include "mcpilot/session.hpp"
#include "option_checks.hpp"
#include "run_page.hpp"
#include "run_support.hpp"

namespace mcpilot::cli {

int run_replay(const run_options& o, const experiment_config& cfg, const std::string& text,
               const config_overrides& overrides, const model_registry& models,
               const std::string& program);

int run_sweep_command(const run_options& o, const experiment_config& cfg, const std::string& text,
                      const config_overrides& overrides, const model_registry& models,
                      const std::string& program);

namespace {

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// The config of a resumed session is the checkpoint's own, so that a resume needs no other file
// and cannot silently continue under changed settings.
experiment_config config_of_checkpoint(const checkpoint& c, const run_options& o, bool seed_given,
                                       bool threads_given, const model_registry& models) {
  if (seed_given || !o.sets.empty())
    throw input_error("--resume " + o.resume +
                      ": --seed and --set cannot change a checkpointed session; it continues "
                      "with the config and overrides it was started with");
  if (!o.config.empty() && file_text(o.config) != c.config_text)
    throw input_error("--resume " + o.resume + ": the checkpoint was written for another config (" +
                      c.config_source + "), or " + o.config + " has changed since");
  config_overrides overrides;
  overrides.sets = c.sets;
  overrides.seed = c.seed;
  if (threads_given) overrides.threads = o.threads;
  experiment_config cfg = parse_config(c.config_text, c.config_source, models, overrides);
  std::vector<std::string> names;
  for (const auto& q : cfg.spec.quantities()) names.push_back(q.name);
  if (cfg.model_name != c.model || names != c.quantities)
    throw input_error("--resume " + o.resume + ": the checkpoint's model (" + c.model +
                      ") does not match what its config declares now");
  cfg.settings.resume = std::make_shared<session_snapshot>(c.progress);
  return cfg;
}

int exit_code_of(const session_result& r) {
  if (r.stopped_because == stop_reason::interrupted) return exit_interrupted;
  if (r.error) return exit_input;
  if (!r.quantities.empty() && r.all_required_converged()) return exit_ok;
  return exit_limit;
}

// An MPI job (docs/cluster.md). A rank other than 0 runs the blocks rank 0 hands out and writes
// nothing; it ends with rank 0's exit code.
int run_as_worker(const experiment_config& cfg) {
  if (cfg.spec.is_measurement())
    throw input_error("measurement models run on one process: run them without mpirun or srun");
  if (cluster_agree_setup(true) >= 0) return exit_input;  // the failing rank says why
  signal_speaks.store(false);
  stop_signal_scope scope;
  return run_cluster_worker(*cfg.instance, cfg.spec, cfg.settings, &interrupted);
}

// Rank 0 of an MPI job: every rank has set up, and the rounds are split across them.
void join_cluster(experiment_config& cfg, const run_options& o) {
  if (!cluster_active()) return;
  if (cfg.spec.is_measurement())
    throw input_error("measurement models run on one process: run them without mpirun or srun");
  const int failed = cluster_agree_setup(true);
  if (failed >= 0)
    throw input_error("MPI rank " + std::to_string(failed) +
                      " could not set up the run (its message is above)");
  if (cluster_size() < 2) return;
  const std::string hint =
      o.checkpoint.empty()
          ? "Run it with --checkpoint FILE to be able to resume after such a loss."
          : "Resume it from the last checkpoint: mcpilot run --resume " + o.checkpoint;
  const std::string said =
      "mcpilot: under MPI this signal may mean that mpirun lost a rank (see "
      "its message). " +
      hint + "\n";
  signal_hint_size = std::min(said.size(), signal_hint.size());
  std::copy_n(said.data(), signal_hint_size, signal_hint.data());
  cfg.settings.executor = make_cluster_executor(cfg.settings.threads, hint);
}

// --checkpoint: keeps the latest round boundary and writes it when --checkpoint-every has passed
// since the last write (or the start), and, through write_latest, at the end when the session
// stopped short of convergence, so that it can be resumed from the last whole round. A
// checkpoint is a safety net: failing to write one (a full disk) is said, and the session goes on
// rather than losing what it has measured.
class checkpoint_keeper {
 public:
  checkpoint_keeper(std::string path, double every_seconds, checkpoint base, std::string program)
      : path_(std::move(path)),
        every_(every_seconds),
        base_(std::move(base)),
        program_(std::move(program)),
        last_write_(std::chrono::steady_clock::now()) {}

  void offer(session_snapshot s) {
    latest_ = std::move(s);
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_write_).count() < every_) return;
    write_latest();
    last_write_ = now;
  }

  void write_latest() {
    if (!latest_) return;
    base_.progress = std::move(*latest_);
    try {
      write_checkpoint(path_, base_);
    } catch (const input_error& e) {
      std::cerr << program_ << ": warning: " << e.what() << "; the previous checkpoint is kept\n";
    }
    latest_ = std::move(base_.progress);
  }

 private:
  std::string path_;
  double every_;
  checkpoint base_;
  std::string program_;
  std::optional<session_snapshot> latest_;
  std::chrono::steady_clock::time_point last_write_;  // or the start, before the first write
};

int run(const run_options& o, bool seed_given, bool threads_given, const model_registry& models,
        const std::string& program) {
  config_overrides overrides;
  overrides.sets = o.sets;
  if (seed_given) overrides.seed = o.seed;
  if (threads_given) overrides.threads = o.threads;
  cluster_expect_setup();  // an MPI job's ranks agree that setup worked before any work
  if (o.config.empty() && o.resume.empty())
    throw input_error("run: a config file is required (or --resume FILE)");
  const plot_format format = parse_plot_format(o.format);
  checkpoint resumed;
  if (!o.resume.empty()) resumed = read_checkpoint(o.resume);
  std::string text;
  experiment_config cfg;
  if (o.resume.empty()) {
    text = read_config_file(o.config);
    cfg = parse_config(text, o.config, models, overrides);
  } else {
    cfg = config_of_checkpoint(resumed, o, seed_given, threads_given, models);
  }
  if (o.replay) return run_replay(o, cfg, text, overrides, models, program);
  if (cfg.sweep && cluster_active())
    throw input_error(o.config +
                      ": sweeps run on one process for now; run a point under mpirun "
                      "with its values as --set, or the sweep without mpirun");
  if (cluster_rank() != 0) return run_as_worker(cfg);
  if (cfg.sweep) {
    if (!o.checkpoint.empty() || !o.resume.empty())
      throw input_error(std::string(o.resume.empty() ? "--checkpoint" : "--resume") +
                        ": a checkpoint holds one session; " + o.config +
                        " is a sweep (run one of its points with --point K)");
    return run_sweep_command(o, cfg, text, overrides, models, program);
  }
  if (!o.table.empty())
    throw input_error("--table " + o.table + ": " + o.config +
                      " has no [sweep]; the results table is a sweep's (use --json)");
  if (o.point) throw input_error("--point: " + o.config + " has no [sweep]");

  // --json - puts the JSON alone on stdout; the table then goes to stderr. Output paths are
  // checked before the session starts, so that a bad path fails at once rather than after an hour;
  // the files themselves are written only at the end, atomically.
  const bool json_to_stdout = o.json == "-";
  check_outputs(o);

  session_hooks hooks;
  hooks.interrupted = &interrupted;
  round_history history;
  std::function<void(const session_progress&)> print;
  if (!o.quiet && (o.progress || stderr_is_terminal())) print = progress_printer(std::cerr);
  const bool pictures = !o.plot.empty() || !o.report.path.empty();
  if (print || pictures)
    hooks.on_round = [&](const session_progress& p) {
      if (print) print(p);
      if (pictures) history.record(p);
    };

  // Fed each round boundary through hooks.on_snapshot.
  std::optional<checkpoint_keeper> keeper;
  if (!o.checkpoint.empty()) {
    checkpoint base;
    if (o.resume.empty()) {
      base.config_source = o.config;
      base.config_text = file_text(o.config);
      base.sets = o.sets;
      if (seed_given) base.seed = o.seed;
    } else {
      base = resumed;
      base.progress = {};
    }
    base.model = cfg.model_name;
    base.quantities.clear();
    for (const auto& q : cfg.spec.quantities()) base.quantities.push_back(q.name);
    keeper.emplace(o.checkpoint, o.checkpoint_every, std::move(base), program);
    hooks.on_snapshot = [&keeper](session_snapshot s) { keeper->offer(std::move(s)); };
  }

  join_cluster(cfg, o);
  session_result result;
  {
    stop_signal_scope scope;
    try {
      result = run_session(*cfg.instance, cfg.spec, cfg.settings, hooks);
    } catch (const input_error&) {
      cluster_release_workers(exit_input);
      throw;
    } catch (...) {
      cluster_release_workers(exit_internal);
      throw;
    }
    cluster_release_workers(exit_code_of(result));
  }
  if (keeper && result.stopped_because != stop_reason::converged &&
      result.stopped_because != stop_reason::unreachable)
    keeper->write_latest();

  std::ostream& table = json_to_stdout ? std::cerr : std::cout;
  const auto analytic = cfg.instance->analytic();
  const auto facts = cfg.instance->model_facts();
  write_session_table(table, result,
                      {cfg.name, cfg.model_name, cfg.preset, cfg.settings.seed, analytic, facts});
  table.flush();

  if (!o.json.empty()) {
    session_metadata meta;
    meta.seed = cfg.settings.seed;
    meta.analytic = analytic;
    meta.facts = facts;
    meta.config = cfg.resolved;
    meta.environment =
        environment_json(result.start, result.end, cfg.settings.seed, result.threads);
    if (cluster_active()) {  // threads is then per rank
      meta.environment["ranks"] = cluster_size();
      meta.environment["hosts"] = cluster_hosts();
      meta.environment["mpi_library"] = cluster_library();
      meta.environment["mpi_plugin"] = cluster_plugin();
    }
    const std::string text = to_json(result, meta).dump(2);
    if (json_to_stdout)
      std::cout << text << '\n';
    else
      write_file_atomically(o.json, "--json", [&](std::ostream& out) { out << text << '\n'; });
  }
  if (!o.raw.empty())
    write_file_atomically(o.raw, "--raw",
                          [&](std::ostream& out) { write_raw_readings(out, result, cfg.spec); });
  if (!o.report.path.empty())
    write_session_report(o, cfg, o.resume.empty() ? text : resumed.config_text, result, history);
  // A closed pipe or a full disk on stdout must not pass for success.
  std::cout.flush();
  if (!std::cout) throw input_error("standard output: write failed");
  if (result.error) std::cerr << program << ": error: " << *result.error << '\n';
  const int code = exit_code_of(result);
  if (o.plot.empty()) return code;
  return render_last(
      [&] {
        return session_plot(history, result, analytic,
                            cfg.name + " (" + (o.config.empty() ? o.resume : o.config) + ")",
                            o.plot, format);
      },
      code, program);
}

}  // namespace

void add_run_command(CLI::App& app, context& ctx) {
  auto opts = std::make_shared<run_options>();
  CLI::App* cmd = app.add_subcommand(
      "run", "Run an experiment config until every required interval meets its precision");
  cmd->add_option("config", opts->config,
                  "experiment config (TOML); optional with --resume, which holds its own");
  CLI::Option* seed = cmd->add_option("--seed", opts->seed, "seed; overrides the config")
                          ->check(unsigned_in(0, UINT64_MAX, "a seed"));
  CLI::Option* threads =
      cmd->add_option("--threads", opts->threads,
                      "worker threads, 0 = all cores; overrides the config")
          ->check(unsigned_in(0, std::numeric_limits<int>::max(), "a number of threads"));
  cmd->add_option("--set", opts->sets,
                  "override a config key, e.g. --set model.disks=8 (repeatable; the value is "
                  "TOML, or a string when it does not parse as TOML)")
      ->allow_extra_args(false);
  cmd->add_option("--json", opts->json, "write the full result as JSON to FILE ('-': stdout)")
      ->check(non_empty_path());
  cmd->add_option("--raw", opts->raw, "write every reading to FILE as CSV")
      ->check(non_empty_path());
  cmd->add_option("--checkpoint", opts->checkpoint,
                  "keep FILE up to date to resume from (see --checkpoint-every); written "
                  "atomically: a crash leaves the previous one")
      ->check(non_empty_path());
  cmd->add_option("--checkpoint-every", opts->checkpoint_every,
                  "seconds between checkpoints (default 60; 0: after every round); a session "
                  "stopped short of convergence also writes one at the end")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--resume", opts->resume,
                  "continue the session saved in FILE; the result is bit-identical to a session "
                  "never stopped")
      ->check(non_empty_path());
  cmd->add_option("--table", opts->table,
                  "a sweep: write the results table (a row per point and quantity) as CSV")
      ->check(non_empty_path());
  cmd->add_option("--point", opts->point, "a sweep: run point K alone, with its own seed");
  cmd->add_option("--replay", opts->replay,
                  "run replication K (stream-style models: stream K) alone on this thread with "
                  "the session's seed and print its readings, e.g. under a debugger");
  cmd->add_option("--plot", opts->plot,
                  "draw the intervals round by round (a sweep: each quantity against the swept "
                  "value) with gnuplot into FILE")
      ->check(non_empty_path());
  cmd->add_option("--format", opts->format, "picture format for --plot: svg (default) or png");
  add_report_option(cmd, opts->report, ctx);
  auto allow_unbalanced = std::make_shared<bool>(false);
  cmd->add_flag("--allow-unbalanced", *allow_unbalanced,
                "placement.design: run a blocks file whose pairs are not balanced, with a "
                "warning (the same as --set model.allow_unbalanced=true)");
  cmd->add_flag("--quiet,-q", opts->quiet, "no progress lines");
  cmd->add_flag("--progress", opts->progress, "progress lines on stderr even when not a terminal");
  cmd->callback([opts, seed, threads, allow_unbalanced, &ctx] {
    if (ctx.parse_only) return;  // the config loader has its own fuzz target
    // A --set like any other, so a model without the parameter says so, naming the option.
    if (*allow_unbalanced) opts->sets.push_back("model.allow_unbalanced=true");
    ctx.result = run(*opts, seed->count() > 0, threads->count() > 0, *ctx.models, ctx.program);
  });
}

}  // namespace mcpilot::cli
