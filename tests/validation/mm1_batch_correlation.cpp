// What the adjusted interval's correlation correction should be on the M/M/1 waits at rho = 0.9
// (docs/validation.md, "Where the last misses at rho = 0.9 strict come from"): from one long
// run, for batch sizes q around those the sequential sessions choose, the batch means' lag-1
// rho_1, the AR(1) inflation (1 + rho_1) / (1 - rho_1) it implies, and the variance ratio the
// interval needs, 1 + 2 sum_{k=1..10} rho_k (beyond lag 3 the estimates are noise about 0: a longer
// sum adds only noise). The sessions estimate rho_1 at about 0.095 at their q; this says what it
// is. Waits by Lindley's recursion from an empty queue, batch sums kept as the run goes (no waits
// stored). Exits 1 when the run's mean wait is not within 1% of the truth, 9.
//
//   validate_mm1_batch_correlation [waits] [seed]      (defaults 400000000, 1)
#include <boost/random/exponential_distribution.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "mcpilot/rng.hpp"

int main(int argc, char** argv) {
  const double waits = argc > 1 ? std::atof(argv[1]) : 4e8;
  const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  const double lambda = 0.9, mu = 1.0, truth = lambda / mu / (mu - lambda);
  const std::vector<std::size_t> sizes = {250, 500, 750, 1000, 1500, 2000, 4000};
  const auto n = static_cast<std::uint64_t>(waits);

  mcpilot::philox_stream rng(seed, 0);
  boost::random::exponential_distribution<double> arrival(lambda), service(mu);
  std::vector<std::vector<double>> sums(sizes.size());
  std::vector<double> open(sizes.size(), 0);
  double w = 0, total = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    total += w;
    for (std::size_t s = 0; s < sizes.size(); ++s) {
      open[s] += w;
      if ((i + 1) % sizes[s] == 0) sums[s].push_back(std::exchange(open[s], 0.0));
    }
    w = std::max(0.0, w + service(rng) - arrival(rng));
  }
  const double mean = total / static_cast<double>(n);
  std::printf("M/M/1, rho %.1f: %.3g waits, mean %.4f (truth %.4f)\n\n", lambda, waits, mean,
              truth);
  std::printf("| q | batches | rho_1 | (1 + rho_1)/(1 - rho_1) | 1 + 2 sum rho_k, k <= 10 |\n");
  std::printf("|---|---|---|---|---|\n");
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    std::vector<double>& b = sums[s];
    for (double& v : b) v = v / static_cast<double>(sizes[s]) - mean;
    double den = 0;
    for (double v : b) den += v * v;
    auto rho = [&](std::size_t lag) {
      double num = 0;
      for (std::size_t j = lag; j < b.size(); ++j) num += b[j] * b[j - lag];
      return num / den;
    };
    const double r1 = rho(1);
    double ratio = 1;
    for (std::size_t lag = 1; lag <= 10; ++lag) ratio += 2 * rho(lag);
    std::printf("| %zu | %zu | %.3f | %.2f | %.2f |\n", sizes[s], b.size(), r1, (1 + r1) / (1 - r1),
                ratio);
  }
  const bool ok = std::abs(mean - truth) <= 0.01 * truth;
  std::printf("\n%s\n", ok ? "PASS" : "FAIL: the run's mean wait is not within 1% of the truth");
  return ok ? 0 : 1;
}
