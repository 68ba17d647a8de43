#include <optional>

#include "mcpilot/runner.hpp"

namespace mcpilot {

namespace {

class sequential_runner final : public runner {
 public:
  std::uint64_t run(std::uint64_t begin, std::uint64_t end,
                    const std::function<void(std::uint64_t)>& task,
                    const std::atomic<bool>* cancel) override {
    // Same contract as the parallel runner: every index runs, the lowest failure is reported;
    // a cancellation stops before the next index, so what ran is always a prefix.
    std::optional<task_failure> first;
    std::uint64_t i = begin;
    for (; i < end; ++i) {
      if (cancel && cancel->load(std::memory_order_relaxed)) break;
      try {
        task(i);
      } catch (const task_cancelled&) {
        break;  // not run: it ends the prefix
      } catch (const std::exception& e) {
        if (!first) first.emplace(i, e.what());
      } catch (...) {
        if (!first) first.emplace(i, "unknown exception");
      }
    }
    if (first) throw *first;
    return i - begin;
  }
  unsigned concurrency() const override { return 1; }
};

}  // namespace

std::unique_ptr<runner> make_sequential_runner() {
  return std::make_unique<sequential_runner>();
}

}  // namespace mcpilot
