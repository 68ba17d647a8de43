#include "limit_watch.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

namespace mcpilot {

namespace {

// Without a descriptor to sleep on (a stop flag whose eventfd could not be opened) the flag is
// looked at this often, as before.
constexpr std::chrono::milliseconds fallback_poll{20};

}  // namespace

limit_watch::limit_watch(clock_type::time_point deadline, const stop_flag* stop)
    : done_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      thread_([this, deadline, stop] { watch(deadline, stop); }) {}

limit_watch::~limit_watch() {
  if (done_fd_ >= 0) {
    const std::uint64_t one = 1;
    ssize_t ignored = write(done_fd_, &one, sizeof one);
    (void)ignored;
  } else {
    cut_.store(true);  // the thread then polls: let it see an end (cut is not read any more)
  }
  thread_.join();
  if (done_fd_ >= 0) close(done_fd_);
}

void limit_watch::watch(clock_type::time_point deadline, const stop_flag* stop) {
  const bool stop_fd = stop != nullptr && stop->fd() >= 0;
  const bool must_poll = (stop != nullptr && !stop_fd) || done_fd_ < 0;
  pollfd fds[2];
  nfds_t n = 0;
  if (done_fd_ >= 0) fds[n++] = {done_fd_, POLLIN, 0};
  if (stop_fd) fds[n++] = {stop->fd(), POLLIN, 0};
  for (;;) {
    const auto now = clock_type::now();
    if (now >= deadline) {
      cut_.store(true);
      cut_by_time_.store(true);
      return;
    }
    if (stop != nullptr && stop->raised()) {
      cut_.store(true);
      return;
    }
    if (done_fd_ < 0 && cut_.load()) return;
    // Sleep until the deadline (rounded up to a whole millisecond, capped so that the int holds
    // it), or a descriptor becomes readable: the end of the watch or a raised stop flag.
    auto wait = std::chrono::ceil<std::chrono::milliseconds>(deadline - now);
    wait = std::min(wait, std::chrono::milliseconds{24 * 3600 * 1000});
    if (must_poll)
      wait = std::min(wait, std::chrono::ceil<std::chrono::milliseconds>(fallback_poll));
    const int ready = poll(fds, n, static_cast<int>(wait.count()));
    if (ready > 0 && done_fd_ >= 0 && (fds[0].revents & POLLIN) != 0) return;
    if (ready < 0 && errno != EINTR) std::this_thread::sleep_for(fallback_poll);
  }
}

}  // namespace mcpilot
