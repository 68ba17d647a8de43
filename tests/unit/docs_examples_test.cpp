// What docs/writing-a-model.md shows a model writer is what the framework prints (issue 37: its
// error lines had gone stale, with a location on the wrong line and text the framework does not
// add). The example M/M/1 model runs, as its own executable's main does, on a copy of
// configs/examples/mm1.toml with one value changed, and every `example-mm1: error:` line of the
// page must be one it printed; the page's configure() must be the example's code. docs/cli.md's
// `--replay` output is likewise the command's own.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "../../examples/mm1_queue/mm1_model.hpp"
#include "cli_test_support.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/registry.hpp"

namespace MCPILOT_TEST_FILE {

namespace fs = std::filesystem;
const fs::path root = MCPILOT_SOURCE_DIR;

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// stderr of `example-mm1 run configs/examples/mm1.toml`, run from a folder whose config is the
// repository's with `arrival_rate = 0.8` replaced by `value`, so that the path printed is the one
// a user in the repository would see.
std::string mm1_error_with_arrival_rate(const std::string& value) {
  const std::string original = mcpilot::test::slurp((root / "configs/examples/mm1.toml").string());
  const std::string line = "arrival_rate = 0.8";
  const auto at = original.find(line);
  if (at == std::string::npos) return "configs/examples/mm1.toml has no `" + line + "`";
  std::string edited = original;
  edited.replace(at, line.size(), "arrival_rate = " + value);
  const fs::path dir = fs::path(testing::TempDir()) / ("docs_examples_" + value);
  fs::create_directories(dir / "configs/examples");
  std::ofstream(dir / "configs/examples/mm1.toml", std::ios::binary) << edited;

  mcpilot::model_registry models;
  models.add<examples::mm1_model>("mm1");
  std::vector<std::string> args = {"example-mm1", "run", "configs/examples/mm1.toml"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  const fs::path back = fs::current_path();
  fs::current_path(dir);
  testing::internal::CaptureStderr();
  const int code = mcpilot::cli_main(static_cast<int>(argv.size()), argv.data(), models);
  std::cerr.flush();
  const std::string err = testing::internal::GetCapturedStderr();
  fs::current_path(back);
  EXPECT_EQ(code, mcpilot::exit_input) << err;
  return err;
}

TEST(DocsExamples, WritingAModelShowsTheErrorsTheExamplePrints) {
  std::string printed;
  for (const char* v : {"-1", "1.2"}) printed += mm1_error_with_arrival_rate(v);
  const auto real = lines_of(printed);
  const auto page = lines_of(mcpilot::test::slurp((root / "docs/writing-a-model.md").string()));
  std::size_t shown = 0;
  for (std::size_t i = 0; i < page.size(); ++i) {
    if (!page[i].starts_with("example-mm1: error:")) continue;
    ++shown;
    bool found = false;
    for (const auto& r : real) found = found || r == page[i];
    EXPECT_TRUE(found) << "docs/writing-a-model.md:" << i + 1 << " shows\n  " << page[i]
                       << "\nwhich the example does not print; it prints:\n"
                       << printed;
  }
  EXPECT_EQ(shown, 2u) << "the page shows two of the example's errors; the scan found " << shown;
}

TEST(DocsExamples, WritingAModelShowsTheExamplesConfigure) {
  const auto page = lines_of(mcpilot::test::slurp((root / "docs/writing-a-model.md").string()));
  const std::string header =
      mcpilot::test::slurp((root / "examples/mm1_queue/mm1_model.hpp").string());
  std::vector<std::string> code;  // the page's configure() block, lines trimmed
  for (std::size_t i = 0; i < page.size(); ++i) {
    if (!page[i].starts_with("void configure(const mcpilot::parameters& p) override {")) continue;
    for (std::size_t j = i; j < page.size() && !page[j].starts_with("```"); ++j)
      code.push_back(trimmed(page[j]));
    break;
  }
  ASSERT_GT(code.size(), 5u) << "no configure() block found in docs/writing-a-model.md";
  // The same statements in the same order; the page's indentation is its own.
  std::size_t from = 0;
  for (const auto& line : code) {
    if (line.empty()) continue;
    const auto at = header.find(line, from);
    EXPECT_NE(at, std::string::npos)
        << "not in examples/mm1_queue/mm1_model.hpp (in this order): " << line;
    if (at != std::string::npos) from = at + line.size();
  }
}

// docs/cli.md's `--replay` example is the command's real output.
TEST(DocsExamples, CliShowsWhatReplayPrints) {
  const std::string command =
      "$ build/mcpilot run configs/storage/raid6-exponential.toml --replay 123";
  const auto page = lines_of(mcpilot::test::slurp((root / "docs/cli.md").string()));
  std::string shown;
  for (std::size_t i = 0; i < page.size(); ++i) {
    if (page[i] != command) continue;
    for (std::size_t j = i + 1; j < page.size() && !page[j].starts_with("```"); ++j)
      shown += page[j] + '\n';
    break;
  }
  ASSERT_FALSE(shown.empty()) << "docs/cli.md shows no output of: " << command;
  const auto r = mcpilot::test::run_mcpilot(
      {"run", (root / "configs/storage/raid6-exponential.toml").string(), "--replay", "123"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, shown);
}

}  // namespace MCPILOT_TEST_FILE
