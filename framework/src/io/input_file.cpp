#include "mcpilot/io/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "mcpilot/error.hpp"
#include "mcpilot/memory.hpp"

namespace mcpilot {

namespace {

class descriptor {
 public:
  explicit descriptor(int fd) : fd_(fd) {}
  ~descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  descriptor(const descriptor&) = delete;
  descriptor& operator=(const descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string read_input_file(const std::string& path, const std::string& what,
                            std::uint64_t max_bytes) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer before fstat could
  // say what it is.
  const descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (fd.get() < 0) throw input_error(what + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw input_error(what + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw input_error(what + ": it is a directory");
  if (!S_ISREG(st.st_mode))
    throw input_error(what +
                      ": it is not a regular file (a device, FIFO or socket), which may "
                      "never end");
  const auto too_big = [&](std::uint64_t size) {
    return input_error(what + ": it holds " + memory_text(static_cast<double>(size)) +
                       ", more than the " + memory_text(static_cast<double>(max_bytes)) +
                       " such a file may hold");
  };
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
    throw too_big(static_cast<std::uint64_t>(st.st_size));
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t done = 0;
  char extra = 0;
  for (;;) {
    char* into = done < text.size() ? text.data() + done : &extra;
    const std::size_t want = done < text.size() ? text.size() - done : 1;
    const ssize_t n = ::read(fd.get(), into, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw input_error(what + ": " + std::strerror(errno));
    if (n == 0) break;
    if (done >= text.size()) {  // the file grew while read
      if (text.size() >= max_bytes) throw too_big(text.size() + 1);
      text.push_back(extra);
      ++done;
      continue;
    }
    done += static_cast<std::size_t>(n);
  }
  text.resize(done);
  return text;
}

}  // namespace mcpilot
