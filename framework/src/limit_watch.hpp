#pragma once
// Raises `cut` when max_seconds has passed or the interrupt flag is set, so that a round stops
// starting replications (or stream pieces) within moments of either, not only between rounds.
// A thread of its own, because reading the clock in every replication would cost more than the
// framework's whole per-replication overhead. Used by the session and by the ranks of an MPI job.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace mcpilot {

class limit_watch {
 public:
  using clock_type = std::chrono::steady_clock;

  limit_watch(clock_type::time_point deadline, const std::atomic<bool>* interrupted)
      : thread_([this, deadline, interrupted] {
          std::unique_lock lock(mutex_);
          while (!done_) {
            if (clock_type::now() >= deadline) {
              cut_.store(true);
              cut_by_time_.store(true);
              return;
            }
            if (interrupted && interrupted->load()) {
              cut_.store(true);
              return;
            }
            // A signal handler cannot notify a condition variable: poll the flag often.
            wake_.wait_until(lock, std::min(deadline, clock_type::now() + poll));
          }
        }) {}
  ~limit_watch() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
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
  static constexpr std::chrono::milliseconds poll{20};
  std::atomic<bool> cut_{false}, cut_by_time_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;  // last: started once the members it uses exist
};

}  // namespace mcpilot
