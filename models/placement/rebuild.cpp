#include "placement/rebuild.hpp"

#include <algorithm>

namespace mcpilot::placement {

std::vector<device_rebuild> rebuild_of_devices(const layout& l, const rebuild_settings& s) {
  const int v = l.devices, k = l.group_size;
  const double b = static_cast<double>(l.groups.size());
  std::vector<device_rebuild> out(static_cast<std::size_t>(v));
  if (b == 0 || k < 2) return out;
  const double chunk = s.device_bytes * v / (b * k);
  const double read_per_group = chunk * (k - s.tolerance) / (k - 1);  // per survivor
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
    if (participants == 0) continue;
    const double groups = static_cast<double>(of[static_cast<std::size_t>(d)].size());
    r.serial_hours = groups * read_per_group / s.bandwidth_bytes_per_hour;
    r.parallel_hours = most * read_per_group / s.bandwidth_bytes_per_hour;
    r.hours = s.declustered ? r.parallel_hours : r.serial_hours;
    // Integer loads: the ratio is exactly 1 when every participant shares as many groups.
    r.max_over_mean_load = static_cast<double>(most) * participants / static_cast<double>(total);
  }
  return out;
}

}  // namespace mcpilot::placement
