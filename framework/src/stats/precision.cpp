#include "mcpilot/stats/precision.hpp"

#include <cmath>

#include "mcpilot/error.hpp"

namespace mcpilot {

std::string_view to_string(quantity_kind k) {
  switch (k) {
    case quantity_kind::rate:
      return "rate";
    case quantity_kind::proportion:
      return "proportion";
    case quantity_kind::ordinary:
      break;
  }
  return "ordinary";
}

std::optional<quantity_kind> parse_quantity_kind(std::string_view s) {
  if (s == "ordinary") return quantity_kind::ordinary;
  if (s == "rate") return quantity_kind::rate;
  if (s == "proportion") return quantity_kind::proportion;
  return std::nullopt;
}

std::string_view to_string(interval_method m) {
  return m == interval_method::pilot ? "pilot" : "adjusted";
}

std::optional<interval_method> parse_interval_method(std::string_view s) {
  if (s == "adjusted") return interval_method::adjusted;
  if (s == "pilot") return interval_method::pilot;
  return std::nullopt;
}

std::string_view to_string(summary_statistic s) {
  return s == summary_statistic::median ? "median" : "mean";
}

std::optional<summary_statistic> parse_summary_statistic(std::string_view s) {
  if (s == "mean") return summary_statistic::mean;
  if (s == "median") return summary_statistic::median;
  return std::nullopt;
}

std::optional<precision> preset(std::string_view name) {
  // Set by name: an aggregate's positional list would tie the presets to the members' order.
  auto make = [](double limit, double perc, std::size_t min_samples) {
    precision p;
    p.autocorrelation_limit = limit;
    p.ci_perc = perc;
    p.confidence = 0.95;
    p.min_samples = min_samples;
    return p;
  };
  if (name == "quick") return make(0.8, 0.20, 30);
  if (name == "normal") return make(0.2, 0.10, 50);
  if (name == "strict") return make(0.1, 0.10, 200);
  return std::nullopt;
}

void validate(const precision& p) {
  if (!(p.autocorrelation_limit > 0 && p.autocorrelation_limit < 1))
    throw input_error("autocorrelation limit must lie in (0, 1), got " +
                      std::to_string(p.autocorrelation_limit));
  if (!(p.ci_perc > 0) || !std::isfinite(p.ci_perc))
    throw input_error("ci_perc must be > 0, got " + std::to_string(p.ci_perc));
  if (p.ci_abs && (!(*p.ci_abs > 0) || !std::isfinite(*p.ci_abs)))
    throw input_error("ci (absolute width) must be > 0, got " + std::to_string(*p.ci_abs));
  if (!(p.confidence > 0 && p.confidence < 1))
    throw input_error("confidence must lie in (0, 1), got " + std::to_string(p.confidence));
  if (p.min_samples < 2 || p.min_samples > max_min_samples)
    throw input_error("min_samples must lie in [2, 10^15], got " + std::to_string(p.min_samples));
  if (!(p.max_side_ratio > 1))
    throw input_error("max_side_ratio must be > 1, got " + std::to_string(p.max_side_ratio));
}

}  // namespace mcpilot
