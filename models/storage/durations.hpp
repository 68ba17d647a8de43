#pragma once
// Disk lifetimes and rebuild times: the few laws the storage model offers, drawn with Boost.Random
// distributions on a replication's Philox stream (the standard library's distributions differ
// between compilers, Boost's do not).

#include <limits>
#include <optional>
#include <string>

#include "mcpilot/rng.hpp"

namespace mcpilot::storage {

// "Never": the time of an event that does not come (no outages, no scrub, no loss yet).
inline constexpr double inf = std::numeric_limits<double>::infinity();

// Sigma of ln(duration) for a lognormal repair or outage whose config gives no shape (one default
// for both, as docs/models/storage.md states).
inline constexpr double default_lognormal_sigma = 0.5;

struct duration_law {
  enum class kind { exponential, weibull, deterministic, lognormal, none };
  kind type = kind::exponential;
  // exponential and deterministic: mean; weibull: shape, scale, location (time before which no
  // event occurs); lognormal: mean and sigma, the standard deviation of ln(time).
  double mean = 0;
  double shape = 0;
  double scale = 0;
  double location = 0;
  double sigma = 0;

  // One draw. `none` is never drawn (there is no repair): +infinity.
  double sample(philox_stream& rng) const;
  // The mean of the law, for messages and docs (Weibull: location + scale Gamma(1 + 1/shape)).
  double expected() const;
  // "exponential(mean 1e+06 h)", "weibull(shape 1.12, scale 461386 h, location 0 h)", ...
  std::string describe() const;

  // Lifetime laws (exponential and Weibull) seen through their hazard, as the importance sampler
  // needs them: a disk of age a survives dx more hours with probability
  // exp(-hazard_increment(a, dx)), and fails at age a at rate hazard_rate(a).
  // hazard_increment is Lambda(a + dx) - Lambda(a) with Lambda the cumulative hazard, computed
  // without subtracting two large numbers (a 1e-6 increment on Lambda ~ 1 keeps its digits).
  double hazard_increment(double age, double dx) const;
  double hazard_rate(double age) const;
  double cumulative_hazard(double age) const { return hazard_increment(0, age); }
};

// Why a law cannot be evaluated in doubles, or nothing if it can. `field` prefixes the names
// ("lifetime" or "repair"); `horizon` is the longest time the model will look at (the mission, or
// one hour when there is none). Checked at configuration with the very expressions the simulation
// evaluates: Weibull: Gamma(1 + 1/shape) and the mean must be finite, and the cumulative hazard
// ((horizon - location) / scale)^shape too (shape 1e-300 or scale 1e-300 overflow); lognormal:
// mu = ln(mean) - sigma^2 / 2 must be finite and so must exp(mu + 8 sigma), the quantile at
// 1 - 6e-16, beyond which a double draw does not reach. Returns {field name, message}.
struct law_problem {
  std::string field;
  std::string message;
};
std::optional<law_problem> check_law(const duration_law& d, const std::string& field,
                                     double horizon);

}  // namespace mcpilot::storage
