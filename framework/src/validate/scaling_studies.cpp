// The scaling-label study: seeded synthetic timings of known shape, and how often `scaling`
// labels them "compatible" with a shape that is not theirs (a false verdict) or with the one that
// is (the label a clean design must keep). The cases are those that once overclaimed
// (docs/scaling.md, "How often the labels are wrong"): n log n and n data at 20% noise, 3 runs
// per size, n = 1,024 to 32,768 with linear, n_log_n and quadratic pre-specified, and
// 3e-9 n log2 n at 5% noise, 5 runs, with n the only shape. The gate on a wrong label is 1%: at 20%
// noise and 3 runs, n and n log n differ by 1.5x over the range while a median of 3 runs is off by
// ~14%, so a dataset of one shape now and then looks like the other to every resample (1 of 200 n
// datasets, seed 78, was picked as n log n by 99.4% of its resamples); the method as it was
// labelled 21 of 200 n log n datasets and 191 of 200 one-shape datasets compatible with n.

#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "mcpilot/rng.hpp"
#include "mcpilot/stats/scaling.hpp"
#include "mcpilot/validate.hpp"

namespace mcpilot {

namespace {

enum class truth { linear, n_log_n, quadratic };

double truth_at(truth t, double n) {
  switch (t) {
    case truth::linear:
      return 1e-8 * n;
    case truth::n_log_n:
      return 3e-9 * n * std::log2(n);
    case truth::quadratic:
      return 5e-10 * n * n;
  }
  return 0;
}

struct label_case {
  std::string what;
  truth shape;
  scaling_shape named;                // the shape that is true, as scaling names it
  int lo, hi, runs;                   // sizes 2^lo .. 2^hi, runs per size
  double noise;                       // relative sd of one run
  std::vector<scaling_shape> models;  // empty: exploratory
  bool clean;  // a clean design: the true label must be kept (else: no wrong label)
};

const std::vector<scaling_shape> three = {scaling_shape::linear, scaling_shape::n_log_n,
                                          scaling_shape::quadratic};

std::vector<label_case> cases() {
  return {
      {"n log n data, 20% noise, 3 runs, n = 1,024..32,768, linear,n_log_n,quadratic",
       truth::n_log_n, scaling_shape::n_log_n, 10, 15, 3, 0.20, three, false},
      {"n data, 20% noise, 3 runs, n = 1,024..32,768, linear,n_log_n,quadratic", truth::linear,
       scaling_shape::linear, 10, 15, 3, 0.20, three, false},
      {"3e-9 n log2 n, 5% noise, 5 runs, n = 1,024..32,768, --models linear",
       truth::n_log_n,
       scaling_shape::n_log_n,
       10,
       15,
       5,
       0.05,
       {scaling_shape::linear},
       false},
      {"n log n data, 5% noise, 5 runs, n = 256..32,768, linear,n_log_n,quadratic", truth::n_log_n,
       scaling_shape::n_log_n, 8, 15, 5, 0.05, three, true},
      {"n^2 data, 5% noise, 5 runs, n = 256..32,768, linear,n_log_n,quadratic", truth::quadratic,
       scaling_shape::quadratic, 8, 15, 5, 0.05, three, true},
      {"n data, 5% noise, 5 runs, n = 256..32,768, exploratory",
       truth::linear,
       scaling_shape::linear,
       8,
       15,
       5,
       0.05,
       {},
       true},
  };
}

// The rows of one dataset: `runs` timings at each size, truth (1 + noise z), z standard normal
// from Philox(seed, stream).
void synthesize(const label_case& c, std::uint64_t seed, std::uint64_t stream,
                std::vector<double>& n, std::vector<double>& t) {
  n.clear();
  t.clear();
  philox_stream g(seed, stream);
  boost::random::normal_distribution<double> z;
  for (int e = c.lo; e <= c.hi; ++e) {
    const double size = std::ldexp(1.0, e);
    for (int j = 0; j < c.runs; ++j) {
      n.push_back(size);
      t.push_back(truth_at(c.shape, size) * (1 + c.noise * z(g)));
    }
  }
}

}  // namespace

validation_study scaling_labels_study(scaling_under_test analyze) {
  if (!analyze)
    analyze = [](std::span<const double> n, std::span<const double> t, const scaling_options& o) {
      return analyze_scaling(n, t, o);
    };
  return {
      "scaling-labels",
      "\"empirically compatible with <shape>\": synthetic timings of known shape are never "
      "labelled compatible with a wrong shape, and clean designs keep their true label",
      [analyze](study_size size, const study_progress& progress) {
        const std::uint64_t datasets = size == study_size::quick ? 30 : 200;
        const auto all = cases();
        study_outcome out;
        std::vector<double> n, t;
        for (std::size_t k = 0; k < all.size(); ++k) {
          const label_case& c = all[k];
          study_rate r;
          if (c.clean) {
            r = {"labelled compatible with the true shape: " + c.what,         0, 0, 0.90, true,
                 "clean designs keep their label (191 to 200 of 200 measured)"};
          } else {
            r = {"labelled compatible with a wrong shape: " + c.what,
                 0,
                 0,
                 0.01,
                 false,
                 c.noise >= 0.2
                     ? "at most 1%: what 20% noise and 3 runs leave indistinguishable (0 of 30 at "
                       "the quick size)"
                     : "at most 1%: at 5% noise the shapes differ by far more than a run's "
                       "spread"};
          }
          for (std::uint64_t s = 1; s <= datasets; ++s) {
            synthesize(c, s, k, n, t);
            scaling_options o;
            o.models = c.models;
            o.seed = s;
            const scaling_result res = analyze(n, t, o);
            const bool compatible = res.label == scaling_label::compatible && res.best;
            const bool right = compatible && *res.best == c.named;
            r.events += c.clean ? right : compatible && !right;
            ++r.trials;
            if (progress)
              progress((static_cast<double>(k) + static_cast<double>(s) / datasets) / all.size());
          }
          out.rates.push_back(r);
        }
        return out;
      }};
}

}  // namespace mcpilot
