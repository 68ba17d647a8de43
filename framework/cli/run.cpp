// `mcpilot run CONFIG`: runs a seeded experiment until every required interval meets its
// precision, then writes the table (stdout), the JSON result (--json) and the raw readings (--raw).
//
// Exit codes (docs/cli.md): 0 converged; 3 a limit stopped it first (max_replications,
// max_seconds, or a precision no number of readings can reach); 130 interrupted; 2 a config or
// usage error, and also a replication that threw: that failure is reproducible from the input
// alone (config, seed, replication index), like a bad config, and is not worth retrying with a
// bigger budget the way exit 3 is. Exit 1 stays for bugs in mcpilot itself.

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/config.hpp"
#include "mcpilot/io/environment.hpp"
#include "mcpilot/io/progress.hpp"
#include "mcpilot/io/session_output.hpp"
#include "mcpilot/session.hpp"
#include "option_checks.hpp"

namespace mcpilot::cli {

namespace {

// Set by SIGINT; the session checks it between rounds. Lock-free, so a signal handler may store it.
std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_sigint(int) {
  interrupted.store(true);
  static const char message[] =
      "\nmcpilot: interrupted: stopping after this round and writing the results so far "
      "(Ctrl-C again to abort at once)\n";
  ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
  (void)ignored;
}

// Installs the handler for the session's lifetime only; SA_RESETHAND makes a second Ctrl-C
// take the default action (terminate) in case a round takes too long.
class sigint_scope {
 public:
  sigint_scope() {
    interrupted.store(false);
    // A process started with SIGINT ignored (a background job of a non-interactive shell, say)
    // was meant to be immune to Ctrl-C: leave it so.
    sigaction(SIGINT, nullptr, &previous_);
    if (previous_.sa_handler == SIG_IGN) return;
    struct sigaction sa {};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    installed_ = sigaction(SIGINT, &sa, nullptr) == 0;
  }
  ~sigint_scope() {
    if (installed_) sigaction(SIGINT, &previous_, nullptr);
  }
  sigint_scope(const sigint_scope&) = delete;
  sigint_scope& operator=(const sigint_scope&) = delete;

 private:
  struct sigaction previous_ {};
  bool installed_ = false;
};

struct run_options {
  std::string config;
  std::uint64_t seed = 0;
  unsigned threads = 0;
  std::vector<std::string> sets;
  std::string json;
  std::string raw;
  bool quiet = false;
  bool progress = false;
};

// Opened before the session starts, so that a bad path fails at once rather than after an hour.
void open_output(std::ofstream& out, const std::string& path, const char* option) {
  out.open(path, std::ios::binary | std::ios::trunc);
  if (!out) throw input_error(std::string(option) + " " + path + ": cannot open for writing");
}

void check_written(std::ofstream& out, const std::string& path, const char* option) {
  out.flush();
  if (!out) throw input_error(std::string(option) + " " + path + ": write failed");
}

int exit_code_of(const session_result& r) {
  if (r.stopped_because == "interrupted") return exit_interrupted;
  if (r.error) return exit_input;
  if (!r.quantities.empty() && r.all_required_converged()) return exit_ok;
  return exit_limit;
}

int run(const run_options& o, bool seed_given, bool threads_given, const model_registry& models,
        const std::string& program) {
  config_overrides overrides;
  overrides.sets = o.sets;
  if (seed_given) overrides.seed = o.seed;
  if (threads_given) overrides.threads = o.threads;
  experiment_config cfg = load_config(o.config, models, overrides);

  // --json - puts the JSON alone on stdout; the table then goes to stderr.
  const bool json_to_stdout = o.json == "-";
  std::ofstream json_file, raw_file;
  if (!o.json.empty() && !json_to_stdout) open_output(json_file, o.json, "--json");
  if (!o.raw.empty()) open_output(raw_file, o.raw, "--raw");

  session_hooks hooks;
  hooks.interrupted = &interrupted;
  if (!o.quiet && (o.progress || stderr_is_terminal()))
    hooks.on_round = progress_printer(std::cerr);

  session_result result;
  {
    sigint_scope scope;
    result = run_session(*cfg.instance, cfg.spec, cfg.settings, hooks);
  }

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
    const std::string text = to_json(result, meta).dump(2);
    if (json_to_stdout) {
      std::cout << text << '\n' << std::flush;
    } else {
      json_file << text << '\n';
      check_written(json_file, o.json, "--json");
    }
  }
  if (!o.raw.empty()) {
    write_raw_readings(raw_file, result, cfg.spec);
    check_written(raw_file, o.raw, "--raw");
  }
  if (result.error) std::cerr << program << ": error: " << *result.error << '\n';
  return exit_code_of(result);
}

}  // namespace

void add_run_command(CLI::App& app, context& ctx) {
  auto opts = std::make_shared<run_options>();
  CLI::App* cmd = app.add_subcommand(
      "run", "Run an experiment config until every required interval meets its precision");
  cmd->add_option("config", opts->config, "experiment config (TOML)")->required();
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
  cmd->add_flag("--quiet,-q", opts->quiet, "no progress lines");
  cmd->add_flag("--progress", opts->progress, "progress lines on stderr even when not a terminal");
  cmd->callback([opts, seed, threads, &ctx] {
    if (ctx.parse_only) return;  // the config loader has its own fuzz target
    ctx.result = run(*opts, seed->count() > 0, threads->count() > 0, *ctx.models, ctx.program);
  });
}

}  // namespace mcpilot::cli
