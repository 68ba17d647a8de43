#pragma once
// The adaptive session's brain. It holds the declared quantities and every reading, analyses them
// after each round, and answers with one decision: stop, or run N more. It knows nothing of
// threads, files, clocks or models' code, so it can be tested with hand-fed readings.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mcpilot/model.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stop_reason.hpp"

namespace mcpilot {

struct engine_options {
  precision session_precision;  // the preset with session-level overrides
  std::size_t streams = 4;      // stream style: how many independent streams
  std::size_t first_round = 0;  // 0: derived from the quantities' minimum sample sizes
  // The session's max_replications (0: none). A proportion with no events yet needs at least the
  // trials its upper bound implies; past this budget it is reported unreachable at once.
  std::uint64_t budget = 0;
  // Stream style: remove warm-up by change-points (off: every reading is taken as stable).
  bool remove_warmup = true;
  // With it: a burst the level came back from stays inside the stable phase
  // (analysis_options::keep_excursions); off: Pilot's phase, one segment between change-points.
  bool keep_excursions = true;
};

struct quantity_result {
  std::string name;
  std::string unit;
  quantity_kind kind = quantity_kind::ordinary;
  bool required = true;
  bool derived = false;
  precision requirements;
  analysis stats;
};

struct decision {
  bool stop = false;
  std::uint64_t count = 0;  // replications (or readings per stream) in the next round
  stop_reason reason = stop_reason::converged;  // when stopping: converged or unreachable
};

class engine {
 public:
  engine(const model_spec& spec, engine_options options);

  bool stream_style() const { return stream_style_; }
  std::size_t streams() const { return streams_.size(); }

  // Replication style: one reading per quantity in declaration order (derived slots ignored),
  // added in replication-index order.
  void add_replication(std::span<const double> row) { add_replications(row); }
  // Several such rows back to back (a round's results), stored in one pass per quantity.
  void add_replications(std::span<const double> rows);
  // Room for this many replications in all, so that a round added in parts grows the storage once.
  void reserve(std::uint64_t replications);
  // Stream style: readings of one quantity of one stream, in the order the stream produced them.
  void add_stream_readings(std::size_t stream, std::size_t quantity,
                           std::span<const double> readings);

  // Analyses every quantity and decides. O(sum of n log n) over the quantities.
  decision evaluate();

  const std::vector<quantity_result>& results() const { return results_; }
  // Replications so far (stream style: readings of the first quantity over all streams).
  std::uint64_t replications() const;
  // Replication style: readings of quantity q, indexed by replication.
  const std::vector<double>& readings(std::size_t q) const { return readings_[q]; }
  // Stream style: readings of quantity q from stream s.
  const std::vector<double>& stream_readings(std::size_t s, std::size_t q) const {
    return streams_[s][q];
  }

 private:
  analysis analyse_quantity(std::size_t q) const;
  analysis analyse_derived(std::size_t q) const;
  std::uint64_t next_round_size() const;

  bool stream_style_ = false;
  engine_options options_;
  std::vector<quantity_spec> specs_;
  std::vector<precision> requirements_;
  std::vector<std::vector<std::size_t>> derived_inputs_;
  std::vector<std::vector<double>> readings_;              // [quantity][replication]
  std::vector<std::vector<std::vector<double>>> streams_;  // [stream][quantity][reading]
  std::vector<quantity_result> results_;
  std::size_t rounds_ = 0;
};

}  // namespace mcpilot
