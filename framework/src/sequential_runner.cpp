#include <optional>

#include "mcpilot/runner.hpp"

namespace mcpilot {

namespace {

class sequential_runner final : public runner {
 public:
  void run(std::uint64_t begin, std::uint64_t end,
           const std::function<void(std::uint64_t)>& task) override {
    // Same contract as the parallel runner: every index runs, the lowest failure is reported.
    std::optional<task_failure> first;
    for (std::uint64_t i = begin; i < end; ++i) {
      try {
        task(i);
      } catch (const std::exception& e) {
        if (!first) first.emplace(i, e.what());
      } catch (...) {
        if (!first) first.emplace(i, "unknown exception");
      }
    }
    if (first) throw *first;
  }
  unsigned concurrency() const override { return 1; }
};

}  // namespace

std::unique_ptr<runner> make_sequential_runner() {
  return std::make_unique<sequential_runner>();
}

}  // namespace mcpilot
