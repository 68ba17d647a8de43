#include "mcpilot/measure/pinning.hpp"

#include <fstream>
#include <sstream>

#include "mcpilot/error.hpp"

#if defined(__linux__)
#include <sched.h>
#endif

namespace mcpilot {

namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return {};
  return line;
}

std::string list(const std::vector<int>& cpus) {
  std::ostringstream os;
  for (std::size_t i = 0; i < cpus.size(); ++i) os << (i ? ", " : "") << cpus[i];
  return os.str();
}

#if defined(__linux__)
bool set_mask(const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) CPU_SET(c, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0;
}
#endif

}  // namespace

std::vector<int> allowed_cpus() {
  std::vector<int> out;
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return out;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) out.push_back(c);
#endif
  return out;
}

int current_cpu() {
#if defined(__linux__)
  return sched_getcpu();
#else
  return -1;
#endif
}

void check_cpu_allowed(int cpu, const std::string& field) {
  const auto cpus = allowed_cpus();
  if (cpus.empty()) {
    throw input_error(field + ": cannot pin to CPU " + std::to_string(cpu) +
                      ": this system does not let a process choose its CPU");
  }
  for (int c : cpus)
    if (c == cpu) return;
  throw input_error(field + ": CPU " + std::to_string(cpu) +
                    " is outside this process's affinity mask (allowed: " + list(cpus) + ")");
}

cpu_pin::cpu_pin(int cpu) {
  previous_ = allowed_cpus();
  cpu_ = cpu >= 0 ? cpu : current_cpu();
  if (cpu_ < 0) cpu_ = previous_.empty() ? 0 : previous_.front();
  check_cpu_allowed(cpu_, "experiment.cpu");
#if defined(__linux__)
  if (!set_mask({cpu_}))
    throw input_error("experiment.cpu: the kernel refused to pin to CPU " + std::to_string(cpu_));
#endif
}

cpu_pin::~cpu_pin() {
#if defined(__linux__)
  if (!previous_.empty()) set_mask(previous_);
#endif
}

cpu_description describe_cpu(int cpu) {
  cpu_description d;
  d.cpu = cpu;
  d.model = "not visible";
  d.governor = "not visible";
  d.frequency_source = "not visible";
  d.core_type = "not visible";
  // /proc/cpuinfo: the block of "processor : cpu" holds its model name and current MHz.
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  int processor = -1;
  std::optional<double> cpuinfo_mhz;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
    const auto begin = line.find_first_not_of(" \t", colon + 1);
    const std::string value = begin == std::string::npos ? "" : line.substr(begin);
    if (key == "processor") {
      processor = std::atoi(value.c_str());
    } else if (processor == cpu && key == "model name") {
      d.model = value;
    } else if (processor == cpu && key == "cpu MHz") {
      cpuinfo_mhz = std::atof(value.c_str());
    }
  }
  const std::string sys = "/sys/devices/system/cpu/cpu" + std::to_string(cpu);
  const std::string khz = read_line(sys + "/cpufreq/scaling_cur_freq");
  if (!khz.empty()) {
    d.mhz = std::atof(khz.c_str()) / 1000;
    d.frequency_source = "cpufreq scaling_cur_freq";
  } else if (cpuinfo_mhz) {
    d.mhz = cpuinfo_mhz;
    d.frequency_source = "/proc/cpuinfo cpu MHz (may be nominal; no cpufreq)";
  }
  const std::string governor = read_line(sys + "/cpufreq/scaling_governor");
  if (!governor.empty()) d.governor = governor;
  // Hybrid Intel CPUs list each core type's PMU with the CPUs it covers.
  for (const char* pmu : {"cpu_core", "cpu_atom"}) {
    const std::string cpus = read_line(std::string("/sys/devices/") + pmu + "/cpus");
    if (cpus.empty()) continue;
    // A list such as "0-15" or "16-23"; enough to test ranges and single numbers.
    std::stringstream ss(cpus);
    std::string part;
    while (std::getline(ss, part, ',')) {
      const auto dash = part.find('-');
      const int lo = std::atoi(part.c_str());
      const int hi = dash == std::string::npos ? lo : std::atoi(part.c_str() + dash + 1);
      if (cpu >= lo && cpu <= hi) d.core_type = pmu;
    }
  }
  return d;
}

}  // namespace mcpilot
