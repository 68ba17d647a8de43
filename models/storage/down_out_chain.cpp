#include "storage/down_out_chain.hpp"

#include <bit>
#include <cstdint>
#include <deque>
#include <map>
#include <utility>

#include "storage/availability_chain.hpp"
#include "storage/nines.hpp"

namespace mcpilot::storage {

namespace {

using mask = std::uint64_t;

// (failed, out), bit d for device d.
struct device_state {
  mask failed = 0, out = 0;
  auto operator<=>(const device_state&) const = default;
};

class down_out_states {
 public:
  explicit down_out_states(const down_out_rates& r) : r_(r) {
    const auto& f = r.failures;
    for (const auto& g : f.groups) {
      mask m = 0;
      for (int d : g) m |= mask{1} << d;
      groups_.push_back(m);
    }
    if (f.domains > 0 && f.domain_failure_rate > 0)
      for (int j = 0; j < f.domains; ++j) {
        mask m = 0;
        for (int d = j; d < f.devices; d += f.domains) m |= mask{1} << d;
        domains_.push_back(m);
      }
  }

  bool unavailable(device_state x) const {
    for (const mask g : groups_)
      if (std::popcount((x.failed | x.out) & g) > r_.failures.tolerance) return true;
    return false;
  }

  // Calls f(to, rate) for every move out of x.
  template <class F>
  void moves(device_state x, F&& f) const {
    const auto& r = r_.failures;
    for (int d = 0; d < r.devices; ++d) {
      const mask b = mask{1} << d;
      if (x.failed & b) {
        f(device_state{x.failed & ~b, x.out}, r.repair_rate);
        continue;
      }
      f(fail(x, b), r.failure_rate);
      if (x.out & b)
        f(device_state{x.failed, x.out & ~b}, r_.outage_end);
      else
        f(device_state{x.failed, x.out | b}, r_.outage_rate);
    }
    for (const mask m : domains_)
      if (const mask working = m & ~x.failed) f(fail(x, working), r.domain_failure_rate);
  }

 private:
  // The devices in `b` fail; every group then past its tolerance is replaced by a new one.
  device_state fail(device_state x, mask b) const {
    x.failed |= b;
    x.out &= ~b;
    mask renewed = 0;
    for (const mask g : groups_)
      if (std::popcount(x.failed & g) > r_.failures.tolerance) renewed |= g;
    x.failed &= ~renewed;
    x.out &= ~renewed;
    return x;
  }

  const down_out_rates& r_;
  std::vector<mask> groups_, domains_;
};

}  // namespace

std::optional<steady_availability> down_out_availability(const down_out_rates& r,
                                                         std::size_t max_states) {
  if (r.failures.devices > 64 || !(r.failures.repair_rate > 0)) return std::nullopt;
  const down_out_states chain(r);
  std::map<device_state, std::size_t> index{{device_state{}, 0}};
  std::deque<device_state> todo{device_state{}};
  std::vector<std::vector<availability_transition>> out;
  std::vector<char> unavailable;
  while (!todo.empty()) {
    const device_state x = todo.front();
    todo.pop_front();
    std::vector<availability_transition> t;
    chain.moves(x, [&](device_state to, double rate) {
      if (!(rate > 0) || to == x) return;
      const auto [at, added] = index.emplace(to, index.size());
      if (added) todo.push_back(to);
      t.push_back({at->second, rate});
    });
    out.push_back(std::move(t));
    unavailable.push_back(chain.unavailable(x) ? 1 : 0);
    if (index.size() > max_states) return std::nullopt;
  }
  const availability_chain c(std::move(out), std::move(unavailable));
  steady_availability a;
  a.states = c.size();
  a.unavailability = steady_unavailability(c);
  a.unavailable_per_year = steady_unavailable_entries(c) * hours_per_year;
  return a;
}

}  // namespace mcpilot::storage
