#pragma once
// Rare-event simulation of G independent groups with exponential lifetimes and repairs.
//
// The system is the continuous-time Markov chain of group_chain.hpp, G copies at once. Groups are
// exchangeable, so its state is the number of groups with 0, 1, ..., m failed disks. The chain
// regenerates each time every disk is up again (state "all up").
//
// MTTDL by the regenerative ratio: a cycle runs from all up until all up again or data loss.
// With tau its length and gamma = P(a cycle ends in loss), MTTDL = E[tau] / gamma (the time to
// loss is a sum of cycles, their number is geometric with mean 1/gamma, and Wald's identity
// applies). E[tau] comes from ordinary cycles: they are short (a first failure, then a rebuild),
// and each holding time is replaced by its mean 1/rate given the states visited ("discrete-time
// conversion", Fox and Glynn 1990): still unbiased for E[tau], since a cycle's length given its
// jump chain has exactly that mean, and without the variance of the ~1e5 h wait for the first
// failure, which would otherwise dominate the interval.
// gamma, about 1e-7 for a RAID-6 group, comes from cycles simulated under balanced failure
// biasing (Shahabuddin 1994): in every state but all up, failures as a whole get probability
// `bias` (0.5), shared equally among the kinds of failure possible (one per occupied level:
// a failure in a group with i failed disks), and repairs share the rest in proportion to their
// rates. Holding times are not needed for gamma; the jump chain alone is biased, so the
// likelihood ratio of a path is the product over its jumps of original / biased probability, and
// 1{loss} x that ratio is an unbiased reading of gamma. Its variance stays bounded as the failure
// rates shrink (bounded relative error), which naive simulation, whose relative error grows like
// 1 / sqrt(gamma), does not have.
//
// P(loss by t). The system alternates between all up and excursions (from a failure until all up
// again or loss); excursions are independent and identically distributed given their start
// times. With s_k the start of excursion k and pi(u) = P(an excursion loses data within u hours),
//   P(loss by t) = E[ sum_k 1{excursions before k lost nothing} 1{s_k <= t} pi(t - s_k) ].
// A mission reading follows one main path under the original dynamics and adds, at each
// excursion start, an independent failure-biased excursion's 1{loss within t - s_k} x likelihood
// ratio, an unbiased reading of pi(t - s_k). In that excursion every holding time is drawn from
// its exponential law conditioned on ending before t, the ratio taking the factor P(it does):
// paths excluded so cannot lose data by t. For long missions the factor is ~1 and nothing
// changes; for short ones it keeps the readings from being all zero. The main path's own excursions
// almost never lose data, and when one does the sum stops. In the all-up state the main path's next
// failure is forced before t: its time is drawn from the exponential law conditioned on falling
// before t, and the terms after it are weighted by P(it does) = 1 - exp(-r (t - now)); paths this
// excludes add nothing to the sum anyway. So every reading has a chance of loss even when
// failures within t are rare, and a long mission with many excursions (many groups) averages
// many independent small estimates instead of compounding one path's likelihood ratio, which
// would degenerate over hundreds of biased excursions.

#include "mcpilot/rng.hpp"
#include "storage/group_chain.hpp"

namespace mcpilot::storage {

struct system_rates {
  group_rates group;
  int groups = 1;
  double bias = 0.5;  // total probability of a failure in states other than all up
};

// The expected length of one cycle under the original dynamics, in hours, given the states it
// visits (a reading whose mean is E[tau]).
double cycle_hours(const system_rates& s, philox_stream& rng);

// One cycle under failure biasing: its likelihood ratio if it ends in data loss, else 0.
double cycle_loss_weight(const system_rates& s, philox_stream& rng);

// One mission [0, t] from all up, as above: an unbiased reading of P(loss by t).
double mission_loss_weight(const system_rates& s, double t, philox_stream& rng);

// One mission under the original dynamics: 1 if loss by t, else 0. (For tests.)
double mission_loss_plain(const system_rates& s, double t, philox_stream& rng);

}  // namespace mcpilot::storage
