// The change-point studies: how often the warm-up and cool-down detection reports a change in
// readings that have none (a false verdict that discards good readings), and how often it finds a
// warm-up that is there. The gates are the method's published figures with room for the quick
// size: at most 2% false on independent readings (the seed: at most 0.7% at n = 100 ... 3000),
// at most 5% on AR(1) with rho = 0.5 (the seed: at most 2.0%), and a warm-up of 50 among 500
// normal readings, 1 sd lower, found within 20 readings in at least 90% (the seed: 96-97%).

#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <cstdlib>
#include <random>
#include <vector>

#include "mcpilot/stats/changepoint.hpp"
#include "mcpilot/validate.hpp"

namespace mcpilot {

namespace {

// Normal noise (rho = 0) or AR(1) with unit marginal variance, started stationary.
void fill_noise(std::vector<double>& x, double rho, std::mt19937_64& gen) {
  boost::random::normal_distribution<double> normal;
  const double innovation = std::sqrt(1 - rho * rho);
  double v = normal(gen);
  for (double& xi : x) {
    xi = v;
    v = rho * v + innovation * normal(gen);
  }
}

validation_study detection_study() {
  return {"changepoints-detect",
          "warm-up removal finds a warm-up that is there: 50 of 500 normal readings 1 sd lower, "
          "found within 20 readings of where it ends",
          [](study_size size, const study_progress& progress) {
            const int series = size == study_size::quick ? 300 : 2000;
            std::mt19937_64 gen(20261204);
            std::vector<double> x(500);
            study_rate r{"warm-ups of 50 readings found within 20 readings", 0, 0, 0.90, true,
                         "the method's 96-97%, less room for the quick size"};
            for (int s = 0; s < series; ++s) {
              fill_noise(x, 0, gen);
              for (std::size_t i = 0; i < 50; ++i) x[i] -= 1;
              const changepoint_result c = detect_changepoints(x);
              bool found = false;
              for (std::size_t cp : c.changepoints)
                if (cp + 20 >= 50 && cp <= 70) found = true;
              r.events += found ? 1 : 0;
              ++r.trials;
              if (progress && s % 20 == 0) progress(static_cast<double>(s) / series);
            }
            return study_outcome{{r}, {}};
          }};
}

}  // namespace

validation_study changepoint_false_alarm_study(changepoint_under_test reports_change) {
  if (!reports_change)
    reports_change = [](std::span<const double> x) {
      return !detect_changepoints(x).changepoints.empty();
    };
  return {"changepoints-false",
          "warm-up removal keeps readings that have no warm-up: series of 500 normal readings and "
          "of AR(1) with rho = 0.5, without a change, with a change-point reported",
          [reports_change](study_size size, const study_progress& progress) {
            const int series = size == study_size::quick ? 500 : 5000;
            study_outcome out;
            const double rhos[] = {0, 0.5};
            std::vector<double> x(500);
            for (int k = 0; k < 2; ++k) {
              std::mt19937_64 gen(20261205 + static_cast<std::uint64_t>(k));
              study_rate r{k == 0 ? "normal readings with a change-point reported"
                                  : "AR(1) rho = 0.5 readings with a change-point reported",
                           0,
                           0,
                           k == 0 ? 0.02 : 0.05,
                           false,
                           k == 0 ? "the method's at most 0.7%, with room"
                                  : "the method's at most 2.0%, with room"};
              for (int s = 0; s < series; ++s) {
                fill_noise(x, rhos[k], gen);
                r.events += reports_change(x) ? 1 : 0;
                ++r.trials;
                if (progress && s % 50 == 0) progress((k + static_cast<double>(s) / series) / 2);
              }
              out.rates.push_back(r);
            }
            return out;
          }};
}

std::vector<validation_study> changepoint_studies() {
  return {changepoint_false_alarm_study(), detection_study()};
}

}  // namespace mcpilot
