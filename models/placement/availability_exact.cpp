#include "placement/availability_exact.hpp"

#include <bit>
#include <cstdint>
#include <deque>
#include <map>
#include <utility>

#include "storage/availability_chain.hpp"
#include "storage/nines.hpp"

namespace mcpilot::placement {

namespace {

using mask = std::uint64_t;

// (failed, out), bit d for device d.
struct device_state {
  mask failed = 0, out = 0;
  auto operator<=>(const device_state&) const = default;
};

class availability_states {
 public:
  availability_states(const layout& l, const lifetime_settings& s) : s_(s), v_(l.devices) {
    for (const auto& g : l.groups) {
      mask m = 0;
      for (int d : g) m |= mask{1} << d;
      groups_.push_back(m);
    }
    if (s.domains.count > 0 && s.domains.failure_rate > 0)
      for (int j = 0; j < s.domains.count; ++j) {
        mask m = 0;
        for (int d = 0; d < v_; ++d)
          if (domain_of_device(s.domains, d) == j) m |= mask{1} << d;
        domains_.push_back(m);
      }
  }

  bool unavailable(device_state x) const {
    for (const mask g : groups_)
      if (std::popcount((x.failed | x.out) & g) > s_.tolerance) return true;
    return false;
  }

  // Calls f(to, rate) for every move out of x.
  template <class F>
  void moves(device_state x, F&& f) const {
    const double lambda = 1 / s_.lifetime.mean, mu = 1 / s_.repair.mean;
    const bool outages = s_.outage.active();
    const double alpha = outages ? s_.outage.rate : 0,
                 beta = outages ? 1 / s_.outage.duration.mean : 0;
    for (int d = 0; d < v_; ++d) {
      const mask b = mask{1} << d;
      if (x.failed & b) {
        f(device_state{x.failed & ~b, x.out}, mu);
        continue;
      }
      f(fail(x, b), lambda);
      if (x.out & b)
        f(device_state{x.failed, x.out & ~b}, beta);
      else if (alpha > 0)
        f(device_state{x.failed, x.out | b}, alpha);
    }
    for (const mask m : domains_)
      if (const mask working = m & ~x.failed) f(fail(x, working), s_.domains.failure_rate);
  }

 private:
  // The devices in `b` fail; every group then past its tolerance is replaced by a new one.
  device_state fail(device_state x, mask b) const {
    x.failed |= b;
    x.out &= ~b;
    mask renewed = 0;
    for (const mask g : groups_)
      if (std::popcount(x.failed & g) > s_.tolerance) renewed |= g;
    x.failed &= ~renewed;
    x.out &= ~renewed;
    return x;
  }

  const lifetime_settings& s_;
  int v_;
  std::vector<mask> groups_, domains_;
};

}  // namespace

std::optional<steady_availability> exact_steady_availability(const layout& l,
                                                             const lifetime_settings& s,
                                                             std::size_t max_states) {
  using kind = storage::duration_law::kind;
  const bool domain_outages = s.domains.count > 0 && s.domains.outage.active();
  if (l.devices > 64 || s.lifetime.type != kind::exponential ||
      s.repair.type != kind::exponential || domain_outages || !s.outage.active() ||
      s.outage.duration.type != kind::exponential)
    return std::nullopt;
  for (const double h : s.rebuild_hours)
    if (h != 0) return std::nullopt;
  const availability_states chain(l, s);
  std::map<device_state, std::size_t> index{{device_state{}, 0}};
  std::deque<device_state> todo{device_state{}};
  std::vector<std::vector<storage::availability_transition>> out;
  std::vector<char> unavailable;
  while (!todo.empty()) {
    const device_state x = todo.front();
    todo.pop_front();
    std::vector<storage::availability_transition> t;
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
  const storage::availability_chain c(std::move(out), std::move(unavailable));
  steady_availability a;
  a.states = c.size();
  a.unavailability = storage::steady_unavailability(c);
  a.unavailable_per_year = storage::steady_unavailable_entries(c) * storage::hours_per_year;
  return a;
}

}  // namespace mcpilot::placement
