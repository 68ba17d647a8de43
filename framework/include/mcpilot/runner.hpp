#pragma once
// Executes independent tasks by index. The runner knows nothing of statistics: the session asks it
// to run replications [begin, end) and gets them back stored by index. Keeping this an interface
// lets a distributed runner (MPI) split the index range across processes later.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "mcpilot/task_cancelled.hpp"

namespace mcpilot {

// A task threw. The lowest failing index of the batch is reported, whatever the thread count, so
// the same failure is reported on every run.
class task_failure : public std::runtime_error {
 public:
  task_failure(std::uint64_t index, const std::string& what)
      : std::runtime_error(what), index_(index) {}
  std::uint64_t index() const noexcept { return index_; }

 private:
  std::uint64_t index_;
};

class runner {
 public:
  virtual ~runner() = default;
  // Calls task(i) for every i in [begin, end), in any order, on any thread, and returns when all
  // are done. If any throws, every other index still runs and task_failure names the lowest.
  //
  // With `cancel`: once it reads true, indices not yet started are skipped, and a running task
  // may end itself by throwing task_cancelled, which counts as not run. The return value is k such
  // that every index in [begin, begin + k) ran, the longest such prefix, so a caller that keeps
  // only that prefix keeps a result that does not depend on timing or thread count. A failure is
  // thrown only when it lies inside what would otherwise be that prefix (every index before it
  // ran). Without cancellation k is end - begin.
  virtual std::uint64_t run(std::uint64_t begin, std::uint64_t end,
                            const std::function<void(std::uint64_t)>& task,
                            const std::atomic<bool>* cancel = nullptr) = 0;
  virtual unsigned concurrency() const = 0;
};

// oneTBB work-stealing runner with `threads` workers; 0 means all cores.
std::unique_ptr<runner> make_tbb_runner(unsigned threads);

// Runs every index on the calling thread, in order: measurement mode, where the thread is pinned
// and a second timed task at the same time would disturb the first.
std::unique_ptr<runner> make_sequential_runner();

}  // namespace mcpilot
