#pragma once
// A sweep: the `[sweep]` table of an experiment config, expanded into points. Each key is a config
// path (`model.disks`, `model.scrub.interval_hours`, `experiment.ci_perc`,
// `quantity.NAME.FIELD`); each value is a list, or a geometric range:
//
//   [sweep]
//   "model.scrub.interval_hours" = [24, 168, 720, 2160]
//   "model.disks" = { geometric = [4, 64], factor = 2 }          # 4, 8, 16, 32, 64
//   "model.n" = { geometric = [2, 1048576], factor = 1.4142135623730951, round = "integer" }
//   mode = "product"                                             # or "zip"
//
// Points are numbered from 0. In product mode the keys nest in the order written, the first
// outermost (it changes slowest); in zip mode point k takes the k-th value of every key. Point k
// runs as one session whose seed is point_seed(config seed, k). See docs/sweeps.md.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mcpilot/parameters.hpp"

namespace mcpilot {

enum class sweep_mode { product, zip };

struct sweep_axis {
  std::string key;                  // the config path, as written
  std::vector<param_value> values;  // in order; never empty
  bool geometric = false;           // from a geometric range (plots use log axes)
  std::string where;                // FILE:LINE:COLUMN of the key, for messages
};

struct sweep_plan {
  std::vector<sweep_axis> axes;  // in the order written
  sweep_mode mode = sweep_mode::product;
  std::string where;  // FILE:LINE:COLUMN of [sweep]

  // How many points: the product of the axes' sizes, or their common size (zip).
  std::size_t size() const;
  // The values of point k, one per axis, in axis order. k < size().
  std::vector<param_value> point(std::size_t k) const;
  // Position of point k along each axis (its index into that axis's values).
  std::vector<std::size_t> coordinates(std::size_t k) const;
};

// The values of a geometric range: lo, lo*f, lo*f^2, ... up to hi (hi itself included when the
// range reaches it within 1e-9 relative). With `round_integer` each is rounded to the nearest
// integer and repeats are dropped; without it the values are integers when lo and factor both are,
// floating-point otherwise. Requires 0 < lo <= hi and factor > 1 (the caller checks).
std::vector<param_value> geometric_values(double lo, double hi, double factor, bool lo_integer,
                                          bool factor_integer, bool round_integer);

// The seed of point k's session: the first 64-bit word of the Philox4x64-10 stream keyed by
// (seed, sweep_point_key(k)), the keying every replication uses (rng.hpp), in a key domain of its
// own. It depends on the config seed and k alone, so `--point K` reruns point K exactly.
std::uint64_t point_seed(std::uint64_t seed, std::uint64_t k);

// TOML text of a value, as --set reads it back to the same value ("24", "0.5", "\"weibull\"").
std::string toml_text(const param_value& v);

}  // namespace mcpilot
