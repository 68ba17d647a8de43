// What the minimum of subsession means costs where the width is easy to reach, and what lowering
// it would cost in coverage (docs/validation.md, "The minimum of subsessions against n*"; issue
// 35's target of at most 1.5 n* runs, docs/bench.md).
//
// n* = tau (z CV / r)^2 is what an ideal batch-means rule needs for a relative half-width r when
// the integrated autocorrelation time tau is known. A session does not know tau: it chooses its
// subsession size q from its own correlogram (a few tau) and asks for min_samples subsessions of
// it, so it needs at least about min_samples q readings whatever the width says. Where
// (z CV / r)^2 is small next to min_samples q / tau, that floor, not the width, sets the runs.
//
// Readings: AR(1) around 100 with marginal sd 100 CV and lag-1 coefficient rho, started in their
// stationary distribution, so tau = (1 + rho) / (1 - rho) exactly and the truth is 100. Sessions at
// +-1% (whole width 2%), the normal preset otherwise, warm-up removal on, as `bench` drives them
// (tests/support/vm_stream.hpp), with min_samples 50 (mcpilot's), 30 and 20 (neither shipped for
// normal). A 95% interval's coverage read on R sessions has sd
// sqrt(0.95 0.05 / R): the rows at 50 are gated at 0.95 - 3 sd (0.917 at R = 400); the rows at 30
// and 20 are printed, not gated.
//
//   validate_floor_cost [sessions]     default 400
// Exit 1 when a gated row misses its gate.
#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "../support/vm_stream.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/precision.hpp"

namespace {

using namespace mcpilot;

struct ar1_case {
  double tau;
  double cv;
};

class ar1_stream {
 public:
  ar1_stream(const ar1_case& c, std::uint64_t seed)
      : rho_((c.tau - 1) / (c.tau + 1)), sd_(100 * c.cv), gen_(seed) {
    v_ = normal_(gen_);
  }
  double next() {
    const double x = 100 + sd_ * v_;
    v_ = rho_ * v_ + std::sqrt(1 - rho_ * rho_) * normal_(gen_);
    return x;
  }

 private:
  double rho_, sd_;
  std::mt19937_64 gen_;
  boost::random::normal_distribution<double> normal_;
  double v_ = 0;
};

template <class T>
T median(std::vector<T> v) {
  if (v.empty()) return T{};
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int sessions = argc > 1 ? std::atoi(argv[1]) : 400;
  // tau 52 and CV 0.025 are the quiet hour's `sleep 0.01` reference (docs/bench.md, "A sixth
  // run"); 0.05 and 0.1 the noisier hours'; tau 199 a correlation four times longer.
  const ar1_case cases[] = {{52, 0.025}, {52, 0.035}, {52, 0.05}, {52, 0.1}, {199, 0.025}};
  const double half = 0.01;
  const double z = 1.959963984540054;  // R: qnorm(0.975)
  const double gate = 0.95 - 3 * std::sqrt(0.95 * 0.05 / sessions);
  bool all_ok = true;
  std::printf("Sessions at +-1%%, normal, warm-up removal on; %d per row; gate %.3f (minimum 50)\n",
              sessions, gate);
  std::printf("%5s %6s %8s %4s %9s %8s %6s %6s %9s %7s %6s %6s %6s\n", "tau", "CV", "n*", "min",
              "converged", "covered", "below", "above", "n median", "n/n*", "q med", "h med",
              "gate");
  for (const auto& c : cases) {
    const double nstar = c.tau * std::pow(z * c.cv / half, 2);
    for (const std::size_t minimum : {50u, 30u, 20u}) {
      int converged = 0, covered = 0, below = 0, above = 0;
      std::vector<std::size_t> ns, qs, hs;
      for (int s = 1; s <= sessions; ++s) {
        ar1_stream src(c, static_cast<std::uint64_t>(s));
        analysis_options o;
        o.requirements = *preset("normal");
        o.requirements.ci_perc = 2 * half;
        o.requirements.min_samples = minimum;
        const auto r = test::run_stream_session(src, o, 2'000'000);
        ns.push_back(r.n);
        if (!r.converged) continue;
        ++converged;
        hs.push_back(r.subsessions);
        qs.push_back(r.subsessions ? r.used / r.subsessions : 0);
        if (r.low <= 100 && 100 <= r.high)
          ++covered;
        else if (r.high < 100)
          ++below;
        else
          ++above;
      }
      const double rate = converged ? double(covered) / converged : 0;
      const bool gated = minimum == 50;
      const bool ok = converged == sessions && rate >= gate;
      if (gated) all_ok = all_ok && ok;
      const std::size_t n_med = median(ns);
      std::printf("%5.0f %6.3f %8.0f %4zu %5d/%-4d %8.3f %6d %6d %9zu %7.2f %6zu %6zu %6s\n", c.tau,
                  c.cv, nstar, minimum, converged, sessions, rate, below, above, n_med,
                  static_cast<double>(n_med) / nstar, median(qs), median(hs),
                  gated ? (ok ? "PASS" : "FAIL") : "-");
      std::fflush(stdout);
    }
  }
  std::printf("\n%s\n", all_ok ? "all gated rows pass" : "a gated row FAILED");
  return all_ok ? 0 : 1;
}
