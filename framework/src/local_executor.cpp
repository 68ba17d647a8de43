#include "mcpilot/round_executor.hpp"

namespace mcpilot {

namespace {

class local_executor final : public round_executor {
 public:
  explicit local_executor(std::unique_ptr<runner> r) : runner_(std::move(r)) {}

  std::uint64_t replications(std::uint64_t begin, std::uint64_t count, std::size_t,
                             const std::function<void(std::uint64_t)>& task, std::span<double>,
                             const std::atomic<bool>& cut) override {
    return runner_->run(begin, begin + count, task, &cut);
  }

  void advance_streams(
      std::size_t streams, std::uint64_t, const std::function<void(std::uint64_t)>& task,
      const std::function<std::vector<std::vector<double>>&(std::size_t)>&) override {
    runner_->run(0, streams, task);
  }

  unsigned concurrency() const override { return runner_->concurrency(); }

 private:
  std::unique_ptr<runner> runner_;
};

}  // namespace

std::unique_ptr<round_executor> make_local_executor(std::unique_ptr<runner> r) {
  return std::make_unique<local_executor>(std::move(r));
}

}  // namespace mcpilot
