#pragma once
// Counter-based random streams. Replication i of a session with seed s draws from Philox4x64-10
// keyed by (s, i): every replication's numbers are fixed by (s, i) alone, whichever thread runs
// it and in whatever order, which is what makes results independent of the thread count.
// Stream-style models use the key (s, 2^63 + j) for stream j, a domain disjoint from replications.
// A sweep derives point k's seed from the key (s, 2^62 + k) (sweep/plan.hpp), disjoint from both
// as long as replication indices stay below 2^62.
//
// The engine is a C++ UniformRandomBitGenerator over 64-bit words, so Boost.Random distributions
// (which, unlike the standard library's, give the same numbers with every compiler) take it.

#include <array>
#include <atomic>
#include <cstdint>
#include <limits>

namespace mcpilot {

class philox_stream {
 public:
  using result_type = std::uint64_t;

  philox_stream(std::uint64_t seed, std::uint64_t index) noexcept;

  static constexpr result_type min() noexcept { return 0; }
  static constexpr result_type max() noexcept { return std::numeric_limits<result_type>::max(); }

  // Once `flag` reads true, the next block of numbers throws task_cancelled instead (see
  // task_cancelled.hpp): a replication's stream is its heartbeat, so a long replication stops
  // within a few draws of a limit without any check in the model. Checked once per four words,
  // beside a Philox block that costs far more. Null (the default) never stops.
  void stop_on(const std::atomic<bool>* flag) noexcept { stop_ = flag; }

  result_type operator()() {
    if (used_ == block_.size()) refill();
    return block_[used_++];
  }

  // A uniform double in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>((*this)() >> 11) * 0x1.0p-53; }

  // How many 64-bit words have been drawn; the position a replay would need.
  std::uint64_t drawn() const noexcept { return counter_ * 4 - (block_.size() - used_); }

  // Moves to the position where `drawn` words have been drawn (a checkpoint's restore), in O(1).
  void seek(std::uint64_t drawn) noexcept;

 private:
  void refill();
  void generate() noexcept;

  std::array<std::uint64_t, 2> key_;
  std::uint64_t counter_ = 0;  // blocks generated so far
  std::array<std::uint64_t, 4> block_{};
  std::size_t used_ = 4;
  const std::atomic<bool>* stop_ = nullptr;
};

// The key of stream j for stream-style models.
constexpr std::uint64_t stream_key(std::uint64_t j) noexcept {
  return (std::uint64_t{1} << 63) | j;
}

// The key from which a sweep derives the seed of point k.
constexpr std::uint64_t sweep_point_key(std::uint64_t k) noexcept {
  return (std::uint64_t{1} << 62) | k;
}

}  // namespace mcpilot
