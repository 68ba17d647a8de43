#pragma once
// A bench session of one command whose runs are simulated, so that the counts and segments a test
// checks are known: run k takes level(k) + N(0, sd) seconds, drawn from Philox stream (seed, k).
// `run` counts the runs launched and must outlive the session.

#include <boost/random/normal_distribution.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mcpilot/programs/bench_session.hpp"
#include "mcpilot/rng.hpp"

namespace mcpilot::test {

inline programs::bench_settings simulated_bench(std::function<double(std::uint64_t)> level,
                                                double sd, std::uint64_t seed, std::uint64_t& run) {
  programs::bench_settings s;
  s.commands = {"sim"};
  s.max_seconds = 60;
  s.requirements.ci_perc = 0.1;
  s.launch = [level = std::move(level), sd, seed, &run](const std::vector<std::string>&,
                                                        const child_options&) {
    philox_stream rng(seed, run);
    boost::random::normal_distribution<double> noise(0, sd);
    child_result r;
    r.started = true;
    r.wall_seconds = level(run) + noise(rng);
    ++run;
    return r;
  };
  return s;
}

}  // namespace mcpilot::test
