// `mcpilot run`, `models` and `describe` end to end, in process, with small test models: exit
// codes 0/2/3/130, the JSON result's fields, --raw contents (and that `mcpilot analyze` recomputes
// the interval from them), a throwing replication, Ctrl-C, and identical estimates for 1 and 2
// threads.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <boost/random/normal_distribution.hpp>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/registry.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;

// Readings ~ Normal(mean, sd); replication `fail_at` throws, replication `interrupt_at` raises
// SIGINT as a user's Ctrl-C would.
class normal_model : public model {
 public:
  void declare(model_spec& s) const override {
    s.describe("Normal readings for the CLI tests");
    s.number("mean", 10, "mean of the readings").positive();
    s.number("sd", 1, "standard deviation").at_least(0);
    s.integer("fail_at", -1, "replication that throws (-1: none)");
    s.integer("interrupt_at", -1, "replication that raises a signal (-1: none)");
    s.integer("interrupt_signal", SIGINT, "the signal it raises");
    s.quantity("x").with_unit("s").describe("one reading");
  }
  void configure(const parameters& p) override {
    mean_ = p.number("mean");
    sd_ = p.number("sd");
    fail_at_ = p.integer("fail_at");
    interrupt_at_ = p.integer("interrupt_at");
    interrupt_signal_ = static_cast<int>(p.integer("interrupt_signal"));
  }
  void replicate(replication& r) const override {
    const auto i = static_cast<std::int64_t>(r.index());
    if (i == fail_at_) throw std::runtime_error("disk array on fire");
    if (i == interrupt_at_) std::raise(interrupt_signal_);
    boost::random::normal_distribution<double> d(mean_, sd_);
    r.record(0, d(r.rng()));
  }
  std::map<std::string, double> analytic() const override { return {{"x", mean_}}; }

 private:
  double mean_ = 0, sd_ = 0;
  std::int64_t fail_at_ = -1, interrupt_at_ = -1;
  int interrupt_signal_ = SIGINT;
};

// Stream style: each stream emits independent Normal(5, 1) readings.
class stream_model : public model {
 public:
  void declare(model_spec& s) const override {
    s.describe("Independent readings in streams");
    s.stream_style();
    s.quantity("y");
  }
  std::unique_ptr<stream> open_stream(std::uint64_t) const override {
    struct normal_stream : stream {
      void advance(stream_round& round, std::size_t count) override {
        boost::random::normal_distribution<double> d(5.0, 1.0);
        for (std::size_t i = 0; i < count; ++i) round.record(0, d(round.rng()));
      }
    };
    return std::make_unique<normal_stream>();
  }
};

const model_registry& registry() {
  static const model_registry r = [] {
    model_registry m;
    m.add<normal_model>("test.normal");
    m.add<stream_model>("test.stream");
    return m;
  }();
  return r;
}

using outcome = test::run_result;

outcome run_cli(std::vector<std::string> args) {
  return test::run_in_process(registry(), std::move(args));
}

std::string temp(const std::string& name) {
  return test::temp_path("cli_run_" + name);
}

std::string write_file(const std::string& name, const std::string& text) {
  return test::write_text(temp(name), text);
}

std::string read_file(const std::string& path) {
  return test::slurp(path);
}

nlohmann::json read_json(const std::string& path) {
  return nlohmann::json::parse(read_file(path));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// sd/mean = 0.1: a 1% whole width needs about (2 * 1.96 * 0.1 / 0.01)^2 = 1537 readings, a few
// rounds past the first (100).
std::string normal_config(const std::string& extra_experiment = "",
                          const std::string& extra_model = "") {
  return "[experiment]\nname = \"cli-test\"\nseed = 5\nthreads = 2\nci_perc = 0.01\n" +
         extra_experiment + "\n[model]\nname = \"test.normal\"\n" + extra_model;
}

TEST(CliRun, ConvergesWithExitZeroTableAndJson) {
  const auto cfg = write_file("ok.toml", normal_config());
  const auto json = temp("ok.json");
  const auto o = run_cli({"run", cfg, "--json", json});
  ASSERT_EQ(o.exit_code, exit_ok) << o.err;
  EXPECT_NE(o.out.find("cli-test: model test.normal, seed 5"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("x (s)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("stopped: converged"), std::string::npos) << o.out;
  EXPECT_EQ(o.err.find("round 1"), std::string::npos) << "progress without a terminal: " << o.err;

  const auto j = read_json(json);
  EXPECT_EQ(j["stopped_because"], "converged");
  EXPECT_EQ(j["seed"], 5);
  EXPECT_EQ(j["threads"], 2);
  EXPECT_TRUE(j["error"].is_null());
  EXPECT_GT(j["replications"].get<int>(), 1000);
  EXPECT_EQ(j["config"]["model"]["name"], "test.normal");
  EXPECT_EQ(j["config"]["model"]["mean"], 10.0);
  EXPECT_EQ(j["config"]["experiment"]["ci_perc"], 0.01);
  for (const char* key : {"version", "git_commit", "compiler", "cxx_flags", "cpu_model", "cores",
                          "hostname", "start", "end", "seed", "threads"})
    EXPECT_TRUE(j["environment"].contains(key)) << key;
  ASSERT_EQ(j["quantities"].size(), 1u);
  const auto& q = j["quantities"][0];
  EXPECT_EQ(q["name"], "x");
  EXPECT_EQ(q["unit"], "s");
  EXPECT_EQ(q["required"], true);
  EXPECT_EQ(q["converged"], true);
  EXPECT_LE(q["ci_width_rel"].get<double>(), 0.01);
  // The model's exact mean, and whether the interval holds it.
  EXPECT_EQ(q["analytic"], 10.0);
  EXPECT_EQ(q["analytic_covered"],
            q["ci_low"].get<double>() <= 10.0 && 10.0 <= q["ci_high"].get<double>());
  EXPECT_NE(o.out.find("exact"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("covered"), std::string::npos) << o.out;
  // Readings ~ N(10, 1): the mean lies within 5 standard errors (sd 1/sqrt(n)) of 10.
  EXPECT_NEAR(q["mean"].get<double>(), 10.0, 5.0 / std::sqrt(q["n"].get<double>()));
}

TEST(CliRun, MaxReplicationsExitsThreeWithIntervalsNotConverged) {
  const auto cfg = write_file("limit.toml", normal_config("max_replications = 150\n"));
  const auto json = temp("limit.json");
  const auto o = run_cli({"run", cfg, "--json", json, "--set", "experiment.ci_perc=0.001"});
  ASSERT_EQ(o.exit_code, exit_limit) << o.err;
  EXPECT_NE(o.out.find("stopped: max_replications"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("not converged: x"), std::string::npos) << o.out;
  const auto j = read_json(json);
  EXPECT_EQ(j["stopped_because"], "max_replications");
  EXPECT_EQ(j["replications"], 150);
  EXPECT_EQ(j["converged"], false);
  EXPECT_EQ(j["quantities"][0]["converged"], false);
  EXPECT_TRUE(j["quantities"][0]["ci_low"].is_number());
  EXPECT_TRUE(j["quantities"][0]["ci_high"].is_number());
}

TEST(CliRun, ConfigAndUsageErrorsExitTwo) {
  const auto bad = write_file("bad.toml", normal_config("", "means = 3\n"));
  auto o = run_cli({"run", bad});
  EXPECT_EQ(o.exit_code, exit_input);
  EXPECT_NE(o.err.find(bad + ":9:1: [model] means: unknown parameter of test.normal"),
            std::string::npos)
      << o.err;
  EXPECT_TRUE(o.out.empty()) << o.out;

  const auto cfg = write_file("good.toml", normal_config());
  o = run_cli({"run", cfg, "--set", "model.sd=-1"});
  EXPECT_EQ(o.exit_code, exit_input);
  EXPECT_NE(o.err.find("--set model.sd: [model] sd must be >= 0"), std::string::npos) << o.err;

  o = run_cli({"run", temp("does-not-exist.toml")});
  EXPECT_EQ(o.exit_code, exit_input);
  EXPECT_NE(o.err.find("cannot read the config file"), std::string::npos) << o.err;

  o = run_cli({"run", cfg, "--json", "/nonexistent-dir/x.json"});
  EXPECT_EQ(o.exit_code, exit_input);
  EXPECT_NE(
      o.err.find("--json /nonexistent-dir/x.json: the folder /nonexistent-dir does not exist"),
      std::string::npos)
      << o.err;

  o = run_cli({"run", cfg, "--no-such-option"});
  EXPECT_EQ(o.exit_code, exit_input);
  o = run_cli({"run", cfg, "--threads", "many"});
  EXPECT_EQ(o.exit_code, exit_input);
}

TEST(CliRun, RawReadingsAreEveryReadingAndAnalyzeRecomputesTheInterval) {
  const auto cfg = write_file("raw.toml", normal_config());
  const auto json = temp("raw.json"), raw = temp("raw.csv");
  const auto o = run_cli({"run", cfg, "--json", json, "--raw", raw});
  ASSERT_EQ(o.exit_code, exit_ok) << o.err;
  const auto j = read_json(json);
  const auto lines = lines_of(read_file(raw));
  const auto n = j["replications"].get<std::size_t>();
  ASSERT_EQ(lines.size(), n + 1);
  EXPECT_EQ(lines[0], "replication,quantity,value");
  EXPECT_EQ(lines[1].rfind("0,x,", 0), 0u) << lines[1];
  EXPECT_EQ(lines[n].rfind(std::to_string(n - 1) + ",x,", 0), 0u) << lines[n];

  // The recipe of docs/cli.md, through the real executable.
  const auto analyzed = temp("raw-analyze.json");
  const std::string cmd =
      "awk -F, '$2==\"x\" {print $3}' '" + raw +
      "' | '" MCPILOT_EXE
      "' analyze - --ci-perc 0.01 --interval pilot --no-warmup-removal --json > '" +
      analyzed + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const auto a = read_json(analyzed);
  const auto& q = j["quantities"][0];
  EXPECT_EQ(a["n"], q["n"]);
  EXPECT_EQ(a["mean"].get<double>(), q["mean"].get<double>());
  EXPECT_EQ(a["ci_low"].get<double>(), q["ci_low"].get<double>());
  EXPECT_EQ(a["ci_high"].get<double>(), q["ci_high"].get<double>());
  EXPECT_EQ(a["subsession_size"], q["subsession_size"]);
}

TEST(CliRun, ThrowingReplicationNamesIndexAndSeedAndKeepsEarlierReadings) {
  const auto cfg = write_file("throw.toml", normal_config("", "fail_at = 123\n"));
  const auto json = temp("throw.json"), raw = temp("throw.csv");
  const auto o = run_cli({"run", cfg, "--json", json, "--raw", raw});
  EXPECT_EQ(o.exit_code, exit_input) << o.err;
  EXPECT_NE(o.err.find("replication 123 (seed 5)"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("disk array on fire"), std::string::npos) << o.err;
  EXPECT_NE(o.out.find("stopped: error"), std::string::npos) << o.out;
  const auto j = read_json(json);
  EXPECT_EQ(j["stopped_because"], "error");
  EXPECT_NE(j["error"].get<std::string>().find("replication 123"), std::string::npos);
  EXPECT_EQ(j["replications"], 123);
  const auto lines = lines_of(read_file(raw));
  ASSERT_EQ(lines.size(), 124u);  // header + replications 0..122
  EXPECT_EQ(lines.back().rfind("122,x,", 0), 0u) << lines.back();
}

TEST(CliRun, InterruptStopsWithinTheRoundWritesResultsAndExits130) {
  // A 0.1% width needs ~150000 readings; a signal in the first round (100) stops the session
  // there, after the replications under way, keeping a prefix of the replication indices.
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    SCOPED_TRACE(sig);
    // A test process started with the signal ignored (nohup ignores SIGHUP; a background job,
    // SIGINT) rightly keeps ignoring it: there is nothing to test for that signal then.
    struct sigaction before {};
    sigaction(sig, nullptr, &before);
    if (before.sa_handler == SIG_IGN) continue;
    const auto cfg = write_file("int.toml",
                                "[experiment]\nseed = 5\nthreads = 2\nci_perc = 0.001\n"
                                "[model]\nname = \"test.normal\"\ninterrupt_at = 50\n"
                                "interrupt_signal = " +
                                    std::to_string(sig) + "\n");
    const auto json = temp("int.json"), raw = temp("int.csv");
    const auto o = run_cli({"run", cfg, "--json", json, "--raw", raw});
    EXPECT_EQ(o.exit_code, exit_interrupted) << o.err;
    EXPECT_NE(o.err.find("interrupted"), std::string::npos) << o.err;
    const auto j = read_json(json);
    EXPECT_EQ(j["stopped_because"], "interrupted");
    const std::size_t n = j["replications"];
    EXPECT_LE(n, 100u);
    const auto lines = lines_of(read_file(raw));
    ASSERT_EQ(lines.size(), n + 1);
    if (n > 0) EXPECT_EQ(lines.back().rfind(std::to_string(n - 1) + ",x,", 0), 0u);
    // The handler is gone after the session: the default action is back.
    struct sigaction now {};
    sigaction(sig, nullptr, &now);
    EXPECT_EQ(now.sa_handler, SIG_DFL);
  }
}

TEST(CliRun, OutputsAreCheckedBeforeTheSessionAndWrittenAtomically) {
  const auto cfg = write_file("atomic.toml", normal_config());
  // The same file for two outputs.
  const auto same = temp("same.out");
  auto o = run_cli({"run", cfg, "--json", same, "--raw", same});
  EXPECT_EQ(o.exit_code, exit_input);
  EXPECT_NE(o.err.find("same file"), std::string::npos) << o.err;
  // A folder that does not exist fails at once, naming the option.
  o = run_cli({"run", cfg, "--json", temp("no/such/folder/x.json")});
  EXPECT_EQ(o.exit_code, exit_input);
  EXPECT_NE(o.err.find("--json"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("does not exist"), std::string::npos) << o.err;
  EXPECT_EQ(o.out.find("stopped:"), std::string::npos) << "no session should have run";
  // A config error leaves an old result as it was.
  namespace fs = std::filesystem;
  const fs::path dir = temp("atomic_dir");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string json = (dir / "r.json").string();
  std::ofstream(json) << "old";
  const auto bad = write_file("atomic_bad.toml", "[model]\nname = \"test.normal\"\nsd = -1\n");
  EXPECT_EQ(run_cli({"run", bad, "--json", json}).exit_code, exit_input);
  EXPECT_EQ(read_file(json), "old");
  // A finished run replaces it whole and leaves no temporary file beside it.
  ASSERT_EQ(run_cli({"run", cfg, "--json", json}).exit_code, exit_ok);
  EXPECT_EQ(read_json(json)["stopped_because"], "converged");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
}

TEST(CliRun, AFailedWriteToStandardOutputIsNotSuccess) {
  // /dev/full accepts the open and fails every write with ENOSPC, as a full disk does.
  const std::string cmd = std::string(MCPILOT_EXE) + " run " + MCPILOT_SOURCE_DIR +
                          "/configs/storage/raid6-exponential.toml --quiet > /dev/full 2>/dev/null";
  const int status = std::system(cmd.c_str());
  ASSERT_NE(status, -1);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_NE(WEXITSTATUS(status), 0);
}

TEST(CliRun, EstimatesAreIdenticalForOneAndTwoThreads) {
  const auto cfg = write_file("det.toml", normal_config());
  const auto j1 = temp("det1.json"), j2 = temp("det2.json");
  const auto r1 = temp("det1.csv"), r2 = temp("det2.csv");
  ASSERT_EQ(run_cli({"run", cfg, "--threads", "1", "--json", j1, "--raw", r1}).exit_code, exit_ok);
  ASSERT_EQ(run_cli({"run", cfg, "--threads", "2", "--json", j2, "--raw", r2}).exit_code, exit_ok);
  auto a = read_json(j1), b = read_json(j2);
  EXPECT_EQ(a["threads"], 1);
  EXPECT_EQ(b["threads"], 2);
  EXPECT_EQ(a["replications"], b["replications"]);
  EXPECT_EQ(a["rounds"], b["rounds"]);
  EXPECT_EQ(a["quantities"], b["quantities"]);  // every field, bit for bit
  EXPECT_EQ(read_file(r1), read_file(r2));
  EXPECT_GT(a["rounds"].get<int>(), 2);  // several rounds, so the round sizes were exercised
}

TEST(CliRun, SeedOptionChangesTheReadings) {
  const auto cfg = write_file("seed.toml", normal_config());
  const auto j = temp("seed.json");
  ASSERT_EQ(run_cli({"run", cfg, "--seed", "6", "--json", j}).exit_code, exit_ok);
  const auto a = read_json(j);
  EXPECT_EQ(a["seed"], 6);
  EXPECT_EQ(a["config"]["experiment"]["seed"], 6);
  ASSERT_EQ(run_cli({"run", cfg, "--json", j}).exit_code, exit_ok);
  EXPECT_NE(read_json(j)["quantities"][0]["mean"], a["quantities"][0]["mean"]);
}

TEST(CliRun, RepeatedSetOverridesAndJsonOnStdout) {
  const auto cfg = write_file("set.toml", normal_config());
  const auto o = run_cli({"run", cfg, "--set", "model.mean=20", "--set", "model.sd=2", "--json",
                          "-", "--threads", "1"});
  ASSERT_EQ(o.exit_code, exit_ok) << o.err;
  const auto j = nlohmann::json::parse(o.out);  // nothing but the JSON on stdout
  EXPECT_EQ(j["config"]["model"]["mean"], 20);
  EXPECT_EQ(j["config"]["overrides"], nlohmann::json({"model.mean=20", "model.sd=2"}));
  // N(20, 2): within 5 standard errors of 20.
  EXPECT_NEAR(j["quantities"][0]["mean"].get<double>(), 20.0,
              5 * 2 / std::sqrt(j["quantities"][0]["n"].get<double>()));
  EXPECT_NE(o.err.find("stopped: converged"), std::string::npos) << o.err;  // the table moved
}

TEST(CliRun, ProgressOnRequestAndQuietSilencesIt) {
  const auto cfg = write_file("progress.toml", normal_config());
  auto o = run_cli({"run", cfg, "--progress"});
  ASSERT_EQ(o.exit_code, exit_ok);
  EXPECT_NE(o.err.find("round 1: 0 replications"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("round 2: 100 replications"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("| x "), std::string::npos) << o.err;
  o = run_cli({"run", cfg, "--progress", "--quiet"});
  ASSERT_EQ(o.exit_code, exit_ok);
  EXPECT_EQ(o.err.find("round"), std::string::npos) << o.err;
}

TEST(CliRun, StreamStyleRawReadingsNameTheStream) {
  const auto cfg = write_file(
      "stream.toml",
      "[experiment]\nseed = 3\nstreams = 3\npreset = \"quick\"\n[model]\nname = \"test.stream\"\n");
  const auto json = temp("stream.json"), raw = temp("stream.csv");
  const auto o = run_cli({"run", cfg, "--json", json, "--raw", raw});
  ASSERT_EQ(o.exit_code, exit_ok) << o.err << o.out;
  const auto j = read_json(json);
  EXPECT_EQ(j["style"], "stream");
  EXPECT_EQ(j["streams"], 3);
  const auto lines = lines_of(read_file(raw));
  EXPECT_EQ(lines[0], "stream,index,quantity,value");
  EXPECT_EQ(lines[1].rfind("0,0,y,", 0), 0u) << lines[1];
  EXPECT_EQ(lines.size(), 1 + j["quantities"][0]["n"].get<std::size_t>());
  EXPECT_EQ(lines.back().rfind("2,", 0), 0u) << lines.back();
}

TEST(CliModels, ListsAndDescribes) {
  auto o = run_cli({"models"});
  ASSERT_EQ(o.exit_code, exit_ok);
  EXPECT_NE(o.out.find("test.normal  Normal readings for the CLI tests"), std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("test.stream"), std::string::npos) << o.out;

  o = run_cli({"describe", "test.normal"});
  ASSERT_EQ(o.exit_code, exit_ok);
  for (const char* s :
       {"style: replication", "parameters:", "mean", "number", "(0, inf)", "mean of the readings",
        "quantities (with the default parameters):", "ordinary", "one reading", "[model]",
        "name = \"test.normal\"", "fail_at = -1"})
    EXPECT_NE(o.out.find(s), std::string::npos) << s << '\n' << o.out;
  o = run_cli({"describe", "test.stream"});
  EXPECT_NE(o.out.find("style: stream"), std::string::npos) << o.out;

  o = run_cli({"describe", "storage.group"});
  EXPECT_EQ(o.exit_code, exit_input);
  EXPECT_NE(o.err.find("unknown model \"storage.group\" (known: test.normal, test.stream)"),
            std::string::npos)
      << o.err;
}

}  // namespace MCPILOT_TEST_FILE
