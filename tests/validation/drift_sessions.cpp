// Sequential sessions on strongly autocorrelated and drifting readings, where the minimum of
// subsession means, not the width, decides when a session stops (the sorting study's large sizes,
// docs/models/sorting.md): does the interval such a session stops with cover what it measured
// (docs/validation.md, "Drifting readings and the minimum of subsessions")? A rule that ended
// these sessions with fewer subsession means (tests/validation/bounded_minimum.patch) was
// measured with this program and is not shipped.
//
// Readings: AR(1) noise of marginal sd `sd` around a level of 100, optionally plus a slow drift
// d(i) = A sin(2 pi i / P + phase) with a random phase. The truth a session's interval is judged
// against is the mean of the level and drift over the readings it used ([begin, begin + used)):
// with a drift slower than the session, no longer-run mean is what it measured. Without a drift
// that is 100, the stationary mean.
//
// For each case, R sessions (seeds 1..R) at +-5% under normal with warm-up removal on. A 95%
// interval's coverage read on R sessions has sd sqrt(0.95 0.05 / R): every cell is gated at 0.95 -
// 3 sd (0.917 at R = 400).
//
//   validate_drift_sessions [sessions]     default 400
// Exit 1 when a cell misses its gate.
#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <random>
#include <vector>

#include "../support/vm_stream.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/precision.hpp"

namespace {

using namespace mcpilot;

struct drift_case {
  const char* name;
  double rho;
  double sd;
  double amplitude;  // of the drift, in the readings' unit (the level is 100)
  double period;     // in readings
};

class drift_stream {
 public:
  drift_stream(const drift_case& c, std::uint64_t seed) : c_(c), gen_(seed) {
    boost::random::uniform_real_distribution<double> u(0, 2 * std::numbers::pi);
    phase_ = u(gen_);
    v_ = normal_(gen_);
  }
  double level(std::size_t i) const {
    return 100 +
           (c_.amplitude > 0
                ? c_.amplitude *
                      std::sin(2 * std::numbers::pi * static_cast<double>(i) / c_.period + phase_)
                : 0);
  }
  double next() {
    const double x = level(i_++) + c_.sd * v_;
    v_ = c_.rho * v_ + std::sqrt(1 - c_.rho * c_.rho) * normal_(gen_);
    return x;
  }

 private:
  drift_case c_;
  std::mt19937_64 gen_;
  boost::random::normal_distribution<double> normal_;
  double phase_ = 0, v_ = 0;
  std::size_t i_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const int sessions = argc > 1 ? std::atoi(argv[1]) : 400;
  const drift_case cases[] = {
      {"AR(1) 0.99, sd 5", 0.99, 5, 0, 1},
      {"AR(1) 0.999, sd 2", 0.999, 2, 0, 1},
      {"AR(1) 0.9, sd 20", 0.9, 20, 0, 1},
      {"AR(1) 0.9, sd 2 + drift 1, period 2e4", 0.9, 2, 1, 2e4},
      {"AR(1) 0.99, sd 2 + drift 2, period 1e5", 0.99, 2, 2, 1e5},
  };
  const double gate = 0.95 - 3 * std::sqrt(0.95 * 0.05 / sessions);
  bool all_ok = true;
  std::printf("Sessions at +-5%%, normal, warm-up removal on; %d per cell; gate %.3f\n", sessions,
              gate);
  std::printf("%-40s %9s %8s %6s %6s %9s %6s %6s\n", "case", "converged", "covered", "below",
              "above", "n median", "h med", "gate");
  for (const auto& c : cases) {
    int converged = 0, covered = 0, below = 0, above = 0;
    std::vector<std::size_t> ns, hs;
    for (int s = 1; s <= sessions; ++s) {
      drift_stream src(c, static_cast<std::uint64_t>(s));
      analysis_options o;
      o.requirements = *preset("normal");
      const auto r = test::run_stream_session(src, o, 2'000'000);
      ns.push_back(r.n);
      if (!r.converged) continue;
      ++converged;
      hs.push_back(r.subsessions);
      double truth = 0;
      for (std::size_t i = r.begin; i < r.begin + r.used; ++i) truth += src.level(i);
      truth /= static_cast<double>(r.used);
      if (r.low <= truth && truth <= r.high)
        ++covered;
      else if (r.high < truth)
        ++below;
      else
        ++above;
    }
    std::sort(ns.begin(), ns.end());
    std::sort(hs.begin(), hs.end());
    const double rate = converged ? double(covered) / converged : 0;
    const bool ok = converged == sessions && rate >= gate;
    all_ok = all_ok && ok;
    std::printf("%-40s %5d/%-4d %8.3f %6d %6d %9zu %6zu %6s\n", c.name, converged, sessions, rate,
                below, above, ns[ns.size() / 2], hs.empty() ? 0 : hs[hs.size() / 2],
                ok ? "PASS" : "FAIL");
    std::fflush(stdout);
  }
  std::printf("\n%s\n", all_ok ? "all cells pass" : "a cell FAILED");
  return all_ok ? 0 : 1;
}
