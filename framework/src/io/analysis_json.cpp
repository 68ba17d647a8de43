#include "mcpilot/io/analysis_json.hpp"

#include <optional>

namespace mcpilot {

namespace {

template <class T>
nlohmann::json or_null(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json to_json(const analysis& a) {
  nlohmann::json warmup = {
      {"applied", a.warmup.applied},         {"removed_begin", a.warmup.removed_begin},
      {"removed_end", a.warmup.removed_end}, {"changepoints", a.warmup.changepoints},
      {"p_values", a.warmup.p_values},       {"accepted", a.warmup.accepted},
  };
  return {
      {"n", a.n},
      {"mean", or_null(a.mean)},
      {"ci_low", or_null(a.ci_low)},
      {"ci_high", or_null(a.ci_high)},
      {"ci_width", or_null(a.ci_width)},
      {"ci_width_rel", or_null(a.ci_width_rel)},
      {"subsession_size", or_null(a.subsession_size)},
      {"subsession_count", or_null(a.subsession_count)},
      {"autocorrelation", or_null(a.autocorrelation)},
      {"subsession_autocorrelation", or_null(a.subsession_autocorrelation)},
      {"required_samples", or_null(a.required_samples)},
      {"unreachable", a.unreachable},
      {"converged", a.converged},
      {"kind", std::string(to_string(a.kind))},
      {"confidence", a.confidence},
      {"warmup", std::move(warmup)},
      {"n_used", a.n_used},
      {"remainder", a.remainder},
      {"status", a.status},
      {"one_sided", a.one_sided},
      {"target_width", a.target_width},
  };
}

nlohmann::json to_json(const wps_fit& f) {
  return {
      {"rate", f.rate},
      {"rate_ci_low", or_null(f.rate_low)},
      {"rate_ci_high", or_null(f.rate_high)},
      {"alpha", f.alpha},
      {"beta", f.beta},
      {"rounds_used", f.rounds},
      {"naive_rate", f.naive_rate},
      {"beta_ci_low", f.beta - f.beta_half_width},
      {"beta_ci_high", f.beta + f.beta_half_width},
      {"residual_sd", f.residual_sd},
  };
}

nlohmann::json to_json(const changepoint_result& r) {
  return {
      {"n", r.n},
      {"changepoints", r.changepoints},
      {"p_values", r.p_values},
      {"stable_begin", r.stable_begin},
      {"stable_end", r.stable_end},
      {"accepted", r.accepted},
  };
}

}  // namespace mcpilot
