#include "mcpilot/measure/counters.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "mcpilot/error.hpp"

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace mcpilot {

namespace {

#if defined(__linux__)
constexpr std::uint64_t cache_event(std::uint64_t cache, std::uint64_t op, std::uint64_t result) {
  return cache | (op << 8) | (result << 16);
}
#define MCPILOT_HW(name, unit, what, cfg)           \
  counter_definition {                              \
    name, unit, what, true, PERF_TYPE_HARDWARE, cfg \
  }
#define MCPILOT_SW(name, unit, what, cfg)            \
  counter_definition {                               \
    name, unit, what, false, PERF_TYPE_SOFTWARE, cfg \
  }
const std::array counters = {
    MCPILOT_HW("cycles", "events", "CPU cycles", PERF_COUNT_HW_CPU_CYCLES),
    MCPILOT_HW("instructions", "events", "instructions retired", PERF_COUNT_HW_INSTRUCTIONS),
    MCPILOT_HW("branches", "events", "branch instructions retired",
               PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
    MCPILOT_HW("branch-misses", "events", "mispredicted branches", PERF_COUNT_HW_BRANCH_MISSES),
    MCPILOT_HW("cache-references", "events", "last-level cache accesses",
               PERF_COUNT_HW_CACHE_REFERENCES),
    MCPILOT_HW("cache-misses", "events", "last-level cache misses", PERF_COUNT_HW_CACHE_MISSES),
    counter_definition{"L1-dcache-load-misses", "events", "level-1 data cache load misses", true,
                       PERF_TYPE_HW_CACHE,
                       cache_event(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
                                   PERF_COUNT_HW_CACHE_RESULT_MISS)},
    MCPILOT_SW("task-clock", "ns", "time on the CPU", PERF_COUNT_SW_TASK_CLOCK),
    MCPILOT_SW("page-faults", "events", "page faults", PERF_COUNT_SW_PAGE_FAULTS),
    MCPILOT_SW("context-switches", "events", "context switches", PERF_COUNT_SW_CONTEXT_SWITCHES),
    MCPILOT_SW("cpu-migrations", "events", "moves to another CPU", PERF_COUNT_SW_CPU_MIGRATIONS),
};
#undef MCPILOT_HW
#undef MCPILOT_SW
#else
// Without perf_event_open the names are still known, so that a config is portable; every one of
// them is then reported unavailable.
const std::array counters = {
    counter_definition{"cycles", "events", "CPU cycles", true},
    counter_definition{"instructions", "events", "instructions retired", true},
    counter_definition{"branches", "events", "branch instructions retired", true},
    counter_definition{"branch-misses", "events", "mispredicted branches", true},
    counter_definition{"cache-references", "events", "last-level cache accesses", true},
    counter_definition{"cache-misses", "events", "last-level cache misses", true},
    counter_definition{"L1-dcache-load-misses", "events", "level-1 data cache load misses", true},
    counter_definition{"task-clock", "ns", "time on the CPU", false},
    counter_definition{"page-faults", "events", "page faults", false},
    counter_definition{"context-switches", "events", "context switches", false},
    counter_definition{"cpu-migrations", "events", "moves to another CPU", false},
};
#endif

#if defined(__linux__)
std::string paranoid_level() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  std::string v;
  if (!(in >> v)) return "unknown";
  return v;
}

std::string reason_for(int err, const counter_definition& d) {
  switch (err) {
    case ENOENT:
    case EOPNOTSUPP:
    case ENODEV:
      return d.hardware ? "not supported here: no PMU event for it (a virtual machine often "
                          "exposes no hardware counters)"
                        : "not supported by this kernel";
    case EACCES:
    case EPERM:
      return "not permitted: /proc/sys/kernel/perf_event_paranoid is " + paranoid_level() +
             " (user-space counting of one's own process needs <= 2, or CAP_PERFMON)";
    case ENOSYS:
      return "perf_event_open is not available in this kernel";
    case EINVAL:
      return "the kernel rejects this event in a group here (EINVAL)";
    default:
      return std::string("perf_event_open failed: ") + std::strerror(err);
  }
}

class perf_group final : public counter_source {
 public:
  perf_group(const std::vector<std::string>& names, counter_target target) : target_(target) {
    for (const auto& name : names) {
      counter_status st{name, false, {}};
      const counter_definition* d = find_counter(name);
      if (!d) {
        st.reason = "unknown counter";
        status_.push_back(st);
        continue;
      }
      perf_event_attr attr{};
      attr.size = sizeof attr;
      attr.type = d->type;
      attr.config = d->config;
      attr.disabled = leader_ < 0 ? 1 : 0;  // the group starts and stops with its leader
      attr.exclude_kernel = 1;              // user-space work only; allowed at paranoid 2
      attr.exclude_hv = 1;
      attr.inherit = target.inherit ? 1 : 0;
      attr.enable_on_exec = (target.enable_on_exec && leader_ < 0) ? 1 : 0;
      attr.read_format =
          PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
      const long fd = syscall(SYS_perf_event_open, &attr, target.pid, -1, leader_, 0);
      if (fd < 0) {
        st.reason = reason_for(errno, *d);
      } else {
        st.available = true;
        if (leader_ < 0) leader_ = static_cast<int>(fd);
        fds_.push_back(static_cast<int>(fd));
      }
      status_.push_back(st);
    }
  }
  ~perf_group() override {
    for (int fd : fds_) close(fd);
  }

  const std::vector<counter_status>& status() const override { return status_; }

  void start() override {
    if (leader_ < 0 || target_.enable_on_exec) return;
    ioctl(leader_, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
    ioctl(leader_, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
  }

  counter_sample stop() override {
    counter_sample s;
    if (leader_ < 0) return s;
    if (!target_.enable_on_exec) ioctl(leader_, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
    // nr, time_enabled, time_running, then one value per member.
    std::vector<std::uint64_t> buf(3 + fds_.size());
    const ssize_t got = read(leader_, buf.data(), buf.size() * sizeof(std::uint64_t));
    if (got < static_cast<ssize_t>(3 * sizeof(std::uint64_t)) || buf[0] != fds_.size())
      return s;  // an unreadable group counts as not counted, never as zeros
    s.time_enabled = buf[1];
    s.time_running = buf[2];
    s.values.assign(buf.begin() + 3, buf.end());
    return s;
  }

 private:
  counter_target target_;
  std::vector<counter_status> status_;
  std::vector<int> fds_;
  int leader_ = -1;
};
#else
class perf_group final : public counter_source {
 public:
  perf_group(const std::vector<std::string>& names, counter_target) {
    for (const auto& n : names)
      status_.push_back({n, false, "not Linux: perf_event_open is not available"});
  }
  const std::vector<counter_status>& status() const override { return status_; }
  void start() override {}
  counter_sample stop() override { return {}; }

 private:
  std::vector<counter_status> status_;
};
#endif

}  // namespace

std::span<const counter_definition> known_counters() {
  return counters;
}

const counter_definition* find_counter(std::string_view name) {
  for (const auto& c : counters)
    if (c.name == name) return &c;
  return nullptr;
}

std::string known_counter_names() {
  std::string out;
  for (const auto& c : counters) {
    if (!out.empty()) out += ", ";
    out += c.name;
  }
  return out;
}

void check_counter_names(const std::vector<std::string>& names, const std::string& field) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!find_counter(names[i]))
      throw input_error(field + ": unknown counter \"" + names[i] +
                        "\" (known: " + known_counter_names() + ")");
    for (std::size_t j = 0; j < i; ++j)
      if (names[j] == names[i])
        throw input_error(field + ": counter \"" + names[i] + "\" is listed twice");
  }
}

counter_values scale_sample(const counter_sample& s) {
  counter_values v;
  if (s.time_running == 0 || s.values.empty()) return v;
  v.counted = true;
  v.scaled = s.time_running < s.time_enabled;
  const double factor =
      v.scaled ? static_cast<double>(s.time_enabled) / static_cast<double>(s.time_running) : 1.0;
  v.values.reserve(s.values.size());
  for (std::uint64_t x : s.values) v.values.push_back(static_cast<double>(x) * factor);
  return v;
}

std::unique_ptr<counter_source> open_perf_counters(const std::vector<std::string>& names,
                                                   counter_target target) {
  return std::make_unique<perf_group>(names, target);
}

}  // namespace mcpilot
