#pragma once
// The memory this process may still use: the machine's physical memory and, when set, what the
// address-space limit (`ulimit -v`, RLIMIT_AS) leaves beyond what the process already maps. A
// config whose estimate (model::estimate) exceeds it is refused before the first replication,
// with both figures, rather than dying of std::bad_alloc an hour in.

#include <cstdint>
#include <optional>
#include <string>

namespace mcpilot {

// The most worker threads a session may be given (config or --threads): more than any machine
// mcpilot runs on has cores, and few enough that each one's stack and buffers can be had.
inline constexpr unsigned max_threads = 4096;
// The most streams a stream-style session may keep (each holds its own state and readings).
inline constexpr std::int64_t max_streams = 1'000'000;

// A model whose replications hold large buffers (a block and its projections) says how many
// bytes each worker thread holds at once, beside model::estimate()'s shared bytes, so that the
// check before the first replication counts them once per thread.
class per_thread_memory {
 public:
  virtual ~per_thread_memory() = default;
  virtual double bytes_per_thread() const = 0;
};

struct memory_room {
  double machine_bytes = 0;                   // physical memory; 0: unknown
  std::optional<double> address_limit_bytes;  // RLIMIT_AS, when not unlimited
  std::optional<double> address_space_left;   // that limit less the address space mapped now
  // The smaller of the machine's memory and the address space left; 0: unknown (no check).
  double usable() const;
  // "64 GiB on this machine, 5.59 GiB address space left under ulimit -v (6 GiB)"
  std::string describe() const;
};

memory_room memory_room_now();

// The worker threads a session configured with `threads` runs (0: every core, at least 1).
unsigned worker_threads(unsigned threads);

// Bytes as a user reads them: "1.5 GiB", "512 MiB", "4 KiB", "100 B" (3 significant digits).
std::string memory_text(double bytes);

}  // namespace mcpilot
