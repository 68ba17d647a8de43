// run_child (measure/child.hpp): what a child writes reaches the parent whole, whatever its size,
// and nothing of one run leaks into the next (its output goes to memory files kept per thread).
#include "mcpilot/measure/child.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

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

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
