// The checkpoint reader (run --resume) on arbitrary bytes, handed over through an in-memory file
// (memfd) read as a path like any other. It must accept a file only when it is whole and
// consistent, and otherwise say why with input_error: never crash, never allocate what the file
// merely claims to hold.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "mcpilot/error.hpp"
#include "mcpilot/io/checkpoint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const int fd = memfd_create("fuzz.ckpt", 0);
  if (fd < 0) std::abort();
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size))
    std::abort();
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  try {
    const mcpilot::checkpoint c = mcpilot::read_checkpoint(path);
    // What was accepted is consistent: one reading vector per quantity (replication style), or
    // per stream and quantity, with a random position and a state for each stream.
    const auto& p = c.progress;
    if (p.stream_readings.empty()) {
      if (p.readings.size() != c.quantities.size()) std::abort();
    } else {
      if (p.stream_drawn.size() != p.stream_readings.size() ||
          p.stream_states.size() != p.stream_readings.size())
        std::abort();
      for (const auto& s : p.stream_readings)
        if (s.size() != c.quantities.size()) std::abort();
    }
  } catch (const mcpilot::input_error&) {
  }
  return 0;
}
