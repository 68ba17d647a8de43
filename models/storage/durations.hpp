#pragma once
// Disk lifetimes and rebuild times: the few laws the storage model offers, drawn with Boost.Random
// distributions on a replication's Philox stream (the standard library's distributions differ
// between compilers, Boost's do not).

#include <string>

#include "mcpilot/rng.hpp"

namespace mcpilot::storage {

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
};

}  // namespace mcpilot::storage
