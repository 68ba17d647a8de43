#pragma once
// Birth-death chains with killing, the shape of a redundancy group's Markov model (state = failed
// disks, killing = data loss), and what follows for G independent copies of one: the survival
// function as a sum of exponentials, and the mean of the first absorption among the copies.

#include <cstddef>
#include <vector>

#include "storage/ctmc.hpp"

namespace mcpilot::storage {

struct birth_death {
  std::vector<double> up;    // i -> i+1; the last state's entry is unused
  std::vector<double> down;  // i -> i-1; state 0's entry is unused
  std::vector<double> kill;  // i -> absorption

  std::size_t size() const { return kill.size(); }
  transient_chain chain() const;
};

// S(t) = P(not absorbed by t | start in 0) = sum_k c_k exp(-r_k t).
struct survival_spectrum {
  std::vector<double> rate;    // r_k > 0, ascending
  std::vector<double> weight;  // c_k; they sum to 1

  double survival(double t) const;
  // 1 - S(t) as sum_k c_k (1 - exp(-r_k t)) with expm1: for a stiff chain c_0 is close to 1 and
  // the other weights are small, so a probability of 1e-8 keeps its digits.
  double absorbed_by(double t) const;
};

// The spectrum of a birth-death chain. With every up_i down_{i+1} > 0 the generator is similar to
// a symmetric tridiagonal matrix (scale state i+1 by sqrt(up_i / down_{i+1})), whose eigenpairs
// come from cyclic Jacobi rotations; the eigenvalues are then real and the weights follow from
// the eigenvectors. With no down rates at all (no repair) the generator is upper bidiagonal and
// its distinct diagonal gives eigenpairs by substitution. Any other shape: std::domain_error.
// The slowest mode, which carries a stiff chain's long time scale (r_0 ~ 1e-13 next to repair
// rates ~ 1e-2, beyond what an eigen-solver resolves relatively), is then refined from two exact
// identities: sum_k c_k = S(0) = 1, and sum_k c_k / r_k = the mean time to absorption, which
// solve_fundamental gives to full relative precision. O(S^3).
survival_spectrum spectrum(const birth_death& bd);

// E[min of `copies` independent absorption times, each from state 0] = integral of S(t)^G dt.
// One copy: the mean time to absorption itself. Otherwise S^G is integrated by adaptive
// Gauss-Kronrod up to T = 60 / (second slowest rate), past which only the slowest mode is left
// (exp(-60) ~ 1e-26) and the tail is c_0^G exp(-G r_0 T) / (G r_0) in closed form. Relative
// accuracy ~1e-12.
double mean_first_absorption(const birth_death& bd, std::size_t copies);

}  // namespace mcpilot::storage
