// Interval coverage of the two examples over 100 seeds each: pi (replication style), and the
// M/M/1 queue's mean wait at rho = 0.5 and 0.8 (stream style: warm-up removal, subsession means,
// pooled streams), with the strict preset and, reported only, the normal one. Each interval claims
// 95%; the study passes when at least 90 of 100 cover the known answer in every gated case.
// Prints a table (docs/validation.md records a run).
//
//   validate_examples_coverage [seeds]      (default 100)
//
// If the true coverage were 95%, the count covering would be Binomial(100, 0.95): 90 or more with
// probability 1 - binom.cdf(89, 100, 0.95) = 0.989 (SciPy), so 90 is a bound that a correct
// procedure meets, and one that covers 85% or less fails with probability >= 0.90.
#include <boost/math/distributions/beta.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "../../examples/mm1_queue/mm1_model.hpp"
#include "../../examples/pi/pi_model.hpp"
#include "mcpilot/session.hpp"

namespace {

using namespace mcpilot;

struct study {
  std::string name;
  std::function<std::unique_ptr<model>()> make;
  double truth;
  const char* preset;
  double ci_perc;
  bool gate;  // must reach 90%; otherwise reported only
};

std::unique_ptr<model> pi(std::int64_t darts) {
  auto m = std::make_unique<examples::pi_model>();
  parameters p;
  p.set("darts", darts);
  m->configure(p);
  return m;
}

std::unique_ptr<model> mm1(double lambda, double mu) {
  auto m = std::make_unique<examples::mm1_model>();
  parameters p;
  p.set("arrival_rate", lambda);
  p.set("service_rate", mu);
  m->configure(p);
  return m;
}

// Clopper-Pearson interval for k successes in n trials.
std::pair<double, double> exact_interval(int k, int n, double confidence = 0.95) {
  const double a = (1 - confidence) / 2;
  const double lo = k == 0 ? 0.0 : boost::math::ibeta_inv(k, n - k + 1, a);
  const double hi = k == n ? 1.0 : boost::math::ibeta_inv(k + 1, n - k, 1 - a);
  return {lo, hi};
}

}  // namespace

int main(int argc, char** argv) {
  const int seeds = argc > 1 ? std::atoi(argv[1]) : 100;
  const int required = (seeds * 90 + 99) / 100;
  // The M/M/1 rows with the normal preset are reported, not gated: its autocorrelation limit of
  // 0.2 on the subsession means leaves intervals too narrow by about 1.22 for strongly correlated
  // readings (docs/statistics.md, "Presets"), i.e. 2 Phi(1.96 / 1.22) - 1 = 89% at best.
  const std::vector<study> studies = {
      {"pi 1000 darts +-0.1%", [] { return pi(1000); }, std::numbers::pi, "normal", 0.002, true},
      {"pi 100 darts +-0.5%", [] { return pi(100); }, std::numbers::pi, "normal", 0.01, true},
      {"M/M/1 rho=0.5 +-5%", [] { return mm1(0.5, 1.0); }, 1.0, "strict", 0.10, true},
      {"M/M/1 rho=0.8 +-5%", [] { return mm1(0.8, 1.0); }, 4.0, "strict", 0.10, true},
      {"M/M/1 rho=0.5 +-5%", [] { return mm1(0.5, 1.0); }, 1.0, "normal", 0.10, false},
      {"M/M/1 rho=0.8 +-5%", [] { return mm1(0.8, 1.0); }, 4.0, "normal", 0.10, false},
  };

  std::printf("%-22s %-7s %5s %7s %8s %17s %11s %8s %7s %7s %7s\n", "case", "preset", "seeds",
              "covered", "coverage", "95% CI (exact)", "mean reads", "mean ±%", "mean q", "ac(q)",
              "seconds");
  bool ok = true;
  for (const study& st : studies) {
    const auto m = st.make();
    model_spec spec;
    m->declare(spec);
    int covered = 0, converged = 0;
    double readings = 0, rel = 0, q = 0, ac = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int seed = 1; seed <= seeds; ++seed) {
      session_settings s;
      s.seed = static_cast<std::uint64_t>(seed);
      s.threads = 0;
      s.engine.session_precision = *preset(st.preset);
      s.engine.session_precision.ci_perc = st.ci_perc;
      s.engine.streams = 4;
      const session_result r = run_session(*m, spec, s);
      const analysis& a = r.quantities.at(0).stats;
      converged += r.stopped_because == stop_reason::converged;
      if (a.ci_low && a.ci_high && *a.ci_low <= st.truth && st.truth <= *a.ci_high) ++covered;
      readings += static_cast<double>(r.replications);
      if (a.ci_width_rel) rel += *a.ci_width_rel / 2;
      if (a.subsession_size) q += static_cast<double>(*a.subsession_size);
      if (a.subsession_autocorrelation) ac += *a.subsession_autocorrelation;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto [lo, hi] = exact_interval(covered, seeds);
    std::printf("%-22s %-7s %5d %7d %7.1f%% %7.1f%% - %5.1f%% %11.0f %7.2f%% %7.1f %7.3f %7.1f\n",
                st.name.c_str(), st.preset, seeds, covered, 100.0 * covered / seeds, 100 * lo,
                100 * hi, readings / seeds, 100 * rel / seeds, q / seeds, ac / seeds, seconds);
    std::fflush(stdout);
    if (st.gate && converged != seeds) {
      std::printf("  %d sessions did not converge\n", seeds - converged);
      ok = false;
    }
    if (st.gate && covered < required) ok = false;
    if (!st.gate) std::printf("  (reported only: the normal preset on correlated readings)\n");
  }
  std::printf("%s: every gated case needs >= %d of %d covering\n", ok ? "PASS" : "FAIL", required,
              seeds);
  return ok ? 0 : 1;
}
