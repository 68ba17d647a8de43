#include "mcpilot/rng.hpp"

#include <Random123/philox.h>

#include "mcpilot/task_cancelled.hpp"

namespace mcpilot {

philox_stream::philox_stream(std::uint64_t seed, std::uint64_t index) noexcept
    : key_{seed, index} {}

void philox_stream::refill() {
  if (stop_ && stop_->load(std::memory_order_relaxed)) throw task_cancelled{};
  generate();
}

void philox_stream::generate() noexcept {
  r123::Philox4x64 gen;
  const r123::Philox4x64::key_type key = {{key_[0], key_[1]}};
  const r123::Philox4x64::ctr_type ctr = {{counter_, 0, 0, 0}};
  const auto out = gen(ctr, key);
  for (std::size_t k = 0; k < 4; ++k) block_[k] = out.v[k];
  ++counter_;
  used_ = 0;
}

void philox_stream::seek(std::uint64_t drawn) noexcept {
  counter_ = drawn / 4;
  used_ = block_.size();
  if (drawn % 4 != 0) {
    generate();
    used_ = drawn % 4;
  }
}

}  // namespace mcpilot
