#include "round_tasks.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace mcpilot {

namespace {

// A stream round is advanced in this many pieces, so a limit can stop it between pieces.
constexpr std::uint64_t stream_pieces = 8;

}  // namespace

// A reading the quantity's kind cannot take is the model's error; caught here, inside the task,
// it names the replication (or stream) that produced it instead of surfacing later in the
// analysis without one.
void check_reading(const quantity_spec& q, double v) {
  const bool ok = std::isfinite(v) && (q.kind != quantity_kind::rate || v > 0) &&
                  (q.kind != quantity_kind::proportion || v == 0 || v == 1);
  if (!ok) {
    std::ostringstream os;
    os << "quantity " << q.name << " (" << to_string(q.kind) << ") got the reading " << v;
    throw std::runtime_error(os.str());
  }
}

std::function<void(std::uint64_t)> replication_task(const model& m, const model_spec& spec,
                                                    std::uint64_t seed, std::uint64_t begin,
                                                    std::span<double> rows,
                                                    const std::atomic<bool>* stop) {
  return [&m, &spec, seed, begin, rows, stop](std::uint64_t i) {
    const std::size_t width = spec.quantities().size();
    std::span<double> row = rows.subspan((i - begin) * width, width);
    replication rep(spec, seed, i, row, stop);
    m.replicate(rep);
    for (std::size_t q = 0; q < width; ++q) {
      const quantity_spec& qs = spec.quantities()[q];
      if (qs.derived()) continue;
      if (std::isnan(row[q]))
        throw std::runtime_error("no reading recorded for quantity " + qs.name);
      check_reading(qs, row[q]);
    }
  };
}

std::function<void(std::uint64_t)> stream_task(const model_spec& spec,
                                               std::vector<stream_slot>& streams,
                                               std::uint64_t count, const std::atomic<bool>& cut) {
  // Every stream is advanced by the same amount per piece; a stream advanced in pieces gives the
  // same readings as in one call (the SDK asks that of advance()).
  const std::uint64_t piece =
      std::max<std::uint64_t>(1, (count + stream_pieces - 1) / stream_pieces);
  return [&spec, &streams, count, piece, &cut](std::uint64_t j) {
    stream_slot& s = streams[j];
    for (std::uint64_t a = 0; a < count; a += piece) {
      if (cut.load(std::memory_order_relaxed)) break;
      stream_round round(spec, s.rng, j, s.fresh, &cut);
      s.state->advance(round, std::min(piece, count - a));
    }
    for (std::size_t q = 0; q < s.fresh.size(); ++q)
      for (double v : s.fresh[q]) check_reading(spec.quantities()[q], v);
  };
}

}  // namespace mcpilot
