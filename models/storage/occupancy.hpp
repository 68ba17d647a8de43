#pragma once
// Time spent in states of a continuous-time Markov chain over [0, t], exactly: the expected
// integral of a reward r(X_s) over s in [0, t] from a given start, r = 0 once the chain is
// absorbed. Exact unavailability over a mission is one such integral (r = 1 on the unavailable
// states), and the expected number of entries into unavailability another (r = the rate from a
// state into the unavailable ones). The chains it serves have a few hundred states and a few
// moves from each, so they are held sparse.
//
// Uniformization: with L the largest exit rate and P = I + Q / L,
//   integral_0^t P(X_s = i) ds = (1 / L) sum_k P(N > k) pi_k(i),   N ~ Poisson(L t),
// pi_k the distribution after k jumps of the uniformized chain (the k-th jump of a Poisson
// process of rate L lands in [0, t] with probability P(N >= k)). Every term is positive. The
// Poisson weights come from L t - 12 sqrt(L t) - 40 on (the mass below holds less than 1e-30), as
// in absorbed_by (ctmc.hpp), and the sum stops at L t + 12 sqrt(L t) + 40, where P(N > k) < 1e-30.

#include <cstddef>
#include <vector>

namespace mcpilot::storage {

struct sparse_chain {
  std::size_t states = 0;
  struct move {
    std::size_t from, to;  // to == states: absorption
    double rate;
  };
  std::vector<move> moves;  // off-diagonal rates; several moves between two states add up
};

// One integral per reward vector (each of size `states`), from state `from` over [0, t].
// O(moves x (L t + 12 sqrt(L t) + 40)) for all the rewards together, plus O(states) per reward
// and jump. Throws std::domain_error when L t exceeds max_jumps, std::invalid_argument on a bad
// state, move, time or reward size.
std::vector<double> occupancy_integrals(const sparse_chain& c, std::size_t from, double t,
                                        const std::vector<std::vector<double>>& rewards,
                                        double max_jumps = 2e6);

}  // namespace mcpilot::storage
