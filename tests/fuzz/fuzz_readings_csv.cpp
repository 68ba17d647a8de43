// The CSV reader on arbitrary bytes. The first byte picks the column (0-3) and the --header flag,
// so that the corpus reaches the multi-column (--wps) path too; the rest is the file, handed to
// the reader through an in-memory file (memfd), which is read as a path like any other.
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "mcpilot/error.hpp"
#include "mcpilot/io/readings_csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  static const int fd = memfd_create("fuzz.csv", 0);
  if (fd < 0) std::abort();
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data + 1, size - 1, 0) != static_cast<ssize_t>(size - 1))
    std::abort();
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  const bool header = (mode & 4) != 0;
  try {
    if (mode & 8) {
      const std::array<std::size_t, 2> cols{mode & 3u, ((mode >> 4) & 3u)};
      const auto c = mcpilot::read_csv_columns(path, cols, header);
      if (c.size() != 2 || c[0].values.size() != c[1].values.size()) std::abort();
    } else {
      const auto c = mcpilot::read_readings(path, {mode & 3u, header});
      // Every reading has a position, and every position a line no later than the last.
      if (c.values.empty() || c.positions.size() != c.values.size()) std::abort();
      for (std::size_t i = 0; i < c.values.size(); ++i) (void)c.where(i);
    }
  } catch (const mcpilot::input_error&) {
  }
  return 0;
}
