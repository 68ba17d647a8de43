// The model writer's path (issue 37): `run CONFIG --replay K` gives replication K's readings alone,
// the same readings the session recorded for K (read back from its --raw file), and the same
// failure; a stream's replay reaches the failing reading; a sweep's point replays with --point.
// Beside it, the messages a model's own bugs get: a parameter read as another type than declared
// names the model's calls, not a line of the config, and `record` of an undeclared name lists the
// declared ones.
#include <gtest/gtest.h>

#include <boost/random/uniform_real_distribution.hpp>

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/registry.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;

// Uniform readings in [0, scale); replication `fail_at` records `x` and then throws.
class uniform_model : public model {
 public:
  void declare(model_spec& s) const override {
    s.describe("uniform readings for the replay tests");
    s.number("scale", 1, "upper end of the readings").positive();
    s.integer("fail_at", -1, "replication that throws (-1: none)");
    s.quantity("x");
    s.quantity("y");
  }
  void configure(const parameters& p) override {
    scale_ = p.number("scale");
    fail_at_ = p.integer("fail_at");
  }
  void replicate(replication& r) const override {
    boost::random::uniform_real_distribution<double> u(0, scale_);
    r.record("x", u(r.rng()));
    if (static_cast<std::int64_t>(r.index()) == fail_at_) throw std::runtime_error("bad luck");
    r.record("y", u(r.rng()));
  }

 private:
  double scale_ = 1;
  std::int64_t fail_at_ = -1;
};

// A stream whose reading number `fail_at` (counted from its start) throws, in stream 1 only.
class failing_stream_model : public model {
 public:
  void declare(model_spec& s) const override {
    s.describe("a stream that fails at a given reading");
    s.stream_style();
    s.integer("fail_at", 5000, "reading of stream 1 that throws");
    s.quantity("w");
  }
  void configure(const parameters& p) override { fail_at_ = p.integer("fail_at"); }
  std::unique_ptr<stream> open_stream(std::uint64_t j) const override {
    struct counting : stream {
      std::uint64_t j, fail_at, n = 0;
      counting(std::uint64_t j_, std::uint64_t f) : j(j_), fail_at(f) {}
      void advance(stream_round& r, std::size_t count) override {
        boost::random::uniform_real_distribution<double> u(0, 1);
        for (std::size_t i = 0; i < count; ++i, ++n) {
          if (j == 1 && n == fail_at) throw std::runtime_error("stream ran dry");
          r.record(0, u(r.rng()));
        }
      }
    };
    return std::make_unique<counting>(j, static_cast<std::uint64_t>(fail_at_));
  }

 private:
  std::int64_t fail_at_ = 5000;
};

// Bugs in a model's own code: `mistake` picks one.
class buggy_model : public model {
 public:
  void declare(model_spec& s) const override {
    s.describe("a model with a bug of its choosing");
    s.number("mean_hours", 10, "declared as a number").positive();
    s.choice("mistake", "integer", {"integer", "record"}, "which bug");
    s.quantity("time_to_loss");
    s.quantity("losses");
  }
  void configure(const parameters& p) override {
    record_ = p.string("mistake") == "record";
    if (!record_) (void)p.integer("mean_hours");
  }
  void replicate(replication& r) const override {
    r.record("time_to_loss", 1.0);
    r.record(record_ ? "loss" : "losses", 1.0);
  }

 private:
  bool record_ = false;
};

const model_registry& registry() {
  static const model_registry r = [] {
    model_registry m;
    m.add<uniform_model>("test.uniform");
    m.add<failing_stream_model>("test.failing_stream");
    m.add<buggy_model>("test.buggy");
    return m;
  }();
  return r;
}

test::run_result run_cli(std::vector<std::string> args) {
  return test::run_in_process(registry(), std::move(args));
}

std::string config(const std::string& name, const std::string& text) {
  return test::write_text(test::temp_path("cli_replay_" + name), text);
}

// "  NAME = VALUE" in a replay's output, as a double.
double printed(const std::string& out, const std::string& name) {
  const std::string key = "  " + name + " = ";
  const auto at = out.find(key);
  if (at == std::string::npos) throw std::runtime_error(name + " not printed in:\n" + out);
  return std::stod(out.substr(at + key.size()));
}

// Readings of replication `index` in a --raw file ("index,quantity,value" rows).
std::vector<double> raw_readings(const std::string& raw, std::uint64_t index) {
  std::vector<double> out;
  std::istringstream in(test::slurp(raw));
  const std::string prefix = std::to_string(index) + ",";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) out.push_back(std::stod(line.substr(line.rfind(',') + 1)));
  return out;
}

const char* const uniform_config =
    "[experiment]\nseed = 11\nthreads = 2\nci_perc = 0.2\nmax_replications = 400\n"
    "[model]\nname = \"test.uniform\"\n";

TEST(CliReplay, AReplicationReplaysTheReadingsTheSessionRecordedForIt) {
  const auto cfg = config("uniform.toml", uniform_config);
  const auto raw = test::temp_path("cli_replay_uniform.csv");
  const auto session = run_cli({"run", cfg, "--raw", raw, "--quiet"});
  ASSERT_NE(session.exit_code, exit_input) << session.err;
  for (const std::uint64_t k : {0u, 7u, 99u}) {
    const auto in_session = raw_readings(raw, k);
    ASSERT_EQ(in_session.size(), 2u) << "replication " << k << " in " << raw;
    const auto o = run_cli({"run", cfg, "--replay", std::to_string(k)});
    ASSERT_EQ(o.exit_code, exit_ok) << o.err;
    EXPECT_NE(o.out.find("replication " + std::to_string(k) + " of test.uniform alone (seed 11"),
              std::string::npos)
        << o.out;
    EXPECT_EQ(printed(o.out, "x"), in_session[0]) << "replication " << k;
    EXPECT_EQ(printed(o.out, "y"), in_session[1]) << "replication " << k;
  }
  // Another seed is another replication: --seed applies as in the session.
  const auto other = run_cli({"run", cfg, "--replay", "7", "--seed", "12"});
  ASSERT_EQ(other.exit_code, exit_ok) << other.err;
  EXPECT_NE(printed(other.out, "x"), raw_readings(raw, 7)[0]);
}

TEST(CliReplay, TheSessionsFailureNamesTheCommandAndTheReplayFailsTheSameWay) {
  const auto cfg = config("fail.toml", std::string(uniform_config) + "fail_at = 37\n");
  const auto session = run_cli({"run", cfg, "--quiet"});
  ASSERT_EQ(session.exit_code, exit_input) << session.err;
  EXPECT_NE(session.err.find("replication 37 (seed 11) failed: bad luck"), std::string::npos)
      << session.err;
  EXPECT_NE(session.err.find("the same command with --replay 37"), std::string::npos)
      << session.err;
  const auto o = run_cli({"run", cfg, "--replay", "37"});
  EXPECT_EQ(o.exit_code, exit_input);
  EXPECT_NE(o.err.find("replication 37 (seed 11) failed: bad luck"), std::string::npos) << o.err;
  // What it recorded before throwing is shown, as a debugger's user would want it.
  EXPECT_NE(o.out.find("  x = "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("(recorded before the failure)"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("  y = "), std::string::npos) << o.out;
}

TEST(CliReplay, AStreamReplaysToTheReadingThatFailed) {
  const auto cfg = config("stream.toml",
                          "[experiment]\nseed = 4\nstreams = 3\nci_perc = 0.001\n"
                          "max_replications = 1_000_000\n[model]\nname = \"test.failing_stream\"\n"
                          "fail_at = 6000\n");
  const auto session = run_cli({"run", cfg, "--quiet"});
  ASSERT_EQ(session.exit_code, exit_input) << session.err;
  EXPECT_NE(session.err.find("stream 1 (seed 4) failed: stream ran dry"), std::string::npos)
      << session.err;
  EXPECT_NE(session.err.find("--replay 1"), std::string::npos) << session.err;
  const auto o = run_cli({"run", cfg, "--replay", "1"});
  EXPECT_EQ(o.exit_code, exit_input);
  EXPECT_NE(o.out.find("w: 6000 readings; the last 10:"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("stream 1 (seed 4) failed: stream ran dry"), std::string::npos) << o.err;
  // A healthy stream runs to the budget.
  const auto fine =
      run_cli({"run", cfg, "--replay", "0", "--set", "experiment.max_replications=9000"});
  EXPECT_EQ(fine.exit_code, exit_ok) << fine.err;
  EXPECT_NE(fine.out.find("w: 9000 readings"), std::string::npos) << fine.out;
  const auto absent = run_cli({"run", cfg, "--replay", "3"});
  EXPECT_EQ(absent.exit_code, exit_input);
  EXPECT_NE(absent.err.find("runs 3 streams (0 to 2)"), std::string::npos) << absent.err;
}

TEST(CliReplay, ASweepReplaysAPointsReplicationWithThePointsSeed) {
  const auto cfg =
      config("sweep.toml", std::string(uniform_config) + "[sweep]\n\"model.scale\" = [1, 1000]\n");
  auto o = run_cli({"run", cfg, "--replay", "3"});
  EXPECT_EQ(o.exit_code, exit_input);
  EXPECT_NE(o.err.find("with --point K --replay 3"), std::string::npos) << o.err;
  const auto raw = test::temp_path("cli_replay_point.csv");
  const auto point = run_cli({"run", cfg, "--point", "1", "--raw", raw, "--quiet"});
  ASSERT_NE(point.exit_code, exit_input) << point.err;
  o = run_cli({"run", cfg, "--point", "1", "--replay", "3"});
  ASSERT_EQ(o.exit_code, exit_ok) << o.err;
  EXPECT_EQ(printed(o.out, "x"), raw_readings(raw, 3)[0]);
  EXPECT_GT(printed(o.out, "x"), 1.0) << "scale 1000 at point 1; 1 is point 0's";
}

TEST(CliReplay, OutputsOfASessionAreRefused) {
  const auto cfg = config("refused.toml", uniform_config);
  for (const char* option : {"--json", "--raw", "--plot"}) {
    const auto o = run_cli({"run", cfg, "--replay", "1", option, test::temp_path("x")});
    EXPECT_EQ(o.exit_code, exit_input) << option;
    EXPECT_NE(o.err.find(std::string(option) + " describes a session"), std::string::npos) << o.err;
  }
}

TEST(ModelBugs, AParameterReadAsAnotherTypeNamesTheModelsCallsNotTheConfig) {
  const auto cfg = config("buggy.toml",
                          "[experiment]\nseed = 1\n[model]\nname = \"test.buggy\"\n"
                          "mean_hours = 12\n");
  const auto o = run_cli({"run", cfg});
  EXPECT_EQ(o.exit_code, exit_input);
  EXPECT_NE(o.err.find("model test.buggy: the model's configure() read mean_hours with "
                       "p.integer(), but the model's declare() declares it a number (s.number)"),
            std::string::npos)
      << o.err;
  EXPECT_EQ(o.err.find(cfg + ":"), std::string::npos) << "no line of the config is to blame";
}

TEST(ModelBugs, RecordOfAnUndeclaredNameListsTheDeclaredOnes) {
  const auto cfg = config("record.toml",
                          "[experiment]\nseed = 1\n[model]\nname = \"test.buggy\"\n"
                          "mistake = \"record\"\n");
  const auto o = run_cli({"run", cfg, "--quiet"});
  EXPECT_EQ(o.exit_code, exit_input);
  EXPECT_NE(o.err.find("record: no quantity named loss (declared: time_to_loss, losses)"),
            std::string::npos)
      << o.err;
}

}  // namespace MCPILOT_TEST_FILE
