#pragma once
// The seam between the session loop and where a round's work runs. The session asks the engine how
// much to run, hands the round's index range to an executor and feeds what comes back to the
// engine; the executor decides where the indices run: on this process's threads (the local
// executor, over a runner) or split across the ranks of an MPI job (docs/cluster.md). Either way
// the readings come back stored by index, so the result does not depend on where they ran.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "mcpilot/runner.hpp"

namespace mcpilot {

class round_executor {
 public:
  virtual ~round_executor() = default;

  // Replications [begin, begin + count), `width` readings each. task(i) runs replication i on
  // this process and writes its readings to rows[(i - begin) * width, ...); an executor that runs
  // some indices elsewhere copies their rows there itself. Same contract as runner::run with a
  // cancellation: returns the length of the prefix that ran and throws task_failure for the
  // lowest failing index only inside that prefix.
  virtual std::uint64_t replications(std::uint64_t begin, std::uint64_t count, std::size_t width,
                                     const std::function<void(std::uint64_t)>& task,
                                     std::span<double> rows, const std::atomic<bool>& cut) = 0;

  // Stream style: advances each of `streams` streams by one round. task(j) advances stream j on
  // this process and leaves its new readings in fresh(j) ([quantity][reading]); an executor that
  // keeps some streams elsewhere fills fresh(j) for those. Throws task_failure for the lowest
  // failing stream.
  virtual void advance_streams(
      std::size_t streams, std::uint64_t count, const std::function<void(std::uint64_t)>& task,
      const std::function<std::vector<std::vector<double>>&(std::size_t)>& fresh) = 0;

  // Stream style, for a checkpoint: replaces the entries of streams kept elsewhere with their
  // random words drawn and saved states (stream::save). Local streams are already current.
  virtual void stream_states(std::vector<std::uint64_t>& drawn, std::vector<std::string>& states) {
    (void)drawn;
    (void)states;
  }

  // How many replications to hand over at once, given what one process takes (`local`, sized to
  // stay in its cache): an executor spread over several processes takes that many per process,
  // so that a gather's fixed cost is paid once per process-sized block.
  virtual std::uint64_t chunk(std::uint64_t local) const { return local; }

  // Threads per process that run the work.
  virtual unsigned concurrency() const = 0;
};

// Runs every round on this process through `r`.
std::unique_ptr<round_executor> make_local_executor(std::unique_ptr<runner> r);

}  // namespace mcpilot
