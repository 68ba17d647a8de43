#pragma once
// Hardware and software event counters over exactly a timed region (Linux perf_event_open).
// Counters are read as one group, so that every count of a reading belongs to the same interval;
// when the kernel multiplexes the group, the counts are scaled by enabled/running time and marked
// as scaled. A counter that cannot be counted here is reported as unavailable with the reason,
// never as 0. The same source serves a pinned in-process measurement and a child process
// (inherit, enable_on_exec), so that a benchmark of another program can reuse it.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mcpilot {

struct counter_definition {
  std::string_view name;  // as perf names it: "cycles", "branch-misses", "task-clock"
  std::string_view unit;  // of one count: "ns" for task-clock, "events" otherwise
  std::string_view description;
  bool hardware = false;  // needs a PMU (a virtual machine often has none)
  std::uint32_t type = 0;
  std::uint64_t config = 0;
};

// Every name experiment.counters accepts, in the order they are listed.
std::span<const counter_definition> known_counters();
const counter_definition* find_counter(std::string_view name);
// "cycles, instructions, ...": for messages.
std::string known_counter_names();
// Throws input_error "FIELD: unknown counter "x" (known: ...)"; also for a name given twice.
void check_counter_names(const std::vector<std::string>& names, const std::string& field);

struct counter_status {
  std::string name;
  bool available = false;
  std::string reason;  // why not, when unavailable
};

// One group reading over one timed region: raw counts of the available counters, in order, and
// how long the group was enabled and actually running on the PMU.
struct counter_sample {
  std::vector<std::uint64_t> values;
  std::uint64_t time_enabled = 0;
  std::uint64_t time_running = 0;
};

struct counter_values {
  bool counted = false;  // false: the group never ran (running time 0); there are no counts
  bool scaled = false;   // multiplexed: counts estimated as raw x enabled / running
  std::vector<double> values;
};

// The scaling rule, pure: running == enabled gives the raw counts; 0 < running < enabled scales
// them up and marks them; running == 0 gives no counts at all (not zeros).
counter_values scale_sample(const counter_sample& s);

// A source of group readings. Tests substitute a fake one for the logic.
class counter_source {
 public:
  virtual ~counter_source() = default;
  // One entry per requested name, in the order requested.
  virtual const std::vector<counter_status>& status() const = 0;
  // Just before the timed region: zero and enable the group.
  virtual void start() = 0;
  // Just after it: disable and read. Values of the available counters, in status() order.
  virtual counter_sample stop() = 0;
};

// Whom perf counts: this thread (pid 0), or another process; for a child about to exec, inherit
// (its threads and children too) and enable_on_exec (counting starts at exec, not at fork).
struct counter_target {
  int pid = 0;
  bool inherit = false;
  bool enable_on_exec = false;
};

// Opens the named counters (already checked by check_counter_names) as one group, user-space
// events only. Never throws for an unavailable counter: its status says why. Where the system
// has no perf_event_open (not Linux) every counter is unavailable.
std::unique_ptr<counter_source> open_perf_counters(const std::vector<std::string>& names,
                                                   counter_target target = {});

}  // namespace mcpilot
