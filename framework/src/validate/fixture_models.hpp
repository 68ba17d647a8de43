#pragma once
// The small models the framework's own validation studies run, each with a known answer: iid
// normal and lognormal readings, 0/1 trials, rates whose harmonic mean is known, and the M/M/1
// queue's waits. They live here, not in examples/ or models/, so that `mcpilot validate` ships with
// everything it runs; the M/M/1 queue is the same process as examples/mm1_queue (Lindley's
// recursion from an empty queue).

#include <memory>

#include "mcpilot/model.hpp"

namespace mcpilot::validation_fixtures {

// Replication style: one reading of N(mean, sd^2) per replication.
std::unique_ptr<model> normal_readings(double mean, double sd);
// Replication style: one 0/1 reading, 1 with probability p (a proportion).
std::unique_ptr<model> bernoulli_trials(double p);
// Replication style: one rate reading 1 / T with T ~ Gamma(shape, 1 / shape), whose harmonic
// mean converges to 1 / E[T] = 1 (a rate).
std::unique_ptr<model> unit_rate(double shape);
// Replication style: one lognormal(0, sigma^2) reading per replication, mean exp(sigma^2 / 2).
std::unique_ptr<model> lognormal_readings(double sigma);
// Stream style: the M/M/1 queue's waits in queue, arrivals at rate rho and service at rate 1,
// from an empty queue; steady-state mean wait rho / (1 - rho).
std::unique_ptr<model> mm1_waits(double rho);

}  // namespace mcpilot::validation_fixtures
