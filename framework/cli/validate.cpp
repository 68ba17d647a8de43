// `mcpilot validate [--quick|--full] [--only NAME]... [--json] [--list]`: runs the studies that
// guard each verdict with fixed seeds, on this machine, and prints each rate with its 95%
// interval, its gate and PASS or FAIL (docs/validate.md). Exit 0 when every rate passes, 4 when
// one fails, 2 for a name no study has.

#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/environment.hpp"
#include "mcpilot/io/progress.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/join.hpp"
#include "mcpilot/number_text.hpp"
#include "mcpilot/validate.hpp"

namespace mcpilot::cli {

namespace {

struct validate_options {
  bool full = false;
  bool quick = false;
  std::vector<std::string> only;
  bool json = false;
  bool list = false;
  bool progress = false;
};

std::string fixed(double v, int digits = 3) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

struct ran_study {
  const validation_study* study;
  study_outcome outcome;
  double seconds = 0;
};

std::vector<const validation_study*> chosen(const std::vector<validation_study>& all,
                                            const std::vector<std::string>& only) {
  std::vector<const validation_study*> out;
  if (only.empty()) {
    for (const auto& s : all) out.push_back(&s);
    return out;
  }
  std::vector<std::string> names;
  for (const auto& s : all) names.push_back(s.name);
  for (const auto& name : only) {
    const validation_study* found = nullptr;
    for (const auto& s : all)
      if (s.name == name) found = &s;
    if (!found) throw input_error("--only " + name + ": no such study (" + join(names) + ")");
    out.push_back(found);
  }
  return out;
}

void write_table(std::ostream& out, const std::vector<ran_study>& ran, bool full) {
  std::vector<std::vector<std::string>> rows = {
      {"study", "rate", "figure", "95% interval", "gate", "verdict"}};
  for (const auto& r : ran)
    for (const auto& rate : r.outcome.rates)
      rows.push_back({r.study->name, rate.what,
                      std::to_string(rate.events) + "/" + std::to_string(rate.trials) + " = " +
                          fixed(rate.rate()),
                      bracket_text(rate.low(), rate.high(), [](double v) { return fixed(v); }),
                      (rate.at_least ? ">= " : "<= ") + fixed(rate.gate, 2),
                      rate.pass() ? "PASS" : "FAIL"});
  out << "mcpilot validate (" << (full ? "full" : "quick")
      << "): fixed seeds; a rate fails when its 95% Clopper-Pearson interval lies wholly on the "
         "wrong side of its gate\n\n";
  write_columns(out, rows, {true, true, false, false, false, true});
  bool pass = true;
  double seconds = 0;
  std::size_t rates = 0, failed = 0;
  out << '\n';
  for (const auto& r : ran) {
    seconds += r.seconds;
    for (const auto& note : r.outcome.notes) out << r.study->name << ": " << note << '\n';
    for (const auto& rate : r.outcome.rates) {
      ++rates;
      if (!rate.pass()) ++failed;
    }
    pass = pass && r.outcome.pass();
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f s", seconds);
  out << (pass ? "PASS: " : "FAIL: ") << rates - failed << " of " << rates << " rates pass, "
      << ran.size() << " studies, " << buf << '\n';
}

nlohmann::ordered_json to_json(const std::vector<ran_study>& ran, bool full,
                               std::chrono::system_clock::time_point start) {
  nlohmann::ordered_json studies = nlohmann::ordered_json::array();
  bool pass = true;
  for (const auto& r : ran) {
    nlohmann::ordered_json rates = nlohmann::ordered_json::array();
    for (const auto& rate : r.outcome.rates)
      rates.push_back({{"what", rate.what},
                       {"events", rate.events},
                       {"trials", rate.trials},
                       {"rate", rate.rate()},
                       {"ci_low", rate.low()},
                       {"ci_high", rate.high()},
                       {"gate", rate.gate},
                       {"gate_direction", rate.at_least ? "at_least" : "at_most"},
                       {"gate_reason", rate.gate_reason},
                       {"pass", rate.pass()}});
    studies.push_back({{"name", r.study->name},
                       {"guards", r.study->guards},
                       {"pass", r.outcome.pass()},
                       {"seconds", r.seconds},
                       {"rates", std::move(rates)},
                       {"notes", r.outcome.notes}});
    pass = pass && r.outcome.pass();
  }
  return {{"pass", pass},
          {"size", full ? "full" : "quick"},
          {"studies", std::move(studies)},
          {"environment", environment_json(start, std::chrono::system_clock::now(), 0, 2)}};
}

int run_validate(const validate_options& o, const model_registry& models) {
  if (o.quick && o.full) throw input_error("--quick and --full: choose one");
  std::vector<validation_study> all = core_studies();
  for (const auto& s : models.studies()) all.push_back(s);
  const auto studies = chosen(all, o.only);
  if (o.list) {
    std::vector<std::vector<std::string>> rows = {{"study", "guards"}};
    for (const auto* s : studies) rows.push_back({s->name, s->guards});
    write_columns(std::cout, rows, {true, true});
    return exit_ok;
  }
  const bool show = o.progress || stderr_is_terminal();
  const auto start = std::chrono::system_clock::now();
  std::vector<ran_study> ran;
  for (std::size_t i = 0; i < studies.size(); ++i) {
    const validation_study& s = *studies[i];
    const std::string head =
        "[" + std::to_string(i + 1) + "/" + std::to_string(studies.size()) + "] " + s.name;
    int last = -1;
    const study_progress progress = [&](double f) {
      const int pct = static_cast<int>(100 * f);
      if (!show || pct == last || pct % 10 != 0) return;
      last = pct;
      std::cerr << head << ": " << pct << "%\n" << std::flush;
    };
    const auto t0 = std::chrono::steady_clock::now();
    ran_study r{&s, s.run(o.full ? study_size::full : study_size::quick, progress), 0};
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (show)
      std::cerr << head << ": " << (r.outcome.pass() ? "PASS" : "FAIL") << " ("
                << fixed(r.seconds, 1) << " s)\n";
    ran.push_back(std::move(r));
  }
  if (o.json)
    std::cout << to_json(ran, o.full, start).dump(2) << '\n';
  else
    write_table(std::cout, ran, o.full);
  bool pass = true;
  for (const auto& r : ran) pass = pass && r.outcome.pass();
  return pass ? exit_ok : exit_study_failed;
}

}  // namespace

void add_validate_command(CLI::App& app, context& ctx) {
  auto o = std::make_shared<validate_options>();
  CLI::App* cmd = app.add_subcommand(
      "validate",
      "Run the studies that guard each verdict on this machine, with fixed seeds: interval "
      "coverage, change-point false and detection rates, the models' exact values; PASS or FAIL "
      "per rate (exit 0 only if all pass, 4 if one fails)");
  cmd->add_flag("--quick", o->quick, "the short set, under about 2 minutes on 2 cores (default)");
  cmd->add_flag("--full", o->full, "the documented study set (docs/validate.md): longer");
  cmd->add_option("--only", o->only, "run only this study (repeatable; --list names them)");
  cmd->add_flag("--json", o->json, "print the results as one JSON object on stdout");
  cmd->add_flag("--list", o->list, "list the studies and what each guards, and run nothing");
  cmd->add_flag("--progress", o->progress, "progress on stderr even when it is not a terminal");
  cmd->callback([o, &ctx] {
    if (ctx.parse_only) return;
    ctx.result = run_validate(*o, *ctx.models);
  });
}

}  // namespace mcpilot::cli
