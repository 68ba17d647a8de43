#pragma once
// Pinning the measuring thread to one core, and describing that core. A session whose readings
// come from cores of different kinds (performance and efficiency cores) mixes two distributions
// and may never converge; one core, recorded, makes the readings one population.

#include <optional>
#include <string>
#include <vector>

namespace mcpilot {

// The CPUs this process may run on (its affinity mask), ascending. Empty where unknown.
std::vector<int> allowed_cpus();

// The CPU the calling thread runs on now, or -1 where unknown.
int current_cpu();

// Throws input_error naming `field` when `cpu` is not in the affinity mask.
void check_cpu_allowed(int cpu, const std::string& field);

// Pins the calling thread to one CPU for its lifetime and restores the previous mask after.
class cpu_pin {
 public:
  // cpu < 0: the CPU the thread runs on now. Throws input_error when the CPU is outside the mask
  // or the kernel refuses.
  explicit cpu_pin(int cpu);
  ~cpu_pin();
  cpu_pin(const cpu_pin&) = delete;
  cpu_pin& operator=(const cpu_pin&) = delete;
  int cpu() const { return cpu_; }

 private:
  int cpu_ = -1;
  std::vector<int> previous_;
};

// What the kernel shows of one CPU. A field it does not show is "not visible" (frequency: none).
struct cpu_description {
  int cpu = -1;
  std::string model;
  std::optional<double> mhz;  // current frequency: cpufreq, else /proc/cpuinfo's "cpu MHz"
  std::string frequency_source;
  std::string governor;   // cpufreq scaling_governor
  std::string core_type;  // hybrid CPUs: the PMU/core type where the kernel names it
};

cpu_description describe_cpu(int cpu);

}  // namespace mcpilot
