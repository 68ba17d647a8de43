#include "storage/system_mission.hpp"

#include <algorithm>
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <deque>
#include <tuple>

namespace mcpilot::storage {

namespace {

// Each domain's devices, group by group: members[domain] = {(group, disks of it in the domain)}.
using domain_members = std::vector<std::vector<std::pair<int, std::vector<int>>>>;

domain_members members_of(const domain_config& d, int groups, int disks) {
  domain_members m(static_cast<std::size_t>(d.count));
  for (int g = 0; g < groups; ++g)
    for (int i = 0; i < disks; ++i) {
      auto& list = m[static_cast<std::size_t>(d.domain_of(g, i, disks))];
      if (list.empty() || list.back().first != g) list.emplace_back(g, std::vector<int>{});
      list.back().second.push_back(i);
    }
  return m;
}

}  // namespace

std::pair<double, int> merge_periods(std::vector<period>& periods) {
  std::sort(periods.begin(), periods.end());
  double total = 0;
  int count = 0;
  double start = 0, end = -inf;
  for (const auto& [a, b] : periods) {
    if (a > end) {
      if (count > 0) total += end - start;
      start = a;
      end = b;
      ++count;
    } else {
      end = std::max(end, b);
    }
  }
  if (count > 0) total += end - start;
  return {total, count};
}

system_outcome simulate_system(const group_config& g, const domain_config& d, int groups,
                               double first_horizon, std::optional<double> mission,
                               philox_stream& rng) {
  system_outcome out;
  std::deque<group_process> all;  // a deque: group_process holds references, never moved
  for (int i = 0; i < groups; ++i) all.emplace_back(g, rng);

  const bool domains = d.active();
  const double domain_rate = domains ? d.count * (d.outage.rate + d.failure_rate) : 0;
  const auto members = domains ? members_of(d, groups, g.disks) : domain_members{};
  auto next_domain_event = [&](double t) {
    return domains ? t + boost::random::exponential_distribution<double>(domain_rate)(rng) : inf;
  };
  double next_event = next_domain_event(0);
  double loss = inf;
  auto advance_all = [&](double h) {
    for (auto& p : all) loss = std::min(loss, p.advance(h));
  };
  // Every group to `h`, stopping at each domain event on the way to apply it.
  auto run_to = [&](double h) {
    while (next_event <= h) {
      const double t = next_event;
      advance_all(t);
      const int which = boost::random::uniform_int_distribution<int>(0, d.count - 1)(rng);
      const bool outage = rng.uniform() * (d.outage.rate + d.failure_rate) < d.outage.rate;
      const double until = outage ? t + d.outage.duration.sample(rng) : t;
      for (const auto& [group, disks] : members[static_cast<std::size_t>(which)]) {
        auto& p = all[static_cast<std::size_t>(group)];
        if (outage)
          p.take_out(t, disks, until);
        else
          p.destroy(t, disks);
      }
      next_event = next_domain_event(t);
    }
    advance_all(h);
  };

  if (groups == 1 && !domains) {
    loss = all.front().advance(inf);  // one group runs to its loss
  } else {
    for (double horizon = first_horizon; loss == inf; horizon *= 2) run_to(horizon);
  }
  out.loss = loss;
  if (!mission) return out;
  const double T = *mission;
  // Groups were advanced to at least the system's loss; the mission's figures need them at T.
  if (loss < T) run_to(T);
  std::vector<period> periods;
  for (const auto& p : all) {
    out.groups_lost += p.loss_time() <= T;
    const auto v = p.unavailable_until(T);
    periods.insert(periods.end(), v.begin(), v.end());
  }
  std::tie(out.unavailable_hours, out.unavailable_periods) = merge_periods(periods);
  return out;
}

}  // namespace mcpilot::storage
