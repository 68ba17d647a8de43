#pragma once
// Exact answers for groups without repair under any lifetime law the model offers (exponential
// or Weibull with location): the disks fail independently and never come back, so the number
// failed by t is binomial(n, F(t)).
//
// A group survives t while fewer than `tolerance` disks have failed, or exactly `tolerance` and
// the failure that left no redundancy did not hit a rebuild error (probability 1 - h; h applies
// only with tolerance >= 1, as in the simulation):
//   1 - S(t) = sum_{k > m} b_k(t) + h b_m(t),   b_k = C(n, k) F^k (1 - F)^(n - k),
// a sum of positive terms, so a loss probability of 1e-15 keeps its digits. G groups: P(loss by
// t) = -expm1(G log1p(-p)), MTTDL = integral_0^inf S(t)^G dt, by exp-sinh quadrature
// (boost::math::quadrature) after the location, with its error estimate (relative 1e-10
// requested; the configuration refuses nothing on it, the estimate is returned).

#include "storage/durations.hpp"

namespace mcpilot::storage {

struct unrepaired_group {
  int disks = 0;
  int tolerance = 0;
  double rebuild_error = 0;
  duration_law lifetime;  // exponential or Weibull
};

// P(one group lost by t).
double unrepaired_loss_by(const unrepaired_group& g, double t);

struct quadrature_result {
  double value = 0;
  double error = 0;  // the quadrature's own estimate of the absolute error
};
// Mean time to the first loss among `groups` groups.
quadrature_result unrepaired_mttdl(const unrepaired_group& g, int groups);

}  // namespace mcpilot::storage
