#pragma once
// Every output file mcpilot writes (results JSON, raw readings, tables, plots, exports) is written
// to a temporary file in the same folder, flushed to disk, and renamed over the target. A crash,
// a kill or a full disk therefore leaves the old file or the new one, never a torn one, and two
// runs writing the same path each leave a complete file (the last rename wins).

#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcpilot {

// A name beside `path`, in the same folder (so that rename is atomic), that no other process
// chooses: ".NAME.tmp.PID.N" plus `suffix`.
std::string temporary_path_beside(const std::string& path, std::string_view suffix = "");

// Fails early, before any work: throws input_error ("OPTION PATH: why") when the path is empty, is
// a folder, or its folder does not exist or cannot be written.
void check_writable(const std::string& path, std::string_view option);

// Throws input_error when two outputs name the same file; `outputs` holds (option, path) pairs,
// empty paths and "-" (stdout) ignored.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

// Calls `write` on a stream into a temporary file beside `path`, then fsyncs and renames it over
// `path`. Throws input_error naming the option and path when anything fails (disk full included);
// the temporary file is removed and `path` is left as it was.
void write_file_atomically(const std::string& path, std::string_view option,
                           const std::function<void(std::ostream&)>& write);

}  // namespace mcpilot
