#pragma once
// Where and how a result was produced, recorded in every JSON result so that a reader can tell
// whether two results are comparable and rebuild what produced them.

#include <chrono>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace mcpilot {

// "2026-11-30T14:03:07.123Z".
std::string iso8601_utc(std::chrono::system_clock::time_point t);

// The "model name" line of /proc/cpuinfo, or "unknown".
std::string cpu_model();

std::string host_name();

// version, git_commit, compiler, cxx_flags, build_type, os, cpu_model, cores, memory_bytes,
// cpu_governor, turbo, virtualization, load_start and load_end (the 1-, 5- and 15-minute load
// averages when the process started and now), hostname, start, end, elapsed_seconds, seed, threads.
// A measurement's pinned core is in its measurement record (measure/measurement.hpp).
nlohmann::ordered_json environment_json(std::chrono::system_clock::time_point start,
                                        std::chrono::system_clock::time_point end,
                                        std::uint64_t seed, unsigned threads);

}  // namespace mcpilot
