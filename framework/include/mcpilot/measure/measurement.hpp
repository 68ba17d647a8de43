#pragma once
// Measurement mode: how a session runs a measurement model (model_spec::measurement()).
//
//  - one thread, pinned to one core for the whole session (cpu_pin), on a sequential runner;
//  - the clock calibrated once (resolution, read cost), and a batch size chosen so that one
//    reading lasts at least reading_factor x the larger of the two;
//  - each reading: prepare(batch) untimed; counters start; clock; timed(batch); clock; counters
//    stop; check(batch) untimed. Nothing of the framework runs between the two clock reads;
//  - readings go to one stream in time order, so the engine's stream analysis removes the
//    warm-up by change-points and sizes subsessions from the autocorrelation.
//
// The session loop only creates a measurement_session and asks it for the stream.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpilot/measure/clock.hpp"
#include "mcpilot/measure/counters.hpp"
#include "mcpilot/measure/pinning.hpp"
#include "mcpilot/measure/settings.hpp"
#include "mcpilot/model.hpp"

namespace mcpilot {

// The quantity names the framework gives a measurement: "ns_per_sort", "ns_per_f",
// "branch-misses_per_sort", "branch-misses_per_f".
std::string time_quantity(const measurement_spec& m);
std::string time_per_f_quantity();
std::string counter_quantity(const std::string& counter, const measurement_spec& m);
std::string counter_per_f_quantity(const std::string& counter);

// Declares the framework's quantities after the model's own: time per operation (required), time
// per f when the model gives f, and for each available counter its count per operation and per f
// (optional: a count that never varies, such as page faults, must not hold the session open).
// Unavailable counters get no quantity: they are listed in the record with their reason.
void declare_measurement_quantities(model_spec& spec, const std::vector<counter_status>& counters);

// Which of the named counters this machine can count, and why not (opens and closes them).
std::vector<counter_status> probe_counters(const std::vector<std::string>& names);

// What the JSON environment records under "measurement", and the table prints.
struct measurement_record {
  cpu_description cpu;
  clock_calibration clock;
  std::string operation;
  std::string f_name;
  double f = 0;
  std::uint64_t batch = 0;                         // operations per reading
  bool batch_calibrated = false;                   // false: the model fixed it
  std::vector<std::uint64_t> calibration_batches;  // batch sizes tried, untimed for the results
  std::vector<double> calibration_ns;              // and how long each took
  std::vector<counter_status> counters;
  std::uint64_t readings = 0;
  std::uint64_t scaled_readings = 0;     // readings whose counts were multiplexed and scaled
  std::uint64_t uncounted_readings = 0;  // readings in which the counter group never ran
};

nlohmann::ordered_json to_json(const measurement_record& r);
// A few lines for the table: the core, the clock, the batch, the counters.
std::string describe(const measurement_record& r);

class measurement_session {
 public:
  // Pins the calling thread (settings.cpu, or where it runs now), calibrates the clock and opens
  // the counters: `counters` when given (tests pass a fake), else perf's for settings.counters.
  // Throws input_error for a CPU outside the affinity mask.
  measurement_session(const model& m, const model_spec& spec, const measurement_settings& settings,
                      std::unique_ptr<counter_source> counters = nullptr);
  ~measurement_session();
  measurement_session(const measurement_session&) = delete;
  measurement_session& operator=(const measurement_session&) = delete;

  // The session's one stream of readings. Call once.
  std::unique_ptr<stream> open_stream();
  std::shared_ptr<const measurement_record> record() const { return record_; }

 private:
  cpu_pin pin_;
  const model& model_;
  const model_spec& spec_;
  std::shared_ptr<counter_source> counters_;
  std::shared_ptr<measurement_record> record_;
};

}  // namespace mcpilot
