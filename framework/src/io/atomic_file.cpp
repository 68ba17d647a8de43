#include "mcpilot/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

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

struct file_id {
  dev_t device;
  ino_t inode;
  bool operator==(const file_id&) const = default;
};

std::optional<file_id> id_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return file_id{st.st_dev, st.st_ino};
}

// The absolute, normalised name of a file that may not exist yet, links in its existing part
// followed: `./x`, `x` and `d/../x` give the same.
std::string spelled_out(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(resolve_links(path), ec), ec);
  if (ec) p = fs::absolute(path, ec).lexically_normal();
  return p.string();
}

bool same_file(const std::string& a, const std::string& b) {
  const auto ia = id_of(a), ib = id_of(b);
  if (ia && ib) return *ia == *ib;
  return spelled_out(a) == spelled_out(b);
}

bool is_other_than_regular(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

// A device, FIFO or socket: opened (a FIFO waits for its reader), written, closed, every error
// reported; nothing to rename, nothing to sync.
void write_in_place(const std::string& target, const std::string& path, std::string_view option,
                    const std::function<void(std::ostream&)>& write) {
  std::ostringstream buffer;
  write(buffer);
  const std::string text = std::move(buffer).str();
  const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    throw input_error(prefix(option, path) + "cannot open for writing: " + std::strerror(errno));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = n < 0 ? errno : EIO;
      ::close(fd);
      throw input_error(prefix(option, path) + "write failed: " + std::strerror(e));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0 && errno != EINTR)
    throw input_error(prefix(option, path) + "write failed: " + std::strerror(errno));
}

}  // namespace

std::string resolve_links(const std::string& path) {
  fs::path p = path;
  std::error_code ec;
  // 40 as the kernel's own limit (ELOOP): a cycle ends here with the last name reached.
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
    const fs::path to = fs::read_symlink(p, ec);
    if (ec) break;
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  return p.string();
}

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
  const std::string target = resolve_links(path);
  std::error_code ec;
  if (fs::is_directory(target, ec)) throw input_error(prefix(option, path) + "is a folder");
  if (is_other_than_regular(target)) {
    // Opening a FIFO to probe it would wait for a reader: the permission is what can be checked.
    if (::access(target.c_str(), W_OK) != 0)
      throw input_error(prefix(option, path) + "cannot write to it: " + std::strerror(errno));
    return;
  }
  const fs::path folder = folder_of(target);
  if (!fs::is_directory(folder, ec))
    throw input_error(prefix(option, path) + "the folder " + folder.string() + " does not exist");
  // A real probe rather than access(2), which says yes to root even on a read-only mount.
  const std::string probe = temporary_path_beside(target, ".probe");
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
    if (a.empty()) continue;
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      const auto& [option_b, b] = outputs[j];
      if (b.empty()) continue;
      if (a == "-" && b == "-")
        throw input_error(option_a + " and " + option_b +
                          " both name standard output ('-'); give one of them a file");
      if (a == "-" || b == "-") continue;
      if (a == b || same_file(a, b))
        throw input_error(option_a + " and " + option_b + " name the same file " +
                          (a == b ? a : a + " and " + b) + "; give each output its own file");
    }
  }
}

void check_outputs_are_not_inputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                                  const std::vector<std::pair<std::string, std::string>>& inputs) {
  for (const auto& [option, out] : outputs) {
    if (out.empty() || out == "-") continue;
    const auto out_id = id_of(out);
    if (!out_id) continue;  // a file not there yet is no input
    for (const auto& [what, in] : inputs) {
      if (in.empty() || in == "-") continue;
      if (id_of(in) == out_id)
        throw input_error(prefix(option, out) + "is " + what + " (" + in +
                          "), which this output would overwrite; write it to another file");
    }
  }
}

void write_file_atomically(const std::string& path, std::string_view option,
                           const std::function<void(std::ostream&)>& write) {
  const std::string target = resolve_links(path);
  if (is_other_than_regular(target)) return write_in_place(target, path, option, write);
  const std::string temporary = temporary_path_beside(target);
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
  fs::rename(temporary, target, ec);
  if (ec) fail("cannot replace it: " + ec.message());
  sync_folder(folder_of(target));
}

}  // namespace mcpilot
