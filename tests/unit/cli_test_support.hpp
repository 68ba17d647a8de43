#pragma once
// Runs the built `mcpilot` executable (MCPILOT_EXE) the way a user would, with temporary input
// files, and captures its exit code, stdout and stderr separately.

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mcpilot/cli.hpp"
#include "mcpilot/registry.hpp"

namespace mcpilot::test {

// A file that exists for the test's lifetime.
class temp_file {
 public:
  explicit temp_file(const std::string& content, const std::string& suffix = ".csv") {
    static std::atomic<int> counter{0};
    path_ =
        (std::filesystem::temp_directory_path() /
         ("mcpilot-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + suffix))
            .string();
    std::ofstream(path_, std::ios::binary) << content;
  }
  ~temp_file() { std::filesystem::remove(path_); }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A path in gtest's temporary folder, for tests whose files need stable names (outputs beside
// them, messages that print them); temp_file for anonymous ones.
inline std::string temp_path(const std::string& name) {
  return testing::TempDir() + "/" + name;
}

// Writes `text` to `path` and returns the path.
inline std::string write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct run_result {
  int exit_code = -1;
  std::string out, err;
};

// mcpilot ARGS... < stdin_text
inline run_result run_mcpilot(const std::vector<std::string>& args,
                              const std::string& stdin_text = "") {
  const temp_file in(stdin_text, ".in"), out("", ".out"), err("", ".err");
  std::string cmd = shell_quote(MCPILOT_EXE);
  for (const auto& a : args) cmd += ' ' + shell_quote(a);
  cmd += " <" + shell_quote(in.path()) + " >" + shell_quote(out.path()) + " 2>" +
         shell_quote(err.path());
  const int status = std::system(cmd.c_str());
  run_result r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out.path());
  r.err = slurp(err.path());
  return r;
}

// mcpilot::cli_main ARGS... in this process, with a registry of test models; stdout and stderr
// captured (gtest). For tests whose models exist only in the test binary.
inline run_result run_in_process(const model_registry& models, std::vector<std::string> args) {
  args.insert(args.begin(), "mcpilot");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  run_result r;
  r.exit_code = cli_main(static_cast<int>(argv.size()), argv.data(), models);
  std::cout.flush();
  std::cerr.flush();
  r.out = testing::internal::GetCapturedStdout();
  r.err = testing::internal::GetCapturedStderr();
  return r;
}

// One reading per line, with a header.
template <class Range>
std::string column_csv(const Range& values, const std::string& header = "x") {
  std::ostringstream s;
  s.precision(17);
  if (!header.empty()) s << header << '\n';
  for (double v : values) s << v << '\n';
  return s.str();
}

}  // namespace mcpilot::test
