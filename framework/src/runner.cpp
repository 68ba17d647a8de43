#include "mcpilot/runner.hpp"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
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
    arena_.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::uint64_t>(begin, end),
                        [&](const tbb::blocked_range<std::uint64_t>& r) {
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
