// The skewed-interval study: independent lognormal(0, 1.5) readings, 300 per series, analysed at
// the normal preset without warm-up removal (the readings have none). Skewness 33 in theory, and
// the sample skewness of 300 such values is often 5 to 15: far outside the range where the
// skewness adjustment's expansion holds, which once gave intervals 159% of the mean wide
// (docs/statistics.md, "The skewness adjustment's range"). Rates: coverage of the exact mean
// exp(1.5^2 / 2), gated at the project's 93%; intervals wider than 1.3x the symmetric interval on
// the same batches, gated at 0 (the cap bounds the ratio by 1.21 at 95%); fresh runs of the size
// the analysis asks for that reach the asked width, gated at 1/2: a size computed from the true
// variance reaches it about half the time, and the plain size (38%) fell short because the sd of
// 300 such readings is below the true one far more often than above it (variance_growth.hpp).

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "mcpilot/rng.hpp"
#include "mcpilot/stats/adjusted_interval.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/subsession.hpp"
#include "mcpilot/stats/summary.hpp"
#include "mcpilot/validate.hpp"

namespace mcpilot {

namespace {

constexpr double sigma = 1.5;
constexpr std::size_t readings = 300;

void lognormal(std::vector<double>& x, std::size_t n, std::uint64_t seed, std::uint64_t stream) {
  philox_stream g(seed, stream);
  boost::random::normal_distribution<double> z;
  x.resize(n);
  for (double& v : x) v = std::exp(sigma * z(g));
}

analysis_options options() {
  analysis_options o;
  o.requirements = *preset("normal");
  o.remove_warmup = false;
  return o;
}

}  // namespace

validation_study skewed_interval_study(adjusted_interval_under_test interval) {
  if (!interval) interval = adjusted_mean_interval;
  return {"skewed-interval",
          "\"converged\" on strongly skewed readings: the skewness-adjusted interval on 300 "
          "lognormal(0, 1.5) readings covers the mean and stays within 1.3x the symmetric width",
          [interval](study_size size, const study_progress& progress) {
            const std::uint64_t series = size == study_size::quick ? 200 : 20000;
            const std::uint64_t sized_runs = size == study_size::quick ? 50 : 500;
            const double truth = std::exp(sigma * sigma / 2);
            study_rate cover{"95% intervals holding the lognormal(0, 1.5) mean exp(1.125), n = 300",
                             0,
                             0,
                             0.93,
                             true,
                             "the project's coverage goal for a nominal 95% interval"};
            study_rate wide{"intervals wider than 1.3x the symmetric interval on the same batches",
                            0,
                            0,
                            0,
                            false,
                            "never: the cap on beta bounds the ratio by 1.21 at 95%"};
            study_rate reach{
                "fresh runs of the required size that reach the asked width (10% of the "
                "mean)",
                0,
                0,
                0.5,
                true,
                "a size computed from the true variance reaches it about half the "
                "time"};
            std::vector<double> asked;
            double widest = 0;
            std::vector<double> x, more;
            const analysis_options o = options();
            for (std::uint64_t s = 1; s <= series; ++s) {
              lognormal(x, readings, s, 0);
              const analysis a = analyze(x, o);
              if (progress && s % 100 == 0) progress(static_cast<double>(s) / series);
              if (!a.subsession_size || !a.subsession_autocorrelation) continue;
              const std::vector<double> batches =
                  batch_means(std::span<const double>(x).first(a.n_used), *a.subsession_size);
              const double lag1 = *a.subsession_autocorrelation;
              const t_interval iv = interval(batches, lag1, skewness(batches), 0.95);
              ++cover.trials;
              cover.events += iv.low() <= truth && truth <= iv.high();
              // The symmetric interval on the same batches and inflation: 2 t s sqrt(A / h).
              const double h = static_cast<double>(batches.size());
              const double symmetric =
                  2 * t_critical(h - 1, 0.95) *
                  std::sqrt(variance(batches) * correlation_inflation(lag1, h) / h);
              const double ratio = 2 * iv.half_width / symmetric;
              widest = std::max(widest, ratio);
              ++wide.trials;
              wide.events += ratio > 1.3;
              // Does a fresh run of the size the analysis asks for reach the asked width?
              if (s <= sized_runs && a.required_samples) {
                lognormal(more, *a.required_samples, s, 1);
                const analysis b = analyze(more, o);
                ++reach.trials;
                reach.events += b.ci_width && *b.ci_width <= b.target_width;
                asked.push_back(static_cast<double>(*a.required_samples));
              }
            }
            study_outcome out{{cover, wide, reach}, {}};
            char buf[200];
            std::snprintf(buf, sizeof buf, "widest interval: %.3fx the symmetric one", widest);
            out.notes.push_back(buf);
            if (!asked.empty()) {
              // The size the true coefficient of variation sqrt(e^(sigma^2) - 1) = 2.91 gives at
              // 95%, +-5%: (1.96 * 2.91 / 0.05)^2, about 13,000 (statistics.md).
              std::nth_element(asked.begin(), asked.begin() + asked.size() / 2, asked.end());
              std::snprintf(buf, sizeof buf,
                            "median required size %.0f readings (the true coefficient of variation "
                            "gives about 13,000)",
                            asked[asked.size() / 2]);
              out.notes.push_back(buf);
            }
            return out;
          }};
}

}  // namespace mcpilot
