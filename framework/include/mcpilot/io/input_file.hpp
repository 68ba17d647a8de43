#pragma once
// Every file mcpilot reads whole (a config, a checkpoint, a blocks file) is checked first to be a
// regular file of bounded size: /dev/zero or a FIFO never ends, and reading one grew until memory
// ran out; a folder reads as nothing and gave an internal error.

#include <cstdint>
#include <string>

namespace mcpilot {

// The bytes of `path`, read through one descriptor that was checked to be a regular file of at
// most `max_bytes` (a file that grows past it while read is refused too). Throws input_error
// "`what`: why" (why: the OS's reason, "it is a directory", "it is not a regular file (a device,
// FIFO or socket)", or its size against the limit).
std::string read_input_file(const std::string& path, const std::string& what,
                            std::uint64_t max_bytes);

}  // namespace mcpilot
