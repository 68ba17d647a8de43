#pragma once
// A request to stop a session early (Ctrl-C, SIGTERM), raised from a signal handler and waited on
// by the session's limit watcher without polling.
//
// Why not a plain std::atomic<bool>: a thread can only learn of a flag's store by looking at it,
// and the watcher looked every 20 ms. A study pinned to one core then had its timed code preempted
// 50 times a second by its own process (docs/architecture.md, "Stopping early"). A signal handler
// cannot notify a condition variable, but it can write(2) to an eventfd, and the watcher sleeps in
// poll(2) on that descriptor until the deadline.

#include <atomic>

namespace mcpilot {

class stop_flag {
 public:
  stop_flag();  // opens the descriptor; without one (fd limit reached) waiters fall back to polling
  ~stop_flag();
  stop_flag(const stop_flag&) = delete;
  stop_flag& operator=(const stop_flag&) = delete;

  // Async-signal-safe: a lock-free exchange and one write(2). Returns whether it was already
  // raised.
  bool raise() noexcept;
  // Lowers the flag and empties the descriptor (not from a signal handler).
  void clear() noexcept;
  bool raised() const noexcept { return raised_.load(); }
  // Readable (POLLIN) while raised; -1 when it could not be opened.
  int fd() const noexcept { return fd_; }

 private:
  std::atomic<bool> raised_{false};
  int fd_ = -1;
};

}  // namespace mcpilot
