#include "storage/occupancy.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "storage/ctmc.hpp"

namespace mcpilot::storage {

std::vector<double> occupancy_integrals(const sparse_chain& c, std::size_t from, double t,
                                        const std::vector<std::vector<double>>& rewards,
                                        double max_jumps) {
  const std::size_t n = c.states;
  if (from >= n) throw std::invalid_argument("occupancy_integrals: no such state");
  if (!(t >= 0)) throw std::invalid_argument("occupancy_integrals: negative time");
  for (const auto& r : rewards)
    if (r.size() != n) throw std::invalid_argument("occupancy_integrals: reward of wrong size");
  std::vector<double> exit(n, 0.0);
  for (const auto& m : c.moves) {
    if (m.from >= n || m.to > n || m.from == m.to || !(m.rate >= 0))
      throw std::invalid_argument("occupancy_integrals: bad move");
    exit[m.from] += m.rate;
  }
  const double big = *std::max_element(exit.begin(), exit.end());
  std::vector<double> out(rewards.size(), 0.0);
  if (big == 0 || t == 0) {
    for (std::size_t q = 0; q < rewards.size(); ++q) out[q] = rewards[q][from] * t;
    return out;
  }
  const double lt = big * t;
  if (lt > max_jumps)
    throw std::domain_error(
        "occupancy_integrals: too many uniformization steps (L t = " + std::to_string(lt) + ")");
  // P(N > k) for k in [lo, hi], summed from the top so that every term is positive; 1 below lo,
  // where the mass left out is under 1e-30.
  const poisson_window pw = poisson_weights(lt);
  const std::vector<double>& w = pw.weight;
  const double sum_w = pw.sum;
  const std::size_t lo = pw.lo, hi = pw.hi;
  std::vector<double> tail(w.size());
  double above = 0;
  for (std::size_t i = w.size(); i-- > 0;) {
    tail[i] = above / sum_w;
    above += w[i];
  }
  std::vector<double> stay(n);
  for (std::size_t i = 0; i < n; ++i) stay[i] = std::max(0.0, 1.0 - exit[i] / big);
  std::vector<double> p(n, 0.0), next(n);
  p[from] = 1.0;
  for (std::size_t k = 0; k <= hi; ++k) {
    const double beyond = k < lo ? 1.0 : tail[k - lo];  // P(N > k)
    for (std::size_t q = 0; q < rewards.size(); ++q) {
      double e = 0;
      for (std::size_t i = 0; i < n; ++i) e += p[i] * rewards[q][i];
      out[q] += beyond * e;
    }
    for (std::size_t i = 0; i < n; ++i) next[i] = p[i] * stay[i];
    for (const auto& m : c.moves)
      if (m.to < n) next[m.to] += p[m.from] * m.rate / big;
    p.swap(next);
  }
  for (double& v : out) v /= big;
  return out;
}

}  // namespace mcpilot::storage
