#include "mcpilot/runner.hpp"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <mutex>
#include <optional>
#include <vector>

namespace mcpilot {

namespace {

class tbb_runner final : public runner {
 public:
  explicit tbb_runner(unsigned threads)
      : threads_(threads == 0 ? static_cast<unsigned>(tbb::info::default_concurrency()) : threads),
        limit_(tbb::global_control::max_allowed_parallelism, threads_),
        arena_(static_cast<int>(threads_)) {}

  std::uint64_t run(std::uint64_t begin, std::uint64_t end,
                    const std::function<void(std::uint64_t)>& task,
                    const std::atomic<bool>* cancel) override {
    std::mutex m;
    std::optional<task_failure> first;
    // Which indices ran to completion; only needed when a cancellation can leave holes.
    std::vector<unsigned char> ran(cancel ? end - begin : 0, 0);
    // oneTBB's wait orders everything the workers did before parallel_for returns, but Debian's
    // libtbb is not instrumented, so ThreadSanitizer cannot see that order; it reported the
    // task's destruction after a cancelled replication as a race, once the worker's long history
    // had pushed out the stack the suppression matches on. One release per range, read with
    // acquire below, makes the order visible: an atomic add per range, not per index.
    std::atomic<std::uint64_t> ranges_done{0};
    struct publish_on_exit {
      std::atomic<std::uint64_t>& count;
      ~publish_on_exit() { count.fetch_add(1, std::memory_order_release); }
    };
    arena_.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::uint64_t>(begin, end),
                        [&](const tbb::blocked_range<std::uint64_t>& r) {
                          const publish_on_exit publish{ranges_done};
                          for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
                            if (cancel && cancel->load(std::memory_order_relaxed)) return;
                            try {
                              task(i);
                              if (cancel) ran[i - begin] = 1;
                            } catch (const task_cancelled&) {
                              return;  // not run: it ends the prefix
                            } catch (const std::exception& e) {
                              std::lock_guard lock(m);
                              if (!first || i < first->index()) first.emplace(i, e.what());
                            } catch (...) {
                              std::lock_guard lock(m);
                              if (!first || i < first->index())
                                first.emplace(i, "unknown exception");
                            }
                          }
                        });
    });
    (void)ranges_done.load(std::memory_order_acquire);
    std::uint64_t prefix = end - begin;
    if (cancel)
      prefix = static_cast<std::uint64_t>(std::find(ran.begin(), ran.end(), 0) - ran.begin());
    if (first && first->index() - begin <= prefix) throw *first;
    return prefix;
  }

  unsigned concurrency() const override { return threads_; }

 private:
  unsigned threads_;
  // Without it oneTBB caps its workers at the core count and --threads 8 on 2 cores would
  // silently run 2.
  tbb::global_control limit_;
  tbb::task_arena arena_;
};

}  // namespace

std::unique_ptr<runner> make_tbb_runner(unsigned threads) {
  return std::make_unique<tbb_runner>(threads);
}

}  // namespace mcpilot
