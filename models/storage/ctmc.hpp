#pragma once
// Exact answers for small absorbing continuous-time Markov chains: the cross-check beside the
// storage simulations. A chain has a few transient states and one absorbing state (data loss);
// off-diagonal rates among the transient states and a rate into absorption from each.
//
// Storage chains are stiff: failure rates of 1e-6/h next to repair rates of 1/24 h, and mean times
// to absorption of 1e12 h. Every routine here therefore works with positive numbers only (no
// subtraction whose cancellation would eat the digits of a rate of 1e-13/h), which keeps the
// relative error near the unit round-off times the number of states.

#include <cstddef>
#include <vector>

namespace mcpilot::storage {

class transient_chain {
 public:
  explicit transient_chain(std::size_t states)
      : size_(states), rate_(states * states, 0.0), absorb_(states, 0.0) {}

  std::size_t size() const { return size_; }
  // Rate from transient state i to transient state j (i != j).
  double& rate(std::size_t i, std::size_t j) { return rate_[i * size_ + j]; }
  double rate(std::size_t i, std::size_t j) const { return rate_[i * size_ + j]; }
  // Rate from transient state i into absorption.
  double& absorb(std::size_t i) { return absorb_[i]; }
  double absorb(std::size_t i) const { return absorb_[i]; }
  // Total rate out of i: absorption plus every transition to another transient state.
  double exit_rate(std::size_t i) const;

 private:
  std::size_t size_;
  std::vector<double> rate_;
  std::vector<double> absorb_;
};

// x = N b, N = (-Q_T)^{-1} the fundamental matrix, for b >= 0: x_i is the expected integral of
// b(X_t) until absorption from state i. With b = 1 it is the mean time to absorption.
//
// Gaussian elimination of -Q_T in the manner of Grassmann, Taksar and Heyman: the Schur complement
// of an M-matrix whose row sums are the absorption rates a is again one, with row sums
// a_i + q_ik a_k / d_k; each pivot d_k is formed as that row sum plus the remaining off-diagonal
// rates instead of by subtraction, and forward and back substitution then add positive terms only.
// O(S^3) for S states. Throws std::domain_error when some state cannot reach absorption.
std::vector<double> solve_fundamental(const transient_chain& c, std::vector<double> b);

// Mean time to absorption from every state: solve_fundamental with b = 1. O(S^3).
std::vector<double> mean_time_to_absorption(const transient_chain& c);

// The Poisson(L t) weights of uniformization, k = lo … hi with lo = L t - 12 sqrt(L t) - 40 (at
// least 0) and hi = L t + 12 sqrt(L t) + 40 (the mass outside holds less than 1e-30), by the ratio
// recursion from a start in log space; `sum` is their total, to normalise by. O(hi - lo).
struct poisson_window {
  std::size_t lo = 0, hi = 0;
  std::vector<double> weight;  // weight[k - lo]
  double sum = 0;
};
poisson_window poisson_weights(double lt);

// P(absorbed by time t | start in `from`) by uniformization: with L the largest exit rate and
// P = I + Q/L, the absorbed mass after k jumps of the uniformized chain, A_k, is a sum of
// positive terms, and P(absorbed by t) = sum_k Poisson(k; L t) A_k. The Poisson weights are
// taken from L t - 12 sqrt(L t) - 40 to L t + 12 sqrt(L t) + 40 (the tails beyond hold less than
// 1e-30) by the ratio recursion from a start in log space, and normalised by their sum.
// O(S^2 (L t + 12 sqrt(L t))). Throws std::domain_error when L t exceeds `max_jumps`.
double absorbed_by(const transient_chain& c, std::size_t from, double t, double max_jumps = 2e6);

}  // namespace mcpilot::storage
