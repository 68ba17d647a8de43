#include "mcpilot/memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <thread>

namespace mcpilot {

namespace {

// The process's mapped address space now (/proc/self/statm's first field, in pages): a limit on
// the address space counts the code, the libraries and every thread's stack, not the heap alone.
double mapped_bytes() {
  std::ifstream in("/proc/self/statm");
  double pages = 0;
  if (!(in >> pages)) return 0;
  return pages * static_cast<double>(::sysconf(_SC_PAGESIZE));
}

}  // namespace

double memory_room::usable() const {
  double u = machine_bytes;
  if (address_space_left) u = u > 0 ? std::min(u, *address_space_left) : *address_space_left;
  return std::max(u, 0.0);
}

std::string memory_room::describe() const {
  std::string s = machine_bytes > 0 ? memory_text(machine_bytes) + " on this machine"
                                    : std::string("an unknown amount on this machine");
  if (address_limit_bytes)
    s += ", " + memory_text(address_space_left.value_or(0)) +
         " address space left under ulimit -v (" + memory_text(*address_limit_bytes) + ")";
  return s;
}

memory_room memory_room_now() {
  memory_room m;
  const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && size > 0)
    m.machine_bytes = static_cast<double>(pages) * static_cast<double>(size);
  struct rlimit r {};
  if (::getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY) {
    m.address_limit_bytes = static_cast<double>(r.rlim_cur);
    m.address_space_left = std::max(0.0, *m.address_limit_bytes - mapped_bytes());
  }
  return m;
}

unsigned worker_threads(unsigned threads) {
  return threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
}

std::string memory_text(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024 && u < 6) {
    bytes /= 1024;
    ++u;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g %s", bytes, units[u]);
  return buf;
}

}  // namespace mcpilot
