// `mcpilot bench [options] -- COMMAND [ARGS...]`: runs a real program, one fresh process per
// run, until every quantity's interval meets the precision (docs/bench.md). Each command's runs
// are a time-ordered stream fed to the engine, which removes warm-up by change-points, sizes the
// subsessions from the autocorrelation and says how many more runs are needed. Several commands
// are run interleaved in blocks (one run of each, in a seeded random order), so that drift hits
// them alike, and compared pairwise on the blocks' differences over one common window
// (stats/paired_comparison.hpp). The loop is the framework's (programs/bench_session.hpp); this
// file and bench_*.cpp parse the options and print.
//
// Exit codes (docs/cli.md): 0 converged (or, with --until separated, every pair resolved);
// 3 a limit (--max-runs, --max-seconds) stopped it before the goal was met; 130 interrupted,
// results so far written; 2 a usage error, a command that cannot be executed, a run that failed
// (unless --ignore-failure), a line of --output csv that does not parse, or a run that printed
// no reading under --output csv.

#include <memory>

#include "bench_run.hpp"
#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "option_checks.hpp"

namespace mcpilot::cli {

void add_bench_command(CLI::App& app, context& ctx) {
  auto o = std::make_shared<bench::bench_options>();
  CLI::App* cmd = app.add_subcommand(
      "bench",
      "Run a program, a fresh process per run, until its wall time (and more) is precise enough");
  cmd->add_option("command", o->commands,
                  "command(s) to benchmark; several are run interleaved and compared");
  cmd->add_option("-n,--name", o->names, "name of each command, in order (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--shell", o->shell, "none (default: exec directly) or sh");
  cmd->add_option("-w,--warmup", o->warmup, "runs per command before measuring, discarded")
      ->check(unsigned_in(0, 1'000'000, "a number of runs"));
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
  cmd->add_option("--max-runs", o->max_runs, "most runs in all (default 100000)")
      ->check(unsigned_in(3, 1'000'000'000, "a number of runs"));
  cmd->add_option("--max-seconds", o->max_seconds, "most seconds in all (default 600)")
      ->check(number_between(0, 1e9));
  cmd->add_option("--min-seconds", o->min_seconds,
                  "no verdict before each command's runs add up to this many seconds (default 0: "
                  "none; docs/bench.md)")
      ->check(number_from(0, 1e9));
  cmd->add_option("--seed", o->seed, "seed of the interleaving order (default 1)")
      ->check(unsigned_in(0, UINT64_MAX, "a seed"));
  cmd->add_option("--counters", o->counters, "perf counters of each run: cycles,instructions,...");
  cmd->add_option("--work-initial", o->work_initial, "smallest " + bench::work_token);
  cmd->add_option("--work-max", o->work_max, "largest " + bench::work_token);
  cmd->add_option("--work-levels", o->work_levels, "work amounts on the ladder (default 5)")
      ->check(unsigned_in(3, 1000, "a number of work amounts"));
  cmd->add_option("--ramp-seconds", o->ramp_seconds,
                  "budget of the first runs' ramp (default a tenth of --max-seconds, at most 60)")
      ->check(number_between(0, 1e9));
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
  add_report_option(cmd, o->report, ctx);
  cmd->callback([o, &ctx] {
    if (ctx.parse_only) return;  // never start a program from the parser's fuzz target
    if (!o->scan.empty()) {
      ctx.result = bench::run_scan(*o, ctx.program);
      return;
    }
    ctx.result = bench::run_session(*o, ctx.program);
  });
}

}  // namespace mcpilot::cli
