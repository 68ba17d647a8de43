#include "mcpilot/io/analysis_json.hpp"

#include <cmath>
#include <optional>

namespace mcpilot {

namespace {

template <class T>
nlohmann::ordered_json or_null(const std::optional<T>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

}  // namespace

nlohmann::ordered_json to_json(const analysis& a) {
  nlohmann::ordered_json warmup = {
      {"applied", a.warmup.applied},
      {"removed_begin", a.warmup.removed_begin},
      {"removed_end", a.warmup.removed_end},
      {"changepoints", a.warmup.changepoints},
      {"p_values", a.warmup.p_values},
      {"accepted", a.warmup.accepted},
      {"resolution", a.warmup.resolution},
      {"short_warmup", a.warmup.short_warmup},
      {"leading_warmup", a.warmup.leading_warmup},
      {"excursions", a.warmup.excursions},
  };
  nlohmann::ordered_json phase = {
      {"latest", a.phase.latest},
      {"begin", a.phase.begin},
      {"end", a.phase.end},
      {"length", a.phase.end - a.phase.begin},
      {"segments", a.phase.segments},
      {"shift", or_null(a.phase.shift)},
      {"drift", or_null(a.phase.drift)},
  };
  // Read top down: what was estimated, the interval, the verdict, then how it was obtained.
  return {
      {"kind", std::string(to_string(a.kind))},
      {"statistic", std::string(to_string(a.statistic))},
      {"confidence", a.confidence},
      {"mean", or_null(a.mean)},
      {"ci_low", or_null(a.ci_low)},
      {"ci_high", or_null(a.ci_high)},
      {"ci_width", or_null(a.ci_width)},
      {"ci_width_rel", or_null(a.ci_width_rel)},
      {"one_sided", a.one_sided},
      {"constant", a.constant},
      {"symmetric_envelope", a.symmetric_envelope},
      {"target_width", a.target_width},
      {"converged", a.converged},
      {"unreachable", a.unreachable},
      {"status", a.status},
      {"n", a.n},
      {"n_used", a.n_used},
      {"remainder", a.remainder},
      {"required_samples", or_null(a.required_samples)},
      {"subsession_size", or_null(a.subsession_size)},
      {"subsession_count", or_null(a.subsession_count)},
      {"autocorrelation", or_null(a.autocorrelation)},
      {"subsession_autocorrelation", or_null(a.subsession_autocorrelation)},
      {"autocorrelation_time", or_null(a.autocorrelation_time)},
      {"interval", std::string(to_string(a.interval))},
      {"variance_inflation", a.variance_inflation},
      {"subsession_skewness", or_null(a.subsession_skewness)},
      {"interval_shift", a.interval_shift},
      {"warmup", std::move(warmup)},
      {"phase", std::move(phase)},
  };
}

nlohmann::ordered_json to_json(const precision& p) {
  return {
      {"confidence", p.confidence},
      {"ac", p.autocorrelation_limit},
      {"ci_perc", p.ci_perc},
      {"ci", or_null(p.ci_abs)},
      {"min_samples", p.min_samples},
      {"interval", p.interval ? nlohmann::ordered_json(std::string(to_string(*p.interval)))
                              : nlohmann::ordered_json(nullptr)},
      // null: no limit (infinity has no JSON number)
      {"max_side_ratio", std::isfinite(p.max_side_ratio) ? nlohmann::ordered_json(p.max_side_ratio)
                                                         : nlohmann::ordered_json(nullptr)},
      {"statistic", std::string(to_string(p.statistic))}};
}

nlohmann::ordered_json to_json(const wps_fit& f) {
  return {
      // A slope <= 0 has no rate: 1/beta would be negative or infinite.
      {"rate", f.beta > 0 ? nlohmann::ordered_json(f.rate) : nlohmann::ordered_json(nullptr)},
      {"rate_ci_low", or_null(f.rate_low)},
      {"rate_ci_high", or_null(f.rate_high)},
      {"verdict", std::string(to_string(f.verdict))},
      {"alpha", f.alpha},
      {"alpha_ci_low", f.alpha - f.alpha_half_width},
      {"alpha_ci_high", f.alpha + f.alpha_half_width},
      {"beta", f.beta},
      {"rounds_used", f.rounds},
      {"naive_rate", f.naive_rate},
      {"beta_ci_low", f.beta - f.beta_half_width},
      {"beta_ci_high", f.beta + f.beta_half_width},
      {"residual_sd", f.residual_sd},
      {"subsession_size", f.subsession_size},
      {"subsessions", f.subsessions},
      {"residual_autocorrelation", or_null(f.residual_autocorrelation)},
      {"excluded_rounds", f.excluded_rounds},
      {"work_cutoff", f.work_cutoff},
  };
}

nlohmann::ordered_json to_json(const changepoint_result& r) {
  nlohmann::ordered_json tests = nlohmann::ordered_json::array();
  for (const changepoint_test t : r.tests)
    tests.push_back(t == changepoint_test::rank ? "rank" : "few_batches");
  return {
      {"n", r.n},
      {"changepoints", r.changepoints},
      {"p_values", r.p_values},
      {"tests", tests},
      {"stable_begin", r.stable_begin},
      {"stable_end", r.stable_end},
      {"accepted", r.accepted},
      {"resolution", r.resolution},
  };
}

}  // namespace mcpilot
