// run_child (measure/child.hpp): what a child writes reaches the parent whole, whatever its size,
// and nothing of one run leaks into the next (its output goes to memory files kept per thread).
#include "mcpilot/measure/child.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

namespace fs = std::filesystem;

child_result sh(const std::string& script, bool capture) {
  child_options o;
  o.capture_stdout = capture;
  return run_child({"/bin/sh", "-c", script}, o);
}

TEST(Child, OutputLargerThanAPipeArrivesWhole) {
  // 200,000 bytes: three times a pipe's 64 KiB, which a child could not write into an undrained
  // pipe without blocking.
  const auto r = sh("head -c 200000 /dev/zero | tr '\\0' x", true);
  ASSERT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output, std::string(200000, 'x'));
  const auto next = sh("echo hi", true);
  EXPECT_EQ(next.output, "hi\n");  // nothing left over from the run before
}

TEST(Child, StderrTailOfAFailureAndNothingAfterIt) {
  const auto r =
      sh("echo first >&2; head -c 10000 /dev/zero | tr '\\0' e >&2; echo end >&2; exit 3", false);
  EXPECT_EQ(r.exit_code, 3);
  ASSERT_EQ(r.stderr_tail.size(), 4096u);  // the last 4 KiB: the end of a long log
  EXPECT_EQ(r.stderr_tail.substr(r.stderr_tail.size() - 4), "end\n");
  EXPECT_EQ(r.output, "");  // stdout not captured
  const auto next = sh("exit 0", false);
  EXPECT_EQ(next.stderr_tail, "");
  EXPECT_EQ(next.exit_code, 0);
}

TEST(Child, AProgramThatCannotStartSaysWhy) {
  const auto r = run_child({"/nonexistent/program"}, child_options{});
  EXPECT_FALSE(r.started);
  EXPECT_FALSE(r.start_error.empty());
}

// The spawn's descriptor actions are kept per thread while the descriptors stay the same: runs
// that alternate capturing stdout, and an input file opened per run, must each get their own.
TEST(Child, EachRunGetsItsOwnDescriptorsWhenTheyChange) {
  const fs::path in = fs::temp_directory_path() / "mcpilot-child-input.txt";
  std::ofstream(in) << "from the file\n";
  for (int k = 0; k < 3; ++k) {
    const auto quiet = sh("echo not captured", false);
    EXPECT_EQ(quiet.output, "");
    const auto loud = sh("echo captured", true);
    EXPECT_EQ(loud.output, "captured\n");
    child_options o;
    o.capture_stdout = true;
    o.input_file = in.string();
    const auto read = run_child({"/bin/sh", "-c", "cat"}, o);
    EXPECT_EQ(read.output, "from the file\n");
    o.input_file.clear();
    const auto empty = run_child({"/bin/sh", "-c", "cat"}, o);  // stdin is /dev/null again
    EXPECT_EQ(empty.output, "");
  }
  fs::remove(in);
}

// The PATH search is execvp's, done once: the first regular, executable file, an empty entry
// meaning the current folder; a name with a '/' is not searched.
TEST(Child, FindOnPathFollowsExecvpsRules) {
  const fs::path dir = fs::path(testing::TempDir()) / "child_path";
  fs::remove_all(dir);
  fs::create_directories(dir / "a");
  fs::create_directories(dir / "b");
  for (const char* d : {"a", "b"}) {
    std::ofstream(dir / d / "prog") << "#!/bin/sh\necho " << d << "\n";
  }
  fs::permissions(dir / "a" / "prog", fs::perms::owner_read | fs::perms::owner_write);  // not x
  fs::permissions(dir / "b" / "prog", fs::perms::owner_all);
  fs::create_directories(dir / "c" / "prog");  // a folder of that name is skipped too
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  const std::string path =
      (dir / "c").string() + ":" + (dir / "a").string() + ":" + (dir / "b").string();
  setenv("PATH", path.c_str(), 1);
  const auto found = find_on_path("prog");
  const auto missing = find_on_path("no-such-program-of-mcpilot");
  setenv("PATH", (":" + (dir / "c").string()).c_str(), 1);  // "" first: the current folder
  const fs::path cwd = fs::current_path();
  fs::current_path(dir / "b");
  const auto here = find_on_path("prog");
  fs::current_path(cwd);
  setenv("PATH", saved.c_str(), 1);
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, (dir / "b" / "prog").string());
  EXPECT_FALSE(missing);
  ASSERT_TRUE(here);
  EXPECT_EQ(*here, "./prog");
  EXPECT_FALSE(find_on_path("/bin/sh"));
  EXPECT_FALSE(find_on_path("./prog"));
}

// Spawned from the path found, the child still sees argv[0] as typed (a program may act on it).
TEST(Child, ArgvZeroIsPassedAsTyped) {
  child_options o;
  o.capture_stdout = true;
  const auto r = run_child({"sh", "-c", "echo $0"}, o);
  ASSERT_TRUE(r.started) << r.start_error;
  EXPECT_EQ(r.output, "sh\n");
  const auto none = run_child({"no-such-program-of-mcpilot"}, child_options{});
  EXPECT_FALSE(none.started);
  EXPECT_NE(none.start_error.find("No such file"), std::string::npos) << none.start_error;
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
