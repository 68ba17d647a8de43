// A stop request, however many times it arrives, ends with every output written (issue 36.2).
// `timeout 5 mcpilot run ...` signals the process and then its whole group, so the process gets
// SIGTERM twice; when the second one killed it, 5 runs in 6 left no output at all.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "cli_test_support.hpp"

namespace MCPILOT_TEST_FILE {

namespace fs = std::filesystem;
using mcpilot::test::slurp;
using mcpilot::test::write_text;

// A session that would run for its whole 60 s: no interval gets to 0.01% of its mean in that time.
const std::string long_config = R"([experiment]
name = "long"
seed = 3
ci_perc = 0.0001
max_seconds = 60
threads = 2

[model]
name = "storage.group"
disks = 3
tolerance = 1
lifetime = { distribution = "exponential", mean_hours = 100 }
repair = { distribution = "exponential", mean_hours = 1 }
)";

// Starts mcpilot in a process group of its own, signals the group `times` times `gap` apart once
// `after` has passed, and returns the exit status.
int run_and_signal(const std::vector<std::string>& args, std::chrono::milliseconds after, int times,
                   std::chrono::milliseconds gap, const std::string& err_path) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    std::vector<char*> argv;
    std::string exe = MCPILOT_EXE;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (std::freopen(err_path.c_str(), "w", stderr) == nullptr) ::_exit(126);
    if (std::freopen("/dev/null", "w", stdout) == nullptr) ::_exit(126);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // as the child does: whichever runs first, the group exists
  std::this_thread::sleep_for(after);
  for (int i = 0; i < times; ++i) {
    ::kill(-pid, SIGTERM);
    std::this_thread::sleep_for(gap);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(StopSignals, TwoSigtermsToTheGroupStillWriteEveryOutput) {
  const fs::path dir = mcpilot::test::temp_path("stop-signals");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string cfg = write_text((dir / "long.toml").string(), long_config);
  for (int attempt = 0; attempt < 3; ++attempt) {
    SCOPED_TRACE(attempt);
    const std::string json = (dir / "out.json").string(), raw = (dir / "r.csv").string();
    const std::string err = (dir / "err.txt").string();
    fs::remove(json);
    fs::remove(raw);
    const int code = run_and_signal({"run", cfg, "--quiet", "--json", json, "--raw", raw},
                                    std::chrono::milliseconds(700 + 200 * attempt), 2,
                                    std::chrono::milliseconds(10), err);
    EXPECT_EQ(code, 130) << slurp(err);
    ASSERT_TRUE(fs::exists(json)) << slurp(err);
    const auto j = nlohmann::json::parse(slurp(json));
    EXPECT_EQ(j["stopped_because"], "interrupted");
    // Every reading the JSON counts is a row of the raw file (a header line, one row each).
    const std::string rows = slurp(raw);
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows.back(), '\n');
    const auto lines = static_cast<std::uint64_t>(std::count(rows.begin(), rows.end(), '\n'));
    EXPECT_EQ(lines - 1, j["replications"].get<std::uint64_t>()) << rows.substr(0, 200);
    // The message is said once, however many signals came.
    const std::string said = slurp(err);
    EXPECT_EQ(said.find("interrupted: finishing"), said.rfind("interrupted: finishing")) << said;
  }
  fs::remove_all(dir);
}

}  // namespace MCPILOT_TEST_FILE
