#pragma once
// What one index of a round does: a replication into its row, or a stream advanced by a round.
// Shared by the session (rank 0, or the only process) and the other ranks of an MPI job, so that
// an index computes the same readings wherever it runs.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "mcpilot/model.hpp"
#include "mcpilot/rng.hpp"

namespace mcpilot {

struct stream_slot {
  std::unique_ptr<stream> state;
  philox_stream rng;
  std::vector<std::vector<double>> fresh;  // this round's readings, per quantity
};

// A reading the quantity's kind cannot take (NaN, a rate <= 0, a proportion not 0/1) is the
// model's error: throws runtime_error naming the quantity and the reading.
void check_reading(const quantity_spec& q, double v);

// Replication i (in [begin, ...)) into rows[(i - begin) * width, ...), its readings checked
// against their quantities' kinds. With `stop`, a replication still running when it is raised
// ends with task_cancelled at its next draw of random numbers.
std::function<void(std::uint64_t)> replication_task(const model& m, const model_spec& spec,
                                                    std::uint64_t seed, std::uint64_t begin,
                                                    std::span<double> rows,
                                                    const std::atomic<bool>* stop = nullptr);

// Stream j advanced by `count` readings in pieces, stopping between pieces once `cut` is raised,
// its fresh readings checked; streams[j].fresh must be cleared first.
std::function<void(std::uint64_t)> stream_task(const model_spec& spec,
                                               std::vector<stream_slot>& streams,
                                               std::uint64_t count, const std::atomic<bool>& cut);

}  // namespace mcpilot
