// The bench A/A studies: two identical commands, interleaved, must not be reported as different
// more often than the confidence allows (at most 5% at 95%), also when the machine's speed
// changes once during the session (docs/bench.md, "Comparing commands"). Two machines:
// - a simulated one (no processes): each run prints 10 + N(0, 1) during the session's first 100
//   runs and 5 + N(0, 1) after, the case in which comparing each command's own stable phase
//   said "resolved" for 13 seeds in 20; warm-up removal on, --until separated and --until precise;
// - this machine: `true` against `true`, as they run here, with and without a level shift
//   injected into the measured wall times (+1 ms from the session's 100th run on).
// Gate: the false "resolved" rate at most 5%, failed only when its 95% Clopper-Pearson interval
// lies wholly above it.

#include <boost/random/normal_distribution.hpp>
#include <cstdio>
#include <string>

#include "mcpilot/programs/bench_session.hpp"
#include "mcpilot/rng.hpp"
#include "mcpilot/validate.hpp"

namespace mcpilot {

namespace {

struct aa_case {
  bool simulated = true;
  bool shift = true;
  bool separated = true;
  std::uint64_t max_runs = 1000;
};

// One session of two identical commands; whether their pair came out resolved.
bool aa_resolved(const aa_case& c, std::uint64_t seed) {
  programs::bench_settings s;
  s.names = {"a", "b"};
  s.seed = seed;
  s.until_separated = c.separated;
  s.max_runs = c.max_runs;
  s.max_seconds = 60;
  s.requirements = precision{};
  s.requirements.ci_perc = 0.04;
  s.requirements.min_samples = 30;
  std::uint64_t run = 0;
  if (c.simulated) {
    s.commands = {"a", "b"};
    s.columns = {"reading"};
    s.launch = [&, seed](const std::vector<std::string>&, const child_options&) {
      philox_stream rng(seed, run);
      boost::random::normal_distribution<double> normal;
      child_result r;
      r.started = true;
      char line[64];
      std::snprintf(line, sizeof line, "%.17g\n", (run < 100 ? 10.0 : 5.0) + normal(rng));
      r.output = line;
      ++run;
      return r;
    };
  } else {
    s.commands = {"true", "true"};
    const bool shift = c.shift;
    s.launch = [&, shift](const std::vector<std::string>& argv, const child_options& o) {
      child_result r = run_child(argv, o);
      if (shift && run >= 100) r.wall_seconds += 1e-3;
      ++run;
      return r;
    };
  }
  programs::bench_session session(std::move(s));
  session.run();
  return !session.pairs().empty() && session.pairs()[0].resolved;
}

validation_study aa_study(std::string name, std::string guards, std::vector<aa_case> cases,
                          std::vector<std::string> what, int quick, int full) {
  return {std::move(name), std::move(guards), [=](study_size size, const study_progress& progress) {
            const int sessions = size == study_size::quick ? quick : full;
            study_outcome out;
            const double total = static_cast<double>(sessions * cases.size());
            for (std::size_t k = 0; k < cases.size(); ++k) {
              study_rate r{what[k], 0,     0,
                           0.05,    false, "1 - confidence: equal commands told apart by chance"};
              for (int i = 0; i < sessions; ++i) {
                r.events += aa_resolved(cases[k], 20261203 + static_cast<std::uint64_t>(i));
                ++r.trials;
                if (progress) progress(static_cast<double>(k * sessions + i + 1) / total);
              }
              out.rates.push_back(r);
            }
            return out;
          }};
}

}  // namespace

std::vector<validation_study> bench_studies() {
  return {
      aa_study("bench-aa-shift",
               "bench does not tell identical commands apart when the machine's speed halves "
               "during the session (simulated runs, warm-up removal on)",
               {{true, true, true, 1000}, {true, true, false, 1000}},
               {"identical commands resolved, level shift at run 100, --until separated",
                "identical commands resolved, level shift at run 100, --until precise"},
               40, 200),
      aa_study("bench-aa-true",
               "bench does not tell `true` from `true` apart on this machine, with and without a "
               "level shift injected into the wall times",
               {{false, false, true, 400}, {false, true, true, 400}},
               {"`true` vs `true` resolved, --until separated, at most 400 runs",
                "`true` vs `true` resolved, +1 ms from run 100 on, --until separated"},
               6, 40),
  };
}

}  // namespace mcpilot
