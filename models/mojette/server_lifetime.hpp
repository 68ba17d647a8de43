#pragma once
// The lifetime scenario of a Mojette layout: n servers, one projection each, that fail and are
// rebuilt over a mission. The block is lost at the first failure after which the surviving
// projections no longer satisfy the Katz criterion. The laws are the storage model's
// (storage/durations.hpp, read by storage/duration_parameters.hpp), with the same rules: every
// server new at time 0, a rebuilt server is a new one, rebuilds one at a time (first come, first
// served) or all in parallel, each rebuild's duration drawn when it starts.
//
// Transient outages (`outage.*`, storage/outage_laws.hpp): a server that is up and not out goes
// out at rate `outage.rate`, with its projection, until the outage ends; it may fail while out,
// which ends the outage. The block is unavailable while the servers up and not out fail Katz but
// the servers up (not failed) pass it; it is lost, as before, only through failures.

#include <cstdint>
#include <optional>
#include <span>

#include "mcpilot/rng.hpp"
#include "storage/durations.hpp"
#include "storage/outage_laws.hpp"

namespace mcpilot::mojette {

struct lifetime_scenario {
  std::size_t servers = 0;
  storage::duration_law lifetime;
  storage::duration_law repair;  // kind::none: never rebuilt
  bool parallel = false;
  double mission_hours = 0;
  storage::outage_law outage;  // transient outages of single servers; rate 0: none
};

struct mission_outcome {
  bool lost = false;
  std::uint64_t survivors = 0;   // bit i: server i up, at the loss or at the end of the mission
  double unavailable_hours = 0;  // within the mission, before any loss
  int unavailable_periods = 0;   // such periods that started within it
};

// One mission, event by event. O(servers) per event. Without outages it draws exactly what it
// drew before they existed, so earlier results replay.
mission_outcome simulate_mission(const lifetime_scenario& s, std::span<const char> recoverable,
                                 philox_stream& rng);

// P(loss within the mission), exact, when lifetimes are exponential and rebuilds exponential or
// absent:
// - a layout whose recoverability depends only on how many survive (threshold t) is the storage
//   model's birth-death group with tolerance n - t (storage::system_loss_by);
// - otherwise, with parallel rebuilds or none, the Markov chain on survivor sets (each up server
//   fails at rate 1/mean, each down one comes back at 1/repair mean; unrecoverable sets absorb),
//   by uniformization (storage::absorbed_by), while it stays small (at most 256 recoverable sets
//   and 10^9 state-jump products);
// nullopt otherwise (serial rebuilds of a non-threshold layout need the queue order in the state).
std::optional<double> exact_loss_in_mission(const lifetime_scenario& s,
                                            std::span<const char> recoverable);

// Unavailability over the mission, exact, when lifetimes, rebuilds (or none) and outages are all
// exponential: the chain on (servers up, servers out among them), up sets recoverable, loss
// absorbing, and the time it spends in unavailable states over [0, mission] and its entries into
// them (storage/occupancy.hpp). Rebuilds in parallel, or none; serial rebuilds only where
// recoverability depends on how many survive, since then the queue's order does not matter and
// its one rebuild at a time is a rate mu shared by the failed servers. At most 20,000 states.
// nullopt otherwise, or without outages.
struct exact_availability {
  double unavailability = 0;   // expected unavailable hours within the mission / mission
  double events_per_year = 0;  // expected periods starting within it, per year of mission
  std::size_t states = 0;
  // The long run, a lost layout replaced at once by a new one (all servers up): the regenerative
  // ratio of storage/availability_chain.hpp, for chains of at most 600 states (a dense solve).
  std::optional<double> steady_unavailability, steady_events_per_year;
};
std::optional<exact_availability> exact_unavailability(const lifetime_scenario& s,
                                                       std::span<const char> recoverable);

}  // namespace mcpilot::mojette
