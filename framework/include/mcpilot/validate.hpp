#pragma once
// `mcpilot validate`: the studies that guard each verdict, run with fixed seeds on the user's own
// machine (docs/validate.md). A study measures one or more rates (how often an interval covers
// the truth, how often a test reports a change that is not there, how often a comparison of two
// identical commands says "resolved") and holds each against a gate that comes from the method's
// claim. A user who doubts a verdict can check mcpilot where it runs, in minutes, without the
// source tree.
//
// A study is a function of its size (quick: minutes for all of them; full: the documented study
// set) and reports progress as a fraction. Studies register like models: the framework's own
// (interval coverage, change-points, proportions and rates) and each model family's (its
// estimates against exact values), through model_registry::add_study.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "mcpilot/model.hpp"
#include "mcpilot/stats/interval.hpp"
#include "mcpilot/stats/precision.hpp"
#include "mcpilot/stats/scaling.hpp"

namespace mcpilot {

enum class study_size { quick, full };

// One rate and its gate. The rate is events / trials; its 95% Clopper-Pearson interval is
// reported beside it. A rate passes unless its interval lies wholly on the wrong side of the gate:
// a study fails only on evidence, at 95% confidence, that the method misses its claim, so that
// the quick size (fewer trials) does not fail a sound method by chance more often than 2.5% per
// rate, while a method that is clearly off (coverage of 74% against a gate of 93%) fails.
struct study_rate {
  std::string what;          // "95% intervals covering the mean: AR(1), rho = 0.5, normal preset"
  std::uint64_t events = 0;  // intervals that covered; series with a false change-point; ...
  std::uint64_t trials = 0;
  double gate = 0;
  bool at_least = true;     // the rate must reach the gate (coverage, power); false: stay under it
  std::string gate_reason;  // where the gate comes from, in a few words

  double rate() const;
  double low() const;  // Clopper-Pearson, 95%
  double high() const;
  bool pass() const;
};

struct study_outcome {
  std::vector<study_rate> rates;
  std::vector<std::string> notes;  // figures beside the rates (mean readings, seconds)
  bool pass() const;
};

using study_progress = std::function<void(double fraction)>;

struct validation_study {
  std::string name;    // "interval-ar1": what --only names
  std::string guards;  // the verdict it guards, in a sentence
  std::function<study_outcome(study_size, const study_progress&)> run;
};

// The framework's own studies: interval coverage on iid, AR(1) and M/M/1 sequential sessions,
// proportion and rate coverage, change-point false alarms and detection. Model families add
// their own through model_registry::add_study.
std::vector<validation_study> core_studies();

// Two of them take the method they check as an argument, so that a test can inject a broken one
// and see the study fail (tests/unit/validate_test.cpp); empty: the library's own (analyze()'s
// interval, detect_changepoints()).
using interval_under_test =
    std::function<std::optional<std::pair<double, double>>(std::span<const double> readings)>;
validation_study ar1_interval_study(interval_under_test interval = {});
using changepoint_under_test = std::function<bool(std::span<const double> readings)>;
validation_study changepoint_false_alarm_study(changepoint_under_test reports_change = {});
// scaling-labels: synthetic timings of known shape against `scaling`'s labels; empty: the
// library's analyze_scaling.
using scaling_under_test = std::function<scaling_result(
    std::span<const double> n, std::span<const double> t, const scaling_options& options)>;
validation_study scaling_labels_study(scaling_under_test analyze = {});
// skewed-interval: lognormal(0, 1.5) readings against the skewness-adjusted interval; empty: the
// library's adjusted_mean_interval.
using adjusted_interval_under_test = std::function<t_interval(
    std::span<const double> batches, double lag1, double skewness, double confidence)>;
validation_study skewed_interval_study(adjusted_interval_under_test interval = {});
// skewed-sessions: sequential sessions on lognormal(0, 1.5) readings, with verdicts held back
// while the adjusted interval's sides differ by more than max_side_ratio (infinity: never, the
// rule as it was before issue 35).
validation_study skewed_sessions_study(double max_side_ratio = precision{}.max_side_ratio);

// Configures `m` as a config file would, without one: its declared defaults, then each named
// value checked by its parameter's declaration (parameter_error as a config would get;
// std::invalid_argument for a name the model does not declare). Returns the spec the model
// declares once configured (its quantities may follow the configuration). For studies and tests
// that set up a model in code.
model_spec configure_with(model& m, const std::vector<std::pair<std::string, param_value>>& values);

// One configuration of a model family whose exact value of a quantity is known (the model's
// analytic(): a closed form, a Markov chain solved exactly, an enumeration).
struct exact_case {
  std::string label;  // "Fano, tolerance 2, 3 devices failed"
  std::vector<std::pair<std::string, param_value>> values;
  std::string quantity;
  std::optional<double> ci_perc;  // none: the normal preset's
  // The exact value when the model gives none (computed independently, cited where the case is
  // written); none: the model's analytic().
  std::optional<double> known = std::nullopt;
};

// A model family's estimates against its exact values: for each case, sessions with seeds
// 1..R (quick_sessions or full_sessions) run to their precision on 2 threads, and the share of
// their 95% intervals that hold the exact value, gated at the project's 93%. `make` returns a new
// instance of the model. O(cases x sessions) sessions.
validation_study exact_value_study(std::string name, std::string guards,
                                   std::function<std::unique_ptr<model>()> make,
                                   std::vector<exact_case> cases, std::uint64_t quick_sessions,
                                   std::uint64_t full_sessions);

}  // namespace mcpilot
