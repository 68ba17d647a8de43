#include "mcpilot/io/environment.hpp"

#include "mcpilot_git_commit.h"  // generated at build time: cmake/git_commit.cmake

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace mcpilot {

namespace {

std::string compiler() {
#if defined(__clang__)
  return "clang " __VERSION__;
#elif defined(__GNUC__)
  return "gcc " __VERSION__;
#else
  return "unknown";
#endif
}

std::string operating_system() {
  utsname u{};
  if (uname(&u) != 0) return "unknown";
  return std::string(u.sysname) + " " + u.release + " " + u.machine;
}

// The first line of a file, or "" when it cannot be read.
std::string first_line(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// The 1-, 5- and 15-minute load averages (/proc/loadavg); empty when not visible.
std::vector<double> load_average() {
  std::istringstream in(first_line("/proc/loadavg"));
  std::vector<double> out(3);
  for (double& v : out)
    if (!(in >> v)) return {};
  return out;
}

// Sampled when the process starts, so that a result records the load before and after its work.
const std::vector<double> load_at_start = load_average();

std::string cpu_flag_line() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("flags", 0) == 0) return line;
  return {};
}

// What the kernel shows of running under a hypervisor or in a container; the measurement protocol
// asks for it, since a guest's speed moves with the host's other work.
std::string virtualization() {
  std::vector<std::string> seen;
  const std::string flags = cpu_flag_line() + " ";
  if (flags.find(" hypervisor ") != std::string::npos)
    seen.push_back("virtual machine (cpu flag hypervisor)");
  const std::string hv = first_line("/sys/hypervisor/type");
  if (!hv.empty()) seen.push_back("hypervisor " + hv);
  if (std::ifstream("/.dockerenv").good()) seen.push_back("container (/.dockerenv)");
  if (seen.empty()) return "none detected";
  std::string out;
  for (const auto& s : seen) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Frequency boost: intel_pstate's no_turbo, or cpufreq's boost; "not visible" in most guests.
std::string turbo() {
  const std::string no_turbo = first_line("/sys/devices/system/cpu/intel_pstate/no_turbo");
  if (!no_turbo.empty()) return no_turbo == "1" ? "off" : "on";
  const std::string boost = first_line("/sys/devices/system/cpu/cpufreq/boost");
  if (!boost.empty()) return boost == "1" ? "on" : "off";
  return "not visible";
}

std::string governor() {
  const std::string g = first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  return g.empty() ? "not visible" : g;
}

nlohmann::ordered_json load_json(const std::vector<double>& l) {
  return l.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(l);
}

}  // namespace

std::string iso8601_utc(std::chrono::system_clock::time_point t) {
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000 - (ms % 1000 < 0 ? 1 : 0));
  const int millis = static_cast<int>(((ms % 1000) + 1000) % 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[80];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
  return buf;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    const auto begin = line.find_first_not_of(" \t", colon + 1);
    return begin == std::string::npos ? "unknown" : line.substr(begin);
  }
  return "unknown";
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

nlohmann::ordered_json environment_json(std::chrono::system_clock::time_point start,
                                        std::chrono::system_clock::time_point end,
                                        std::uint64_t seed, unsigned threads) {
  return {
      {"version", MCPILOT_VERSION},
      {"git_commit", MCPILOT_GIT_COMMIT},
      {"compiler", compiler()},
      {"cxx_flags", MCPILOT_CXX_FLAGS},
      {"build_type", MCPILOT_BUILD_TYPE},
      {"os", operating_system()},
      {"cpu_model", cpu_model()},
      {"cores", std::thread::hardware_concurrency()},
      {"memory_bytes",
       static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE))},
      {"cpu_governor", governor()},
      {"turbo", turbo()},
      {"virtualization", virtualization()},
      {"load_start", load_json(load_at_start)},
      {"load_end", load_json(load_average())},
      {"hostname", host_name()},
      {"start", iso8601_utc(start)},
      {"end", iso8601_utc(end)},
      {"elapsed_seconds", std::chrono::duration<double>(end - start).count()},
      {"seed", seed},
      {"threads", threads},
  };
}

}  // namespace mcpilot
