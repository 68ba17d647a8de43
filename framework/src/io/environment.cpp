#include "mcpilot/io/environment.hpp"

#include "mcpilot_git_commit.h"  // generated at build time: cmake/git_commit.cmake

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>

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
      {"hostname", host_name()},
      {"start", iso8601_utc(start)},
      {"end", iso8601_utc(end)},
      {"elapsed_seconds", std::chrono::duration<double>(end - start).count()},
      {"seed", seed},
      {"threads", threads},
  };
}

}  // namespace mcpilot
