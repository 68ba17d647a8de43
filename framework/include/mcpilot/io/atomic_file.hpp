#pragma once
// Every output file mcpilot writes (results JSON, raw readings, tables, plots, exports) is written
// to a temporary file in the same folder, flushed to disk, and renamed over the target. A crash,
// a kill or a full disk therefore leaves the old file or the new one, never a torn one, and two
// runs writing the same path each leave a complete file (the last rename wins).
//
// Only a regular file (or a name not yet taken) is renamed over. A symbolic link is followed and
// its target written atomically, so the link stays; a device (/dev/null, /dev/full), a FIFO or a
// socket is written in place, since replacing it with a regular file would destroy it and leave a
// FIFO's reader with nothing.

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

// `path` with every symbolic link on it followed (a dangling link: the name it points to), so
// that writing the result writes what the user named.
std::string resolve_links(const std::string& path);

// Fails early, before any work: throws input_error ("OPTION PATH: why") when the path is empty, is
// a folder, or its folder does not exist or cannot be written; for a device or FIFO, when it
// cannot be opened for writing.
void check_writable(const std::string& path, std::string_view option);

// Throws input_error when two outputs name the same file, whatever the spelling (`./x` and `x`,
// `a/../x`, a symbolic or hard link: compared by device and inode when the file exists, by the
// absolute path with links followed when not), or when two are "-" (stdout); `outputs` holds
// (option, path) pairs, empty paths ignored.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

// Throws input_error when an output is one of the inputs (compared by device and inode, so a
// link or another spelling is caught), before it could be overwritten; `inputs` holds (what,
// path) pairs such as ("the config", "cfg.toml"). Empty paths and "-" are ignored.
void check_outputs_are_not_inputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                                  const std::vector<std::pair<std::string, std::string>>& inputs);

// Calls `write` on a stream into a temporary file beside `path` (links followed), then fsyncs and
// renames it over the target; a target that exists and is not a regular file is written in place
// instead. Throws input_error naming the option and path when anything fails (disk full
// included); the temporary file is removed and a regular `path` is left as it was.
void write_file_atomically(const std::string& path, std::string_view option,
                           const std::function<void(std::ostream&)>& write);

}  // namespace mcpilot
