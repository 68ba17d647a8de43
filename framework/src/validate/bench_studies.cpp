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
#include <cmath>
#include <cstdio>
#include <string>

#include "mcpilot/programs/bench_session.hpp"
#include "mcpilot/rng.hpp"
#include "mcpilot/stats/wps.hpp"
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

// One %WORK_AMOUNT% session on a simulated machine (no processes) whose stable rate is 1000
// units per second: a run of w units takes 2 ms of start-up and 1 ms per unit; or, with
// short_runs, runs below 20 units never leave a warm-up that works twice as fast (0.5 ms per
// unit), and longer ones take 1 ms per unit after it, -10 ms + w ms (alpha < 0). Noise
// N(0, 0.5 ms). Whether the session converged, and whether its rate interval holds 1000.
struct wps_outcome {
  bool converged = false, covered = false;
  bool covered_keeping_all = false;  // the same runs fitted without leaving short ones out
  std::size_t runs = 0;
};

wps_outcome wps_session(bool short_runs, std::uint64_t seed) {
  programs::bench_settings s;
  s.commands = {"sim %WORK_AMOUNT%"};
  s.work_initial = short_runs ? 4 : 20;
  s.work_max = 200;
  s.seed = seed;
  s.max_seconds = 60;
  s.requirements = precision{};
  s.requirements.ci_perc = 0.04;
  s.requirements.min_samples = 30;
  std::uint64_t run = 0;
  s.launch = [&, seed, short_runs](const std::vector<std::string>& argv, const child_options&) {
    philox_stream rng(seed, run++);
    boost::random::normal_distribution<double> noise(0, 5e-4);
    const double w = std::stod(argv.back());
    child_result r;
    r.started = true;
    r.wall_seconds =
        (short_runs ? (w < 20 ? 5e-4 * w : -0.01 + 1e-3 * w) : 0.002 + 1e-3 * w) + noise(rng);
    return r;
  };
  programs::bench_session session(std::move(s));
  session.run();
  wps_outcome o;
  o.converged = session.stopped_because() == stop_reason::converged;
  if (const auto f = session.wps(session.commands()[0]); f && f->rate_low && f->rate_high)
    o.covered = *f->rate_low <= 1000 && 1000 <= *f->rate_high;
  const auto& c = session.commands()[0];
  o.runs = c.runs;
  if (const auto f = fit_wps_subsessions(c.work, c.durations, precision{}.confidence,
                                         precision{}.autocorrelation_limit);
      f && f->rate_low && f->rate_high)
    o.covered_keeping_all = *f->rate_low <= 1000 && 1000 <= *f->rate_high;
  return o;
}

validation_study wps_study() {
  return {
      "bench-wps",
      "bench's %WORK_AMOUNT% rate (the seed's WPS: ramp, refining ladders, runs too short "
      "for a stable phase left out) covers a simulated machine's stable rate",
      [](study_size size, const study_progress& progress) {
        const int sessions = size == study_size::quick ? 100 : 1000;
        study_outcome out;
        for (const bool short_runs : {false, true}) {
          study_rate r{short_runs ? "95% rate intervals covering the stable rate, runs "
                                    "below 20 units in a faster warm-up (alpha < 0)"
                                  : "95% rate intervals covering the stable rate, "
                                    "T = 2 ms + w ms",
                       0,
                       0,
                       0.93,
                       true,
                       "the project's coverage goal for a nominal 95% interval"};
          int converged = 0, kept_all = 0;
          std::size_t runs = 0;
          for (int i = 0; i < sessions; ++i) {
            const auto o = wps_session(short_runs, 20261204 + static_cast<std::uint64_t>(i));
            converged += o.converged;
            kept_all += o.covered_keeping_all;
            runs += o.runs;
            r.events += o.covered;
            ++r.trials;
            if (progress)
              progress((short_runs ? 0.5 : 0.0) + 0.5 * (i + 1) / static_cast<double>(sessions));
          }
          out.rates.push_back(r);
          out.notes.push_back(std::string(short_runs ? "alpha < 0" : "alpha > 0") + ": " +
                              std::to_string(converged) + " of " + std::to_string(sessions) +
                              " sessions converged, " + std::to_string(runs / sessions) +
                              " runs on average; fitted without leaving short runs out, " +
                              std::to_string(kept_all) + " intervals covered");
        }
        return out;
      }};
}

// One session on a simulated machine (no processes) whose run times are heavy-tailed, 10 ms
// times exp(N(0, 0.5^2)), independent or, with phi > 0, an AR(1) on the log scale (stationary,
// the same marginal): the median is 10 ms and the mean 10 exp(0.125) ms either way. Whether the
// converged interval of the statistic holds its true value.
bool session_covered(summary_statistic statistic, double phi, std::uint64_t seed, bool& converged,
                     std::uint64_t& runs) {
  programs::bench_settings s;
  s.commands = {"sim"};
  s.seed = seed;
  s.max_seconds = 60;
  s.requirements = precision{};
  s.requirements.ci_perc = 0.04;
  s.requirements.statistic = statistic;
  std::uint64_t run = 0;
  double z = 0;
  s.launch = [&, seed, phi](const std::vector<std::string>&, const child_options&) {
    philox_stream rng(seed, run);
    boost::random::normal_distribution<double> e;
    z = run == 0 ? e(rng) : phi * z + std::sqrt(1 - phi * phi) * e(rng);
    ++run;
    child_result r;
    r.started = true;
    r.wall_seconds = 0.01 * std::exp(0.5 * z);
    return r;
  };
  programs::bench_session session(std::move(s));
  session.run();
  converged = session.stopped_because() == stop_reason::converged;
  runs = session.commands()[0].runs;
  const double truth = statistic == summary_statistic::median ? 0.01 : 0.01 * std::exp(0.125);
  const analysis& a = session.commands()[0].eng->results()[0].stats;  // wall_time
  return converged && a.ci_low && a.ci_high && *a.ci_low <= truth && truth <= *a.ci_high;
}

validation_study statistic_study(summary_statistic statistic) {
  const bool median = statistic == summary_statistic::median;
  return {median ? "bench-median" : "bench-mean",
          median ? "bench --statistic median: a converged session's interval covers the median of "
                   "heavy-tailed run times (simulated, lognormal, independent and AR(1) on the log "
                   "scale)"
                 : "bench's mean, its default: a converged session's interval covers the mean of "
                   "heavy-tailed run times (simulated, lognormal, independent and AR(1) on the log "
                   "scale)",
          [statistic, median](study_size size, const study_progress& progress) {
            const int sessions = size == study_size::quick ? 60 : 1000;
            const std::string what = median ? "95% median intervals covering 10 ms"
                                            : "95% mean intervals covering 10 exp(1/8) ms";
            study_outcome out;
            const double phis[] = {0.0, 0.7};
            for (std::size_t k = 0; k < 2; ++k) {
              study_rate r{
                  what + (k == 0 ? ", independent runs" : ", AR(1) phi = 0.7"), 0, 0, 0.93, true,
                  "the project's coverage goal for a nominal 95% interval"};
              int converged = 0;
              std::uint64_t runs = 0;
              for (int i = 0; i < sessions; ++i) {
                bool c = false;
                std::uint64_t n = 0;
                r.events += session_covered(statistic, phis[k],
                                            20261204 + static_cast<std::uint64_t>(i), c, n);
                converged += c;
                runs += n;
                ++r.trials;
                if (progress)
                  progress((static_cast<double>(k) + (i + 1) / static_cast<double>(sessions)) / 2);
              }
              out.rates.push_back(r);
              out.notes.push_back(r.what + ": " + std::to_string(converged) + " of " +
                                  std::to_string(sessions) + " sessions converged, " +
                                  std::to_string(runs / static_cast<std::uint64_t>(sessions)) +
                                  " runs on average");
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
      wps_study(),
      statistic_study(summary_statistic::median),
      statistic_study(summary_statistic::mean),
  };
}

}  // namespace mcpilot
