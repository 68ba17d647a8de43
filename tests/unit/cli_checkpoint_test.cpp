// run --checkpoint and --resume: a session stopped mid-way (a signal, or kill -9 of the process)
// and resumed gives results bit-identical to one never stopped, in replication and stream style;
// a missing, corrupted, truncated or foreign checkpoint is refused with exit 2.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/random/normal_distribution.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_support.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/registry.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;
namespace fs = std::filesystem;

// Raise SIGINT at reading `interrupt_at` only while armed, so that the same config runs through
// when resumed.
std::atomic<bool> armed{false};
// While armed, the replication `block_at` replaces this file by a folder holding a file, which no
// rename can replace, not even root's: the next checkpoint write fails.
std::string block_path;

class normal_model : public model {
 public:
  void declare(model_spec& s) const override {
    s.integer("interrupt_at", -1, "replication that raises SIGINT while armed");
    s.integer("sleep_us", 0, "wall time of each replication, so that a round can be cut");
    s.integer("block_at", -1,
              "replication that puts a folder where the checkpoint is, while armed");
    s.quantity("x");
    s.proportion("high").optional();
  }
  void configure(const parameters& p) override {
    interrupt_at_ = p.integer("interrupt_at");
    sleep_us_ = p.integer("sleep_us");
    block_at_ = p.integer("block_at");
  }
  void replicate(replication& r) const override {
    if (armed && static_cast<std::int64_t>(r.index()) == interrupt_at_) std::raise(SIGINT);
    if (armed && static_cast<std::int64_t>(r.index()) == block_at_) {
      fs::remove(block_path);
      fs::create_directories(fs::path(block_path) / "in-the-way");
    }
    if (sleep_us_ > 0) std::this_thread::sleep_for(std::chrono::microseconds(sleep_us_));
    boost::random::normal_distribution<double> d(10.0, 1.0);
    const double x = d(r.rng());
    r.record(0, x);
    r.record(1, x > 11 ? 1.0 : 0.0);
  }

 private:
  std::int64_t interrupt_at_ = -1, sleep_us_ = 0, block_at_ = -1;
};

// AR(1) streams with state (the last value), which save() and restore() carry across a resume.
class ar1_model : public model {
 public:
  explicit ar1_model(bool can_save = true) : can_save_(can_save) {}
  void declare(model_spec& s) const override {
    s.stream_style();
    s.integer("interrupt_at", -1, "reading of stream 0 that raises SIGINT while armed");
    s.quantity("y");
  }
  void configure(const parameters& p) override { interrupt_at_ = p.integer("interrupt_at"); }
  std::unique_ptr<stream> open_stream(std::uint64_t j) const override {
    return std::make_unique<ar1>(j == 0 ? interrupt_at_ : -1, can_save_);
  }

 private:
  struct ar1 : stream {
    ar1(std::int64_t at, bool can_save) : at_(at), can_save_(can_save) {}
    void advance(stream_round& round, std::size_t count) override {
      boost::random::normal_distribution<double> d(0.0, 1.0);
      for (std::size_t i = 0; i < count; ++i, ++n_) {
        if (armed && n_ == at_) std::raise(SIGINT);
        y_ = 0.5 * y_ + d(round.rng());
        round.record(0, 5.0 + y_);
      }
    }
    std::optional<std::string> save() const override {
      if (!can_save_) return std::nullopt;
      std::string s(sizeof y_ + sizeof n_, '\0');
      std::memcpy(s.data(), &y_, sizeof y_);
      std::memcpy(s.data() + sizeof y_, &n_, sizeof n_);
      return s;
    }
    void restore(std::string_view s) override {
      std::memcpy(&y_, s.data(), sizeof y_);
      std::memcpy(&n_, s.data() + sizeof y_, sizeof n_);
    }
    std::int64_t at_;
    bool can_save_;
    double y_ = 0;
    std::int64_t n_ = 0;
  };
  bool can_save_;
  std::int64_t interrupt_at_ = -1;
};

class ar1_nosave_model : public ar1_model {
 public:
  ar1_nosave_model() : ar1_model(false) {}
};

const model_registry& registry() {
  static const model_registry r = [] {
    model_registry m;
    m.add<normal_model>("ckpt.normal");
    m.add<ar1_model>("ckpt.ar1");
    m.add<ar1_nosave_model>("ckpt.ar1_nosave");
    return m;
  }();
  return r;
}

using outcome = test::run_result;

outcome run_cli(std::vector<std::string> args) {
  return test::run_in_process(registry(), std::move(args));
}

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::path(testing::TempDir()) / ("ckpt_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json read_json(const fs::path& p) {
  return nlohmann::json::parse(read_file(p));
}

// What must not differ between a resumed session and one never stopped.
void expect_same_results(const nlohmann::json& a, const nlohmann::json& b) {
  EXPECT_EQ(a["quantities"], b["quantities"]);
  EXPECT_EQ(a["replications"], b["replications"]);
  EXPECT_EQ(a["rounds"], b["rounds"]);
  EXPECT_EQ(a["stopped_because"], b["stopped_because"]);
}

void stop_and_resume(const std::string& name, const std::string& config) {
  const fs::path dir = fresh_dir(name);
  const std::string cfg = (dir / "c.toml").string(), ckpt = (dir / "c.ckpt").string();
  std::ofstream(cfg) << config;
  armed = false;
  ASSERT_EQ(run_cli({"run", cfg, "--json", (dir / "u.json").string()}).exit_code, exit_ok);

  armed = true;
  const auto stopped =
      run_cli({"run", cfg, "--checkpoint", ckpt, "--json", (dir / "s.json").string()});
  armed = false;
  ASSERT_EQ(stopped.exit_code, exit_interrupted) << stopped.err;
  ASSERT_TRUE(fs::exists(ckpt));
  // Resumed twice over: with the config named, and from the checkpoint alone on other threads.
  const auto r1 = run_cli({"run", cfg, "--resume", ckpt, "--json", (dir / "r1.json").string()});
  ASSERT_EQ(r1.exit_code, exit_ok) << r1.err;
  const auto r2 =
      run_cli({"run", "--resume", ckpt, "--threads", "1", "--json", (dir / "r2.json").string()});
  ASSERT_EQ(r2.exit_code, exit_ok) << r2.err;
  const auto u = read_json(dir / "u.json");
  EXPECT_LT(read_json(dir / "s.json")["replications"], u["replications"]);
  expect_same_results(read_json(dir / "r1.json"), u);
  expect_same_results(read_json(dir / "r2.json"), u);
}

TEST(Checkpoint, ReplicationStyleResumesBitIdentical) {
  // A 1% width on Normal(10, 1) needs ~1537 readings: rounds of 100, 400, ... The signal at
  // replication 700 stops the session after two checkpointed rounds.
  stop_and_resume("replication",
                  "[experiment]\nseed = 3\nthreads = 2\nci_perc = 0.01\n"
                  "[model]\nname = \"ckpt.normal\"\ninterrupt_at = 700\n");
}

// The signal lands early in a round of slow replications, so the round is cut part-way: the
// checkpoint must still be the last whole round's end, not the cut state.
TEST(Checkpoint, ACutRoundIsNotCheckpointed) {
  stop_and_resume("cut",
                  "[experiment]\nseed = 3\nthreads = 2\nci_perc = 0.01\n"
                  "[model]\nname = \"ckpt.normal\"\ninterrupt_at = 120\nsleep_us = 2000\n");
}

// A checkpoint write that fails in the middle of a session (docs/cli.md: a full disk) is a
// warning: the session goes on with every reading and ends as one never disturbed. Rounds of
// 100, 400, ... with a checkpoint after each: replication 150, in the second round, puts a
// folder where the checkpoint was, and every later write fails.
TEST(Checkpoint, AWriteThatFailsMidSessionIsAWarning) {
  const fs::path dir = fresh_dir("fails");
  const std::string cfg = (dir / "c.toml").string(), ckpt = (dir / "c.ckpt").string();
  std::ofstream(cfg) << "[experiment]\nseed = 3\nthreads = 2\nci_perc = 0.01\n"
                        "[model]\nname = \"ckpt.normal\"\nblock_at = 150\n";
  armed = false;
  ASSERT_EQ(run_cli({"run", cfg, "--json", (dir / "u.json").string()}).exit_code, exit_ok);
  block_path = ckpt;
  armed = true;
  const auto r = run_cli({"run", cfg, "--checkpoint", ckpt, "--checkpoint-every", "0", "--json",
                          (dir / "s.json").string()});
  armed = false;
  ASSERT_EQ(r.exit_code, exit_ok) << r.err;
  EXPECT_NE(r.err.find("warning: --checkpoint " + ckpt), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the previous checkpoint is kept"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_directory(ckpt)) << "the folder was not in the way: this tests nothing";
  const auto s = read_json(dir / "s.json"), u = read_json(dir / "u.json");
  EXPECT_GT(s["rounds"].get<int>(), 2) << "no round ended after the folder was put there";
  // With --checkpoint-every 0 a write follows every round but the last (`rounds` counts the
  // engine's looks, the first before any replication). The first two, at 0 and 100 readings,
  // come before replication 150; every later one tries again, and fails.
  std::size_t warnings = 0;
  for (std::size_t at = 0; (at = r.err.find("warning:", at)) != std::string::npos; ++at) ++warnings;
  EXPECT_EQ(warnings, s["rounds"].get<std::size_t>() - 3) << r.err;
  expect_same_results(s, u);
}

TEST(Checkpoint, StreamStyleResumesBitIdentical) {
  stop_and_resume("stream",
                  "[experiment]\nseed = 4\nthreads = 2\nstreams = 3\nci_perc = 0.02\n"
                  "[model]\nname = \"ckpt.ar1\"\ninterrupt_at = 900\n");
}

TEST(Checkpoint, BadCheckpointsAndMisuseExitTwo) {
  const fs::path dir = fresh_dir("bad");
  const std::string cfg = (dir / "c.toml").string(), ckpt = (dir / "c.ckpt").string();
  const std::string text =
      "[experiment]\nseed = 3\nci_perc = 0.01\n[model]\nname = \"ckpt.normal\"\n";
  std::ofstream(cfg) << text;
  armed = false;
  ASSERT_EQ(run_cli({"run", cfg, "--checkpoint", ckpt, "--checkpoint-every", "0"}).exit_code,
            exit_ok);
  const std::string good = read_file(ckpt);
  ASSERT_GT(good.size(), 100u);
  auto expect_refused = [&](const std::vector<std::string>& args, const std::string& why) {
    const auto o = run_cli(args);
    EXPECT_EQ(o.exit_code, exit_input) << why;
    EXPECT_NE(o.err.find(why), std::string::npos) << o.err;
  };
  expect_refused({"run", "--resume", (dir / "missing.ckpt").string()}, "cannot open");
  std::ofstream(dir / "json.ckpt") << "{\"not\": \"a checkpoint\"}";
  expect_refused({"run", "--resume", (dir / "json.ckpt").string()}, "not an mcpilot checkpoint");
  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 0x20;
  std::ofstream(dir / "flipped.ckpt", std::ios::binary) << flipped;
  expect_refused({"run", "--resume", (dir / "flipped.ckpt").string()}, "checksum");
  std::ofstream(dir / "short.ckpt", std::ios::binary) << good.substr(0, good.size() - 100);
  expect_refused({"run", "--resume", (dir / "short.ckpt").string()}, "checksum");
  // Another config, or a changed one.
  std::ofstream(dir / "other.toml") << text << "interrupt_at = 5\n";
  expect_refused({"run", (dir / "other.toml").string(), "--resume", ckpt}, "another config");
  expect_refused({"run", "--resume", ckpt, "--set", "experiment.seed=9"}, "cannot change");
  // A stream model that cannot save its state, and a folder nothing can write in, before any work.
  std::ofstream(dir / "nosave.toml") << "[model]\nname = \"ckpt.ar1_nosave\"\n";
  expect_refused({"run", (dir / "nosave.toml").string(), "--checkpoint", ckpt},
                 "cannot be checkpointed");
  const auto o = run_cli({"run", cfg, "--checkpoint", "/proc/mcpilot-no/c.ckpt"});
  EXPECT_EQ(o.exit_code, exit_input);
  EXPECT_NE(o.err.find("--checkpoint"), std::string::npos) << o.err;
  EXPECT_EQ(o.out.find("stopped:"), std::string::npos) << "no session should have run";
  expect_refused({"run", cfg, "--checkpoint", ckpt, "--json", ckpt}, "same file");
}

// The real thing: the mcpilot executable killed with SIGKILL at several moments, then resumed.
// The moments are fractions of an uninterrupted run's own wall time, so that they fall inside the
// session under a sanitizer (about 6x slower) as on a plain build; 200 groups instead of the
// config's 1,000 keep its six rounds and cut each run to a fifth.
TEST(Checkpoint, KilledProcessResumesBitIdentical) {
  const fs::path dir = fresh_dir("kill");
  const std::string exe = MCPILOT_EXE;
  const std::string cfg = std::string(MCPILOT_SOURCE_DIR) + "/configs/storage/replication3.toml";
  const std::string smaller = " --set model.groups=200";
  const std::string reference = (dir / "u.json").string();
  const auto started = std::chrono::steady_clock::now();
  ASSERT_EQ(
      std::system(
          (exe + " run " + cfg + smaller + " --quiet --json " + reference + " >/dev/null").c_str()),
      0);
  const auto whole = std::chrono::steady_clock::now() - started;
  const auto u = read_json(reference);
  int resumed = 0;
  for (const double fraction : {0.15, 0.35, 0.6, 0.85}) {
    SCOPED_TRACE(fraction);
    const std::string name = std::to_string(static_cast<int>(fraction * 100));
    const std::string ckpt = (dir / ("k" + name + ".ckpt")).string();
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      const int null = ::open("/dev/null", O_WRONLY);
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
      execl(exe.c_str(), exe.c_str(), "run", cfg.c_str(), "--set", "model.groups=200", "--quiet",
            "--checkpoint", ckpt.c_str(), "--checkpoint-every", "0", static_cast<char*>(nullptr));
      _exit(127);
    }
    std::this_thread::sleep_for(
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(whole * fraction));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!fs::exists(ckpt)) continue;  // killed before the first checkpoint: nothing to resume
    const std::string out = (dir / ("r" + name + ".json")).string();
    ASSERT_EQ(
        std::system(
            (exe + " run --resume " + ckpt + " --quiet --json " + out + " >/dev/null").c_str()),
        0);
    expect_same_results(read_json(out), u);
    ++resumed;
  }
  // The first checkpoint follows the first round, about 2% of the work: the kills at 60% and 85%
  // land after it on any machine.
  EXPECT_GE(resumed, 2) << "fewer than two kills landed after a checkpoint";
}

}  // namespace MCPILOT_TEST_FILE
