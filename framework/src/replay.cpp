#include "mcpilot/replay.hpp"

#include <algorithm>
#include <limits>
#include <span>

#include "round_tasks.hpp"

namespace mcpilot {

void replay_replication(const model& m, const model_spec& spec, std::uint64_t seed,
                        std::uint64_t index, std::vector<double>& row) {
  row.assign(spec.quantities().size(), std::numeric_limits<double>::quiet_NaN());
  // The session's own task, so that the checks of the readings are the ones a session makes.
  replication_task(m, spec, seed, index, row)(index);
}

void replay_stream(const model& m, const model_spec& spec, std::uint64_t seed, std::uint64_t index,
                   std::uint64_t limit, std::size_t keep, stream_replay& out) {
  const std::size_t width = spec.quantities().size();
  out.counts.assign(width, 0);
  out.last.assign(width, {});
  std::size_t first = width;  // the quantity whose count the limit applies to
  for (std::size_t q = 0; q < width && first == width; ++q)
    if (!spec.quantities()[q].derived()) first = q;
  if (first == width) return;
  const auto state = m.open_stream(index);
  philox_stream rng(seed, stream_key(index));
  // Pieces bound the memory of a long replay; only the latest `keep` readings are kept.
  constexpr std::uint64_t piece = 4096;
  std::vector<std::vector<double>> fresh;
  auto take = [&] {
    for (std::size_t q = 0; q < width; ++q) {
      out.counts[q] += fresh[q].size();
      auto& kept = out.last[q];
      kept.insert(kept.end(), fresh[q].begin(), fresh[q].end());
      if (kept.size() > keep) kept.erase(kept.begin(), kept.end() - static_cast<long>(keep));
    }
  };
  while (out.counts[first] < limit) {
    fresh.assign(width, {});
    stream_round round(spec, rng, index, fresh);
    const auto before = out.counts[first];
    try {
      state->advance(round, std::min(piece, limit - out.counts[first]));
      for (std::size_t q = 0; q < width; ++q)
        for (const double v : fresh[q]) check_reading(spec.quantities()[q], v);
    } catch (...) {
      take();  // what the piece gave before the throw is what the user is looking at
      throw;
    }
    take();
    if (out.counts[first] == before) break;  // a stream that gives nothing more has ended
  }
}

}  // namespace mcpilot
