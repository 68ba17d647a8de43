#pragma once
// Raises `cut` when max_seconds has passed or the stop flag is raised, so that a round stops
// starting replications (or stream pieces) within moments of either, not only between rounds.
// A thread of its own, because reading the clock in every replication would cost more than the
// framework's whole per-replication overhead. Used by the session and by the ranks of an MPI job.
//
// The thread sleeps in poll(2) until the deadline, the stop flag's descriptor or its own end:
// it wakes only for a reason. (It used to wake every 20 ms to look at the flag; on a study pinned
// to one core that was 50 preemptions a second of the timed code.)

#include <atomic>
#include <chrono>
#include <thread>

#include "mcpilot/stop_flag.hpp"

namespace mcpilot {

class limit_watch {
 public:
  using clock_type = std::chrono::steady_clock;

  limit_watch(clock_type::time_point deadline, const stop_flag* stop);
  ~limit_watch();
  limit_watch(const limit_watch&) = delete;
  limit_watch& operator=(const limit_watch&) = delete;

  // The deadline max_seconds after t0; none for 1e9 seconds or more.
  static clock_type::time_point deadline(clock_type::time_point t0, double max_seconds) {
    return max_seconds >= 1e9 ? clock_type::time_point::max()
                              : t0 + std::chrono::ceil<clock_type::duration>(
                                         std::chrono::duration<double>(max_seconds));
  }

  const std::atomic<bool>& cut() const { return cut_; }
  bool cut_by_time() const { return cut_by_time_.load(); }

 private:
  void watch(clock_type::time_point deadline, const stop_flag* stop);

  std::atomic<bool> cut_{false}, cut_by_time_{false};
  int done_fd_ = -1;    // an eventfd the destructor writes to end the thread
  std::thread thread_;  // last: started once the members it uses exist
};

}  // namespace mcpilot
