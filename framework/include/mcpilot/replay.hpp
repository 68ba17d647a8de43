#pragma once
// One replication, or one stream, run alone on the calling thread with the session's seed: what
// `run CONFIG --replay K` does, so that a replication that threw in a session of many threads
// can be stepped through under a debugger. Its random numbers depend on the seed and its index
// alone (docs/writing-a-model.md, "Random numbers: where they come from"), so it is the same
// replication the session ran, and it throws the same exception.

#include <cstdint>
#include <limits>
#include <vector>

#include "mcpilot/model.hpp"

namespace mcpilot {

// Replication `index` of a replication-style model into `row` (one slot per quantity, NaN for
// derived ones and for any not recorded before a throw). Throws what the model throws, or
// runtime_error for a missing reading or one its quantity's kind cannot take, as a session would.
void replay_replication(const model& m, const model_spec& spec, std::uint64_t seed,
                        std::uint64_t index, std::vector<double>& row);

// Stream `index` of a stream-style model, advanced alone from its start until it throws or has
// given `limit` readings of its first recorded quantity. A session advances its streams in pieces
// of a round; a stream gives the same readings however it is cut, so the failure comes back at the
// same reading.
struct stream_replay {
  std::vector<std::uint64_t> counts;      // readings given, per quantity
  std::vector<std::vector<double>> last;  // the latest `keep` readings, per quantity, in order
};
void replay_stream(const model& m, const model_spec& spec, std::uint64_t seed, std::uint64_t index,
                   std::uint64_t limit, std::size_t keep, stream_replay& out);

}  // namespace mcpilot
