#pragma once
// A seeded study of how `mcpilot bench --until separated` looks at a pair of commands, on two
// streams of N(10, 1) and N(mean_b, 1) readings, without processes or clocks. Both of bench's
// rules are simulated:
// - `spent` (the rule now): the first look after the first round, then rounds that bring each
//   stream to at least twice its readings and at most five times, as many as required_b says
//   the next look's level needs; look k separates at look_level(alpha, k)
//   (stats/repeated_looks.hpp), and the first look that separates them settles it;
// - `every_round` (the rule before): rounds of a tenth of the readings at least and of what
//   required_b says at alpha, up to four times the readings more; every round's end a look at
//   alpha itself.
// Both judge the moments bench judges: the variance times the adjusted interval's inflation.
// Used by tests/unit/repeated_looks_test.cpp (small) and tests/validation/separated_looks.cpp.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <boost/random/normal_distribution.hpp>

#include "mcpilot/rng.hpp"
#include "mcpilot/stats/adjusted_interval.hpp"
#include "mcpilot/stats/repeated_looks.hpp"
#include "mcpilot/stats/welch.hpp"

namespace mcpilot::test {

enum class look_rule { spent, every_round };

struct looks_outcome {
  int repetitions = 0;
  int resolved = 0;   // some look separated the streams (before `cap` readings each)
  int wrong_way = 0;  // ... with mean_b / mean_a's interval below 1 where mean_b > 10
  double looks = 0;   // mean number of looks taken
  std::vector<std::uint64_t> readings_at_resolution;  // each stream's, one per resolved run
};

// The first look after `first` readings each: bench's first round is the engine's own, the
// preset's minimum of subsession means (30 under quick, q = 1 for independent runs).
inline looks_outcome looks_study(look_rule rule, double mean_b, int repetitions, double alpha,
                                 std::uint64_t cap, std::uint64_t first = 30,
                                 std::uint64_t seed = 20261202) {
  looks_outcome out;
  out.repetitions = repetitions;
  boost::random::normal_distribution<double> normal;
  for (int rep = 0; rep < repetitions; ++rep) {
    philox_stream rng(seed, static_cast<std::uint64_t>(rep));
    // Sums for each stream's moments and lag-1 autocorrelation; the readings are never stored.
    struct sums {
      double s = 0, ss = 0, lag = 0, first = 0, last = 0;
      void add(double x, std::uint64_t i) {
        if (i == 0)
          first = x;
        else
          lag += last * x;
        s += x, ss += x * x, last = x;
      }
    } a, b;
    std::uint64_t n = 0;
    auto grow = [&](std::uint64_t to) {
      for (; n < to; ++n) {
        a.add(10 + normal(rng), n);
        b.add(mean_b + normal(rng), n);
      }
    };
    // As bench gives them to Welch's test (stable_moments): the mean and variance of the
    // readings, its subsession means at q = 1 (independent runs), the variance times the adjusted
    // interval's inflation for their lag-1 autocorrelation about their mean.
    auto moments_of = [&](const sums& x) {
      const double c = static_cast<double>(n), m = x.s / c;
      const double den = x.ss - c * m * m;
      const double num = x.lag - m * (2 * x.s - x.first - x.last) + (c - 1) * m * m;
      return sample_moments{m, den / (c - 1) * correlation_inflation(num / den, n), c};
    };
    look_schedule schedule;
    grow(first);
    while (true) {
      const sample_moments ma = moments_of(a), mb = moments_of(b);
      const double level = rule == look_rule::spent ? schedule.take(n, alpha) : alpha;
      if (rule == look_rule::every_round) schedule.take(n, alpha);  // counted only
      if (separated(ma, mb, level)) {
        ++out.resolved;
        out.readings_at_resolution.push_back(n);
        const welch_result w = welch_test(ma, mb, 1 - level);
        if (mean_b > 10 && welch_ratio(ma, mb, w).high < 1) ++out.wrong_way;
        break;
      }
      if (n >= cap) break;
      const double next = rule == look_rule::spent ? schedule.next_level(alpha) : alpha;
      const auto nb = required_b(ma, mb, 1 - next);
      const std::uint64_t needed =
          nb ? static_cast<std::uint64_t>(std::max(0.0, *nb - static_cast<double>(n))) : n;
      const std::uint64_t least = rule == look_rule::spent ? n : std::max<std::uint64_t>(n / 10, 1);
      grow(n + std::max(least, std::min(needed, 4 * n)));
    }
    out.looks += static_cast<double>(schedule.looks()) / repetitions;
  }
  return out;
}

}  // namespace mcpilot::test
