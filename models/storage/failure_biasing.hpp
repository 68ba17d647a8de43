#pragma once
// P(data loss within a mission) for any lifetime and rebuild law, latent errors and scrubbing:
// failure biasing on the event-driven simulation, one excursion at a time.
//
// Decomposition. Call an excursion the time from a failure in a fully working group until every
// disk works again (or data loss). Data is lost within [0, T] in exactly one excursion, so with
// s_k the start of excursion k and F_k the whole history up to s_k,
//   P(loss by T) = E[ sum_k 1{no loss before s_k} 1{s_k <= T} pi_k ],
//   pi_k = P(excursion k loses data by T | F_k).
// This needs no regeneration: pi_k may depend on the disks' ages, the defects revealed and the
// time left. A reading follows one main path under the original law, and at each excursion start
// adds an unbiased reading of pi_k from an independent copy of the group in its state at s_k,
// simulated under failure biasing. E[reading] = P(loss by T) because each added term has
// conditional mean pi_k given the main path (its random numbers are fresh).
//
// Failure biasing in the copy. At each step, with w the next rebuild completion (or T if none
// comes first), the original probability that a working disk fails before w is
// p = 1 - exp(-H(w - now)) (aged_group.hpp). The copy takes "a failure before w" with probability
// beta instead, and multiplies its likelihood ratio by p / beta, or by (1 - p) / (1 - beta) for
// "none before w". Given the choice, what follows is drawn from the original conditional law (the
// failure time from exp(-H) conditioned on falling before w, the disk by its hazard), so the
// ratio of the path's densities is exactly the product of these factors: each step's density is
// the original one times p / beta or (1 - p) / (1 - beta).
// - beta = max(p, bias) while a rebuild can finish before T (never below the original chance).
//   bias = 0.7 by default: measured against 0.5, 0.8 and 0.9 (docs/models/storage.md, "Why
//   failure biasing"), 0.7 has 1.6 to 2.3 times less variance than 0.5, while 0.9 gains a little
//   more on tolerance 2 but lets each rebuild that completes inside a copy multiply its ratio by
//   up to 1 / (1 - bias) = 10 instead of 3.3;
// - beta = 1 when nothing but the mission end comes first: "no failure before T" ends the
//   excursion without loss and adds nothing, so forcing the failure loses nothing (the factor is
//   p; without repairs every copy then reaches loss, and the reading is a product of such p's).
// A failure that leaves exactly `tolerance` disks failed loses data by a rebuild error or a latent
// defect with a probability q that is known given the history (aged_group::fail). The copy adds
// ratio x q and goes on with ratio x (1 - q), conditioned on no loss (conditional Monte Carlo: no
// Bernoulli draw, less variance, same mean).
//
// In the fully working state the main path's next failure is forced before T: drawn from its law
// conditioned on that, with P(it does) = 1 - exp(-H(T - now)) multiplying the weight of every
// later term (paths it excludes have no excursion left to add). So each reading has a chance of a
// non-zero value even when failures within the mission are rare.
//
// Why per excursion: the likelihood ratio is a product over one excursion's few steps, never over
// a whole mission's failures, so it does not degenerate as the mission grows; a long mission
// averages more independent small terms. What remains: each copy's ratio has 1 + (steps) factors,
// so a very heavy-tailed rebuild law (long rebuilds with many failures and completions inside) or a
// large tolerance with repairs lengthens the copies and spreads the ratios (docs/models/storage.md,
// "where it degrades").
//
// G independent groups: 1 - prod_g (1 - Y_g) with Y_g independent readings for each group is an
// unbiased reading of 1 - (1 - p)^G (the expectation of a product of independent factors is the
// product of their expectations). Its cost is G group missions.

#include "mcpilot/rng.hpp"
#include "storage/group_simulation.hpp"

namespace mcpilot::storage {

constexpr double default_bias = 0.7;

// One reading of P(one group loses data by `mission`), all disks new at time 0.
double group_mission_loss_biased(const group_config& g, double mission, philox_stream& rng,
                                 double bias = default_bias);

// One reading of P(a system of `groups` groups loses data by `mission`).
double system_mission_loss_biased(const group_config& g, int groups, double mission,
                                  philox_stream& rng, double bias = default_bias);

}  // namespace mcpilot::storage
