#pragma once
// The long-run unavailability of a group by importance sampling on its availability chain
// (availability_chain.hpp): the regenerative ratio with balanced failure biasing, as importance.hpp
// does for loss.
//
// A cycle runs from all up (no device failed or out) until all up again or a loss, after which
// a new group starts all up. By the renewal-reward theorem the long-run fraction of time
// unavailable is E[time unavailable in a cycle] / E[cycle length], and the rate of entries into
// unavailability is E[entries in a cycle] / E[cycle length].
// - The denominator comes from ordinary cycles with each holding time replaced by its mean
//   1/rate given the states visited (discrete-time conversion, Fox and Glynn 1990): unbiased.
// - The numerators come from cycles under balanced failure biasing (Shahabuddin 1994). Leaving
//   all up is not biased. Elsewhere the moves toward unavailability or loss (a failure, of an up
//   or an out device, or an outage starting) share probability `bias`, equally; the moves back
//   (an outage ending, a rebuild) share the rest in proportion to their rates. The reading is
//   the sum, over the unavailable states visited, of 1/(exit rate) times the likelihood ratio of
//   the path up to that state (original over biased probabilities of its jumps); its mean is
//   E[time unavailable in a cycle], since a path prefix's ratio makes any function of that
//   prefix unbiased, and the holding time's mean given the state is 1/(exit rate). Entries are
//   counted the same way, each weighted by the ratio of the path up to the entry.
// An unavailable period needs tolerance + 1 devices down together, each move of probability
// ~ (alpha or lambda) / (beta or mu) under the original law; under biasing each has probability
// ~1/2 divided by the number of kinds, so the relative error stays bounded as outages shorten.

#include "mcpilot/rng.hpp"
#include "storage/availability_chain.hpp"

namespace mcpilot::storage {

// One ordinary cycle: its expected length given the states visited, hours.
double availability_cycle_hours(const availability_chain& c, philox_stream& rng);

struct availability_weights {
  double unavailable_hours = 0;  // mean: E[time unavailable in a cycle]
  double entries = 0;            // mean: E[entries into unavailability in a cycle]
};
// One cycle under balanced failure biasing.
availability_weights availability_cycle_weights(const availability_chain& c, philox_stream& rng,
                                                double bias = 0.5);

}  // namespace mcpilot::storage
