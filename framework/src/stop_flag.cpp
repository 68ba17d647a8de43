#include "mcpilot/stop_flag.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

namespace mcpilot {

static_assert(std::atomic<bool>::is_always_lock_free);  // so that a signal handler may raise it

stop_flag::stop_flag() : fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

stop_flag::~stop_flag() {
  if (fd_ >= 0) close(fd_);
}

bool stop_flag::raise() noexcept {
  const bool was = raised_.exchange(true);
  if (!was && fd_ >= 0) {
    const std::uint64_t one = 1;
    ssize_t ignored = write(fd_, &one, sizeof one);  // the counter cannot overflow at 1
    (void)ignored;
  }
  return was;
}

void stop_flag::clear() noexcept {
  raised_.store(false);
  if (fd_ >= 0) {
    std::uint64_t count = 0;
    ssize_t ignored = read(fd_, &count, sizeof count);  // nonblocking: EAGAIN when already empty
    (void)ignored;
  }
}

}  // namespace mcpilot
