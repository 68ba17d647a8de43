#include "storage/domain_chain.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <vector>

#include "storage/ctmc.hpp"

namespace mcpilot::storage {

namespace {

using counts = std::vector<int>;  // failed devices per domain, sorted descending

// Every multiset of per-domain failed counts with total <= tolerance.
void enumerate(int domains, int per_domain, int budget, counts& cur, std::vector<counts>& out) {
  if (static_cast<int>(cur.size()) == domains) {
    out.push_back(cur);
    return;
  }
  const int cap = std::min({per_domain, budget, cur.empty() ? per_domain : cur.back()});
  for (int c = cap; c >= 0; --c) {
    cur.push_back(c);
    enumerate(domains, per_domain, budget - c, cur, out);
    cur.pop_back();
  }
}

}  // namespace

domain_group_exact domain_group_loss(const domain_group_rates& r, double t) {
  std::vector<counts> states;
  counts cur;
  enumerate(r.domains, r.per_domain, r.tolerance, cur, states);
  if (states.size() > 2000) throw std::invalid_argument("domain_group_loss: too many states");
  std::map<counts, std::size_t> index;
  for (std::size_t i = 0; i < states.size(); ++i) index[states[i]] = i;
  transient_chain chain(states.size());
  const int m = r.tolerance;
  for (std::size_t i = 0; i < states.size(); ++i) {
    const counts& s = states[i];
    int failed = 0;
    for (const int c : s) failed += c;
    // A move of domain d's count to c2, at `rate`: to another state, or to loss.
    auto move = [&](std::size_t d, int c2, double rate, bool failure) {
      if (rate <= 0) return;
      counts n = s;
      const int total = failed - s[d] + c2;
      n[d] = c2;
      if (total > m) {
        chain.absorb(i) += rate;
        return;
      }
      std::sort(n.begin(), n.end(), std::greater<int>());
      const std::size_t j = index.at(n);
      if (failure && total == m && m >= 1 && r.rebuild_error > 0) {
        chain.absorb(i) += rate * r.rebuild_error;
        chain.rate(i, j) += rate * (1 - r.rebuild_error);
      } else {
        chain.rate(i, j) += rate;
      }
    };
    for (std::size_t d = 0; d < s.size(); ++d) {
      const int working = r.per_domain - s[d];
      move(d, s[d] + 1, working * r.failure_rate, true);
      if (working > 0) move(d, r.per_domain, r.domain_failure_rate, true);
      if (s[d] > 0) move(d, s[d] - 1, s[d] * r.repair_rate, false);
    }
  }
  const std::size_t start = index.at(counts(static_cast<std::size_t>(r.domains), 0));  // all up
  domain_group_exact e;
  e.mttdl_hours = mean_time_to_absorption(chain)[start];
  try {
    e.loss_by = absorbed_by(chain, start, t);
  } catch (const std::domain_error&) {
  }
  return e;
}

}  // namespace mcpilot::storage
