#include "mcpilot/io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "mcpilot/error.hpp"

namespace mcpilot {

namespace {

namespace fs = std::filesystem;

std::string prefix(std::string_view option, const std::string& path) {
  return std::string(option) + " " + path + ": ";
}

fs::path folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

// fsync of the data, so that the rename never publishes a file whose blocks are not yet on disk.
bool sync_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

// Renames are durable only once the folder's entry is synced; failure here is not fatal (some
// file systems refuse fsync on folders), the file itself is complete either way.
void sync_folder(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace

std::string temporary_path_beside(const std::string& path, std::string_view suffix) {
  static std::atomic<unsigned> counter{0};
  const fs::path p(path);
  // Appended rather than "." + string: GCC 12 warns falsely (-Wrestrict) on the sum.
  std::string name = ".";
  name += p.filename().string();
  name += ".tmp.";
  name += std::to_string(::getpid());
  name += '.';
  name += std::to_string(counter.fetch_add(1));
  name += suffix;
  return (p.parent_path() / name).string();
}

void check_writable(const std::string& path, std::string_view option) {
  if (path.empty()) throw input_error(std::string(option) + ": the file name is empty");
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw input_error(prefix(option, path) + "is a folder");
  const fs::path folder = folder_of(path);
  if (!fs::is_directory(folder, ec))
    throw input_error(prefix(option, path) + "the folder " + folder.string() + " does not exist");
  // A real probe rather than access(2), which says yes to root even on a read-only mount.
  const std::string probe = temporary_path_beside(path, ".probe");
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    throw input_error(prefix(option, path) + "cannot write in the folder " + folder.string() +
                      ": " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto& [option_a, a] = outputs[i];
    if (a.empty() || a == "-") continue;
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      const auto& [option_b, b] = outputs[j];
      if (b.empty() || b == "-") continue;
      std::error_code ec;
      const fs::path pa = fs::weakly_canonical(a, ec);
      const fs::path pb = fs::weakly_canonical(b, ec);
      if (a == b || (!pa.empty() && pa == pb))
        throw input_error(option_a + " and " + option_b + " name the same file " + a +
                          "; give each output its own file");
    }
  }
}

void write_file_atomically(const std::string& path, std::string_view option,
                           const std::function<void(std::ostream&)>& write) {
  const std::string temporary = temporary_path_beside(path);
  auto fail = [&](const std::string& why) {
    std::error_code ec;
    fs::remove(temporary, ec);
    throw input_error(prefix(option, path) + why);
  };
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) fail(std::string("cannot open for writing: ") + std::strerror(errno));
    write(out);
    out.flush();
    if (!out) fail("write failed (disk full?)");
    out.close();
    if (!out) fail("write failed (disk full?)");
  }
  if (!sync_file(temporary)) fail(std::string("write failed: ") + std::strerror(errno));
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) fail("cannot replace it: " + ec.message());
  sync_folder(folder_of(path));
}

}  // namespace mcpilot
