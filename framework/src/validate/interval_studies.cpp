// The framework's interval studies: how often a 95% interval holds the known answer, for the
// situations the engine meets: iid readings, autocorrelated readings (AR(1), fixed n), the M/M/1
// queue's waits in sequential sessions (warm-up and autocorrelation together), proportions and
// rates. The gate of every coverage is the project's goal, 93%, for a nominal 95% interval
// (docs/validation.md); the sizes are those of docs/validate.md.

#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "coverage_sessions.hpp"
#include "fixture_models.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/validate.hpp"

namespace mcpilot {

namespace {

constexpr double coverage_gate = 0.93;
const char* const coverage_reason = "the project's coverage goal for a nominal 95% interval";

study_rate coverage_rate(std::string what, const validation_detail::coverage_count& c) {
  return {std::move(what), c.covered, c.sessions, coverage_gate, true, coverage_reason};
}

std::string readings_note(const std::string& what, double readings) {
  return what + ": " + std::to_string(static_cast<long long>(std::llround(readings))) +
         " readings per session on average";
}

validation_study iid_study() {
  return {"interval-iid",
          "\"converged\" on independent readings: sequential sessions of N(10, 2^2) readings at "
          "the normal preset cover the mean",
          [](study_size size, const study_progress& progress) {
            const auto m = validation_fixtures::normal_readings(10, 2);
            const auto c = validation_detail::count_coverage(*m, "x", 10, *preset("normal"),
                                                             size == study_size::quick ? 200 : 1000,
                                                             progress, 0, 1);
            return study_outcome{{coverage_rate("95% intervals holding the mean 10", c)},
                                 {readings_note("normal preset", c.mean_readings)}};
          }};
}

validation_study mm1_study() {
  return {
      "interval-mm1",
      "\"converged\" on a steady-state simulation with a warm-up and autocorrelated readings: "
      "sequential sessions of the M/M/1 queue's waits cover the exact mean rho / (1 - rho)",
      [](study_size size, const study_progress& progress) {
        const std::uint64_t sessions = size == study_size::quick ? 100 : 1000;
        study_outcome out;
        const std::vector<double> loads =
            size == study_size::quick ? std::vector<double>{0.5} : std::vector<double>{0.5, 0.8};
        for (std::size_t i = 0; i < loads.size(); ++i) {
          const double rho = loads[i];
          const auto m = validation_fixtures::mm1_waits(rho);
          const double from = static_cast<double>(i) / static_cast<double>(loads.size());
          const auto c = validation_detail::count_coverage(
              *m, "wait", rho / (1 - rho), *preset("normal"), sessions, progress, from,
              from + 1.0 / static_cast<double>(loads.size()));
          const std::string label = "M/M/1, rho = " + std::to_string(rho).substr(0, 3);
          out.rates.push_back(coverage_rate("95% intervals holding the mean wait, " + label, c));
          out.notes.push_back(readings_note(label, c.mean_readings));
        }
        return out;
      }};
}

validation_study proportion_study() {
  return {"interval-proportion",
          "\"converged\" for a proportion: sessions of 0/1 trials with p = 0.2 cover p",
          [](study_size size, const study_progress& progress) {
            const auto m = validation_fixtures::bernoulli_trials(0.2);
            const auto c = validation_detail::count_coverage(*m, "hit", 0.2, *preset("normal"),
                                                             size == study_size::quick ? 200 : 1000,
                                                             progress, 0, 1);
            return study_outcome{{coverage_rate("95% intervals holding p = 0.2", c)},
                                 {readings_note("normal preset", c.mean_readings)}};
          }};
}

validation_study rate_study() {
  return {"interval-rate",
          "\"converged\" for a rate: sessions of readings 1/T, T ~ Gamma(4, 1/4), cover the "
          "harmonic mean's limit 1 / E[T] = 1",
          [](study_size size, const study_progress& progress) {
            const auto m = validation_fixtures::unit_rate(4);
            // Which side the misses fall on: a skewed T (skewness 1) and a session that stops at
            // its first narrow interval each push them one way.
            std::uint64_t below = 0, above = 0;
            const auto c = validation_detail::count_coverage(
                *m, "throughput", 1, *preset("normal"), size == study_size::quick ? 200 : 1000,
                progress, 0, 1, [&](const analysis& a) {
                  if (a.ci_high && *a.ci_high < 1) ++below;
                  if (a.ci_low && *a.ci_low > 1) ++above;
                });
            return study_outcome{{coverage_rate("95% intervals holding the rate 1", c)},
                                 {readings_note("normal preset", c.mean_readings),
                                  "misses: " + std::to_string(below) + " wholly below 1, " +
                                      std::to_string(above) + " wholly above"}};
          }};
}

// AR(1) around 10 with unit variance, started in its stationary distribution.
void fill_ar1(std::vector<double>& x, double rho, std::mt19937_64& gen) {
  boost::random::normal_distribution<double> normal;
  const double innovation = std::sqrt(1 - rho * rho);
  double v = normal(gen);
  for (double& xi : x) {
    xi = 10 + v;
    v = rho * v + innovation * normal(gen);
  }
}

}  // namespace

validation_study ar1_interval_study(interval_under_test interval) {
  if (!interval)
    interval = [](std::span<const double> x) -> std::optional<std::pair<double, double>> {
      analysis_options o;
      o.requirements = *preset("normal");
      o.remove_warmup = false;  // stationary from the first reading: nothing to remove
      const analysis a = analyze(x, o);
      if (!a.ci_low || !a.ci_high) return std::nullopt;
      return std::pair{*a.ci_low, *a.ci_high};
    };
  return {"interval-ar1",
          "the interval on autocorrelated readings: analyze() of AR(1) series (rho 0.5, and 0.9 "
          "in --full; 10^4 readings each) covers the mean",
          [interval](study_size size, const study_progress& progress) {
            const int series = size == study_size::quick ? 400 : 2000;
            const std::vector<double> rhos = size == study_size::quick
                                                 ? std::vector<double>{0.5}
                                                 : std::vector<double>{0.5, 0.9};
            study_outcome out;
            std::vector<double> x(10000);
            for (std::size_t k = 0; k < rhos.size(); ++k) {
              std::mt19937_64 gen(20261203 + k);
              study_rate r{"95% intervals holding the mean, AR(1) rho = " +
                               std::to_string(rhos[k]).substr(0, 3),
                           0,
                           0,
                           coverage_gate,
                           true,
                           coverage_reason};
              for (int s = 0; s < series; ++s) {
                fill_ar1(x, rhos[k], gen);
                const auto ci = interval(x);
                if (ci && ci->first <= 10 && 10 <= ci->second) ++r.events;
                ++r.trials;
                if (progress && s % 20 == 0)
                  progress((static_cast<double>(k) + static_cast<double>(s) / series) /
                           static_cast<double>(rhos.size()));
              }
              out.rates.push_back(r);
            }
            return out;
          }};
}

std::vector<validation_study> interval_studies() {
  return {iid_study(), ar1_interval_study(), mm1_study(), proportion_study(), rate_study()};
}

}  // namespace mcpilot
