// Change-point detection on long series: the search on means of b readings
// (changepoint_options::max_points, 2^15 by default) against the search reading by reading
// (max_points = 0), on the same series (docs/validation.md, "Long series: the search on means").
// For each length and kind of readings, three cases:
//   - no change: how often a change-point is reported;
//   - a warm-up of 1% of the readings, 1 sd low (2 sd for the autocorrelated kinds; for 0/1
//     readings a fraction of 1s of 10% instead of 30%): how often a change-point is found
//     within 20 + b readings of its end, and how far the removed warm-up is from it (median);
//   - a short warm-up of 15 b readings, 3 sd low: half of the shortest segment of means, which
//     the search on means cannot cut off by construction. Reported, not gated.
// The two searches see the same series, so a difference is judged on the pairs that disagree:
// the program exits 1 when the search on means reports significantly more false change-points
// or finds the 1% warm-up significantly less often (one-sided exact sign test on the
// discordant pairs, p < 0.01).
//
// usage: validate_changepoints_long [series_1e5 [series_1e6]]   (defaults 400 and 200)
// Series are spread over the cores with oneTBB, each from its own generator seeded by (length,
// kind, case, index), so the figures do not depend on the number of threads.

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "mcpilot/stats/changepoint.hpp"

namespace {

using namespace mcpilot;

struct kind {
  const char* name;
  double rho;     // AR(1) coefficient; 0 for independent readings
  bool zero_one;  // 0/1 readings, 30% 1s
  double shift;   // of the 1% warm-up, in marginal sd
};

const std::vector<kind> kinds = {
    {"normal", 0.0, false, 1.0},
    {"ar 0.5", 0.5, false, 2.0},
    {"ar 0.9", 0.9, false, 2.0},
    {"0/1, 30% 1", 0.0, true, 0.0},
};

enum class scenario { none, warmup, short_warmup };

// The series: `warm` readings at the start shifted by `shift` marginal sd (0/1: 10% 1s).
std::vector<double> make_series(const kind& k, std::size_t n, std::size_t warm, double shift,
                                std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> x(n);
  if (k.zero_one) {
    boost::random::bernoulli_distribution<double> base(0.3), low(0.1);
    for (std::size_t i = 0; i < n; ++i) x[i] = (i < warm ? low(rng) : base(rng)) ? 1.0 : 0.0;
    return x;
  }
  boost::random::normal_distribution<double> normal;
  const double sd = 1 / std::sqrt(1 - k.rho * k.rho);
  double v = normal(rng) * sd;  // started in the stationary distribution
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = v - (i < warm ? shift * sd : 0.0);
    v = k.rho * v + normal(rng);
  }
  return x;
}

struct outcome {
  bool reported = false;  // any change-point
  bool found = false;     // one within the tolerance of the warm-up's end
  std::size_t removed = 0;
  std::size_t resolution = 1;
};

outcome judge(const changepoint_result& r, std::size_t warm, std::size_t tolerance) {
  outcome o;
  o.reported = !r.changepoints.empty();
  o.resolution = r.resolution;
  o.removed = r.accepted ? r.stable_begin : 0;
  for (std::size_t c : r.changepoints)
    if (c + tolerance >= warm && c <= warm + tolerance) o.found = true;
  return o;
}

// One-sided exact sign test: P(X >= worse) for X ~ Binomial(worse + better, 1/2).
double sign_test(int worse, int better) {
  if (worse == 0) return 1;
  const boost::math::binomial_distribution<double> b(worse + better, 0.5);
  return boost::math::cdf(boost::math::complement(b, worse - 1));
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t series_1e5 = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 400;
  const std::size_t series_1e6 = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 200;
  const auto start = std::chrono::steady_clock::now();
  bool ok = true;

  changepoint_options means;  // the default: max_points = 2^15
  changepoint_options whole = means;
  whole.max_points = 0;

  std::printf("# Change-point detection on long series: on means against reading by reading\n\n");
  std::printf(
      "max_points = %zu; each cell: the search on means, then the search reading by "
      "reading, on the same series.\n\n",
      means.max_points);
  std::printf(
      "| n | readings | case | series | reported: means / readings | found: means / "
      "readings | median |removed - end|: means / readings | worse / better | sign "
      "test p |\n|---|---|---|---|---|---|---|---|---|\n");

  for (std::size_t n : {std::size_t{100000}, std::size_t{1000000}}) {
    const std::size_t count = n == 100000 ? series_1e5 : series_1e6;
    const std::size_t b = n / means.max_points + (n % means.max_points != 0);
    const std::size_t tolerance = 20 + b;
    std::printf("| 10^%d: b = %zu, found within %zu readings | | | | | | | | |\n",
                n == 100000 ? 5 : 6, b, tolerance);
    for (std::size_t ki = 0; ki < kinds.size(); ++ki) {
      const kind& k = kinds[ki];
      for (scenario sc : {scenario::none, scenario::warmup, scenario::short_warmup}) {
        const std::size_t warm = sc == scenario::none     ? 0
                                 : sc == scenario::warmup ? n / 100
                                                          : 15 * b;
        const double shift = sc == scenario::short_warmup ? 3.0 : k.shift;
        std::vector<outcome> on_means(count), on_readings(count);
        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(0, count),
            [&](const tbb::blocked_range<std::size_t>& range) {
              for (std::size_t i = range.begin(); i < range.end(); ++i) {
                const std::uint64_t seed =
                    ((n * 16 + ki) * 4 + static_cast<std::uint64_t>(sc)) * 1000000 + i;
                const auto x = make_series(k, n, warm, shift, seed);
                on_means[i] = judge(detect_changepoints(x, means), warm, tolerance);
                on_readings[i] = judge(detect_changepoints(x, whole), warm, tolerance);
              }
            });
        int rep_m = 0, rep_r = 0, found_m = 0, found_r = 0, worse = 0, better = 0;
        std::vector<double> err_m, err_r;
        for (std::size_t i = 0; i < count; ++i) {
          rep_m += on_means[i].reported;
          rep_r += on_readings[i].reported;
          found_m += on_means[i].found;
          found_r += on_readings[i].found;
          if (sc == scenario::none) {
            worse += on_means[i].reported && !on_readings[i].reported;
            better += !on_means[i].reported && on_readings[i].reported;
          } else {
            worse += !on_means[i].found && on_readings[i].found;
            better += on_means[i].found && !on_readings[i].found;
            err_m.push_back(
                std::abs(static_cast<double>(on_means[i].removed) - static_cast<double>(warm)));
            err_r.push_back(
                std::abs(static_cast<double>(on_readings[i].removed) - static_cast<double>(warm)));
          }
        }
        const double p = sign_test(worse, better);
        const bool gated = sc != scenario::short_warmup;
        if (gated && p < 0.01) ok = false;
        const std::string what = sc == scenario::none ? "no change"
                                 : sc == scenario::warmup
                                     ? "warm-up of " + std::to_string(warm)
                                     : "short warm-up of " + std::to_string(warm) + ", 3 sd";
        const double c = static_cast<double>(count);
        if (sc == scenario::none)
          std::printf("| 10^%d | %s | %s | %zu | %.1f%% / %.1f%% | | | %d / %d | %.3g%s |\n",
                      n == 100000 ? 5 : 6, k.name, what.c_str(), count, 100 * rep_m / c,
                      100 * rep_r / c, worse, better, p, gated && p < 0.01 ? " FAIL" : "");
        else
          std::printf(
              "| 10^%d | %s | %s | %zu | | %.1f%% / %.1f%% | %.0f / %.0f | %d / %d | %.3g%s |\n",
              n == 100000 ? 5 : 6, k.name, what.c_str(), count, 100 * found_m / c,
              100 * found_r / c, median(err_m), median(err_r), worse, better, p,
              gated && p < 0.01 ? " FAIL" : (gated ? "" : " (not gated)"));
        std::fflush(stdout);
      }
    }
  }
  std::printf("\nRan in %.0f s.\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  std::printf("%s\n", ok ? "PASS" : "FAIL: the search on means is significantly worse");
  return ok ? 0 : 1;
}
