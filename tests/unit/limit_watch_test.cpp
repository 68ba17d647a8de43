// The session's limit watcher: it cuts at the deadline and at a raised stop flag, and sleeps
// between them without waking (a wake on a study pinned to one core preempts the timed code).

#include "limit_watch.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "mcpilot/stop_flag.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;
using namespace std::chrono_literals;

// Voluntary context switches of the whole process (every thread), from /proc.
long voluntary_switches() {
  long total = 0;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "status");
    for (std::string line; std::getline(in, line);)
      if (line.rfind("voluntary_ctxt_switches:", 0) == 0) total += std::stol(line.substr(24));
  }
  return total;
}

template <class Pred>
bool within(std::chrono::milliseconds limit, Pred pred) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

TEST(LimitWatch, CutsWhenTheStopFlagIsRaised) {
  stop_flag stop;
  limit_watch watch(limit_watch::clock_type::time_point::max(), &stop);
  EXPECT_FALSE(watch.cut().load());
  EXPECT_FALSE(stop.raise());  // first raise: not raised before
  EXPECT_TRUE(stop.raise());
  EXPECT_TRUE(within(5000ms, [&] { return watch.cut().load(); }));
  EXPECT_FALSE(watch.cut_by_time());
}

TEST(LimitWatch, CutsAtTheDeadline) {
  limit_watch watch(limit_watch::deadline(limit_watch::clock_type::now(), 0.05), nullptr);
  EXPECT_TRUE(within(5000ms, [&] { return watch.cut().load(); }));
  EXPECT_TRUE(watch.cut_by_time());
}

TEST(LimitWatch, AClearedFlagNeitherCutsNorKeepsTheWatcherAwake) {
  stop_flag stop;
  stop.raise();
  stop.clear();
  EXPECT_FALSE(stop.raised());
  limit_watch watch(limit_watch::clock_type::time_point::max(), &stop);
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(watch.cut().load());
}

// 300 ms of an idle watch: the old watcher looked at the flag every 20 ms (15 wakes, each a
// voluntary switch); this one sleeps in poll(2). The main thread's own sleep is one or two.
TEST(LimitWatch, SleepsUntilThereIsAReason) {
  stop_flag stop;
  limit_watch watch(limit_watch::clock_type::time_point::max(), &stop);
  std::this_thread::sleep_for(20ms);  // the thread has started and is asleep
  const long before = voluntary_switches();
  std::this_thread::sleep_for(300ms);
  EXPECT_LE(voluntary_switches() - before, 5);
  EXPECT_FALSE(watch.cut().load());
}

}  // namespace MCPILOT_TEST_FILE
