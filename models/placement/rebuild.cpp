#include "placement/rebuild.hpp"

#include <algorithm>

namespace mcpilot::placement {

double hours_per_shared_group(const layout& l, const rebuild_settings& s) {
  const int v = l.devices, k = l.group_size;
  const double b = static_cast<double>(l.groups.size());
  if (b == 0 || k < 2) return 0;
  const double chunk = s.device_bytes * v / (b * k);
  return chunk * (k - s.tolerance) / (k - 1) / s.bandwidth_bytes_per_hour;
}

double mean_rebuild_hours(const layout& l, const rebuild_settings& s,
                          const std::vector<device_rebuild>& r) {
  long total = 0;
  for (const auto& d : r) total += s.declustered ? d.most_shared : d.groups;
  return static_cast<double>(total) / static_cast<double>(r.size()) * hours_per_shared_group(l, s);
}

std::vector<device_rebuild> rebuild_of_devices(const layout& l, const rebuild_settings& s) {
  const int v = l.devices;
  std::vector<device_rebuild> out(static_cast<std::size_t>(v));
  const double unit = hours_per_shared_group(l, s);
  if (unit == 0) return out;
  const auto of = groups_of_devices(l);
  std::vector<int> shared(static_cast<std::size_t>(v));
  for (int d = 0; d < v; ++d) {
    std::fill(shared.begin(), shared.end(), 0);
    for (int g : of[static_cast<std::size_t>(d)])
      for (int e : l.groups[static_cast<std::size_t>(g)])
        if (e != d) ++shared[static_cast<std::size_t>(e)];
    int most = 0, participants = 0;
    long total = 0;
    for (int n : shared)
      if (n > 0) {
        ++participants;
        total += n;
        most = std::max(most, n);
      }
    auto& r = out[static_cast<std::size_t>(d)];
    r.participants = participants;
    r.groups = static_cast<int>(of[static_cast<std::size_t>(d)].size());
    r.most_shared = most;
    if (participants == 0) continue;
    // (count / 1) × unit: the same rounding as mean_rebuild_hours when all counts agree.
    r.serial_hours = static_cast<double>(r.groups) / 1.0 * unit;
    r.parallel_hours = static_cast<double>(most) / 1.0 * unit;
    r.hours = s.declustered ? r.parallel_hours : r.serial_hours;
    // Integer loads: the ratio is exactly 1 when every participant shares as many groups.
    r.max_over_mean_load = static_cast<double>(most) * participants / static_cast<double>(total);
  }
  return out;
}

}  // namespace mcpilot::placement
