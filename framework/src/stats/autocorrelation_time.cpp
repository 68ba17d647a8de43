#include "mcpilot/stats/autocorrelation_time.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

namespace {

// In-place iterative radix-2 FFT (Cooley-Tukey); a.size() a power of two. `inverse` gives the
// unnormalised inverse. The twiddles are one table of cos/sin of the exact angles for the largest
// stage, strided for the smaller ones, so the error stays O(log n) ulps, not O(n) as with
// repeated multiplication. The butterflies multiply by hand: std::complex's operator* checks for
// infinities and NaN (C99 Annex G) through a library call, which made the transform five times
// slower.
void fft(std::vector<std::complex<double>>& a, bool inverse) {
  const std::size_t n = a.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  std::vector<double> wr(n / 2), wi(n / 2);
  const double step = (inverse ? 2 : -2) * std::numbers::pi / static_cast<double>(n);
  for (std::size_t k = 0; k < n / 2; ++k) {
    wr[k] = std::cos(step * static_cast<double>(k));
    wi[k] = std::sin(step * static_cast<double>(k));
  }
  auto* v = reinterpret_cast<double*>(a.data());  // [re, im] pairs: std::complex's layout
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const std::size_t half = len / 2, stride = n / len;
    for (std::size_t i = 0; i < n; i += len)
      for (std::size_t k = 0; k < half; ++k) {
        double* u = v + 2 * (i + k);
        double* t = v + 2 * (i + k + half);
        const double c = wr[k * stride], s = wi[k * stride];
        const double tr = t[0] * c - t[1] * s, ti = t[0] * s + t[1] * c;
        t[0] = u[0] - tr;
        t[1] = u[1] - ti;
        u[0] += tr;
        u[1] += ti;
      }
  }
}

}  // namespace

std::vector<double> autocovariances(std::span<const double> x, std::size_t max_lag) {
  const std::size_t n = x.size();
  if (n == 0) return {};
  max_lag = std::min(max_lag, n - 1);
  // Zero padding to >= 2n makes the circular correlation the linear one for every lag < n.
  std::size_t size = 1;
  while (size < 2 * n) size <<= 1;
  const double m = mean(x);
  std::vector<std::complex<double>> a(size);
  for (std::size_t i = 0; i < n; ++i) a[i] = x[i] - m;
  fft(a, false);
  for (auto& v : a) v = std::norm(v);
  fft(a, true);
  std::vector<double> gamma(max_lag + 1);
  const double scale = static_cast<double>(size) * static_cast<double>(n);
  for (std::size_t k = 0; k <= max_lag; ++k) gamma[k] = a[k].real() / scale;
  return gamma;
}

autocorrelation_time integrated_autocorrelation_time(std::span<const double> x) {
  autocorrelation_time r;
  const std::size_t n = x.size();
  if (n < 4) return r;
  const std::vector<double> gamma = autocovariances(x, n - 1);
  // The FFT's rounding leaves gamma_0 of equal readings at about 1e-16 of their square, not 0:
  // compare it with what the readings' own deviations give.
  const double centre = mean(x);
  double sum_sq = 0;
  for (double v : x) sum_sq += (v - centre) * (v - centre);
  if (sum_sq == 0 || !(gamma[0] > 0)) return r;
  // Pairs Gamma_m for 2m + 1 < n/2: beyond half the series each lag rests on too few products.
  const std::size_t pairs = std::max<std::size_t>(1, (n / 2 + 1) / 2);
  double sum = 0, previous = gamma[0] + gamma[1];
  std::size_t m = 0;
  for (; m < pairs; ++m) {
    double g = gamma[2 * m] + gamma[2 * m + 1];
    if (!(g > 0)) break;
    g = std::min(g, previous);  // initial monotone sequence
    previous = g;
    sum += g;
  }
  r.truncated = m == pairs;
  r.window = m == 0 ? 1 : 2 * m;
  const double tau = (-gamma[0] + 2 * sum) / gamma[0];
  double moment = 0;
  for (std::size_t k = 1; k < r.window; ++k) moment += static_cast<double>(k) * gamma[k];
  if (tau > 0) r.decay = std::max(0.0, moment / gamma[0] / tau);
  // No positive pair at all (gamma_1 <= -gamma_0): the readings alternate, and the mean of n of
  // them is as good as it gets.
  r.tau = std::max(tau, 1.0 / static_cast<double>(n));
  return r;
}

autocorrelation_time integrated_autocorrelation_time(std::span<const double> x,
                                                     std::size_t max_points) {
  const std::size_t n = x.size();
  if (max_points == 0 || n <= max_points) return integrated_autocorrelation_time(x);
  const std::size_t b = (n + max_points - 1) / max_points, h = n / b;
  std::vector<double> means(h);
  for (std::size_t j = 0; j < h; ++j) means[j] = mean(x.subspan(j * b, b));
  autocorrelation_time r = integrated_autocorrelation_time(means);
  const double var_x = variance(x.first(h * b)), var_m = variance(means);
  if (var_x > 0) r.tau *= static_cast<double>(b) * var_m / var_x;
  r.decay *= static_cast<double>(b);
  r.window *= b;
  return r;
}

stream_need readings_for_precision(std::span<const double> x, double half_width_rel,
                                   double confidence) {
  stream_need s;
  s.n = x.size();
  if (s.n < 2) return s;
  s.mean = mean(x);
  s.sd = std::sqrt(variance(x));
  s.tau = integrated_autocorrelation_time(x);
  if (s.mean == 0 || !(half_width_rel > 0)) return s;
  s.cv = s.sd / std::abs(s.mean);
  const double z = normal_critical(confidence);
  s.readings_needed = s.tau.tau * std::pow(z * s.cv / half_width_rel, 2);
  return s;
}

}  // namespace mcpilot
