#include "mcpilot/stats/autocorrelation_time.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/summary.hpp"

namespace mcpilot {

namespace {

// w[k] = exp(-2 pi i k / size) for k < size / 2, as [re, im] pairs in w, each from the exact
// angle (cos and sin of the first quarter, the second by cos(pi - t) = -cos t), so that the
// transforms' error stays O(log n) ulps, not O(n) as with repeated multiplication.
void fill_twiddles(std::span<double> w, std::size_t size) {
  const std::size_t half = size / 2, quarter = size / 4;
  const double step = -2 * std::numbers::pi / static_cast<double>(size);
  for (std::size_t k = 0; k <= quarter && k < half; ++k) {
    w[2 * k] = std::cos(step * static_cast<double>(k));
    w[2 * k + 1] = std::sin(step * static_cast<double>(k));
  }
  for (std::size_t k = quarter + 1; k < half; ++k) {
    w[2 * k] = -w[2 * (half - k)];
    w[2 * k + 1] = w[2 * (half - k) + 1];
  }
}

// In-place iterative radix-2 FFT (Cooley-Tukey) of the m = v.size() / 2 complex values stored as
// [re, im] pairs, m a power of two, with w the twiddles of a transform of size 2m (its even
// entries are this transform's). `inverse` gives the unnormalised inverse. The butterflies
// multiply by hand: std::complex's operator* checks for infinities and NaN (C99 Annex G) through
// a library call, which made the transform five times slower.
void fft(std::span<double> v, std::span<const double> w, bool inverse) {
  const std::size_t n = v.size() / 2;
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      std::swap(v[2 * i], v[2 * j]);
      std::swap(v[2 * i + 1], v[2 * j + 1]);
    }
  }
  const double sign = inverse ? -1 : 1;
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const std::size_t half = len / 2, stride = 2 * n / len;
    for (std::size_t i = 0; i < n; i += len)
      for (std::size_t k = 0; k < half; ++k) {
        double* u = &v[2 * (i + k)];
        double* t = &v[2 * (i + k + half)];
        const double c = w[2 * k * stride], s = sign * w[2 * k * stride + 1];
        const double tr = t[0] * c - t[1] * s, ti = t[0] * s + t[1] * c;
        t[0] = u[0] - tr;
        t[1] = u[1] - ti;
        u[0] += tr;
        u[1] += ti;
      }
  }
}

// |X_k|^2 of the real series whose pairs z_j = x_2j + i x_2j+1 have the transform Z (size m, as
// [re, im] pairs): with E_k and O_k the transforms of the even and odd terms,
// E_k = (Z_k + conj Z_{m-k}) / 2, O_k = (Z_k - conj Z_{m-k}) / 2i and X_k = E_k + w^k O_k, where
// w^k = (c, s) (w^m = -1).
double power_at(std::span<const double> z, std::size_t k, double c, double s) {
  const std::size_t m = z.size() / 2, a = k % m, b = (m - k) % m;
  const double zr = z[2 * a], zi = z[2 * a + 1], yr = z[2 * b], yi = -z[2 * b + 1];
  const double er = (zr + yr) / 2, ei = (zi + yi) / 2;
  const double o_re = (zi - yi) / 2, o_im = -(zr - yr) / 2;
  const double xr = er + c * o_re - s * o_im, xi = ei + c * o_im + s * o_re;
  return xr * xr + xi * xi;
}

}  // namespace

std::vector<double> autocovariances(std::span<const double> x, std::size_t max_lag) {
  const std::size_t n = x.size();
  if (n == 0) return {};
  max_lag = std::min(max_lag, n - 1);
  // Zero padding to size >= 2n makes the circular correlation the linear one for every lag < n.
  // The series is real, so both transforms are done at half that size: the readings in pairs as
  // m = size / 2 complex values, untangled into the real series' spectrum and back, which halves
  // the work and the memory of a complex transform of the padded series. One allocation holds the
  // values and the twiddles: with five vectors of up to a few MB each, page faults on fresh pages
  // were 45% of the time at 10^5 readings (docs/performance.md).
  std::size_t size = 2;
  while (size < 2 * n) size <<= 1;
  const std::size_t m = size / 2;
  std::vector<double> work(2 * size, 0.0);
  const std::span<double> z(work.data(), size), w(work.data() + size, size);
  fill_twiddles(w, size);
  const double centre = mean(x);
  for (std::size_t i = 0; i < n; ++i) z[i] = x[i] - centre;
  fft(z, w, false);
  // Back: r_j = sum_k P_k e^{2 pi i j k / size}, with P_k = |X_k|^2 real and even in k. Its even
  // and odd terms are the inverse transforms of size m of A_k = P_k + P_{m-k} and
  // B_k = (P_k - P_{m-k}) conj(w^k), and both are real: one transform of A + iB gives
  // r_2j + i r_2j+1. P_k and P_{m-k} rest on Z_k and Z_{m-k} alone, so each pair is rewritten in
  // place once both are read.
  for (std::size_t k = 0; 2 * k <= m; ++k) {
    const std::size_t j = m - k;  // k's partner; j = m for k = 0, and j = k at k = m/2
    const double pk = power_at(z, k, w[2 * k], w[2 * k + 1]);
    const double pj = j < m ? power_at(z, j, w[2 * j], w[2 * j + 1]) : power_at(z, m, -1, 0);
    const auto put = [&](std::size_t at, double p, double q) {
      const double b = p - q;
      z[2 * at] = p + q + b * w[2 * at + 1];
      z[2 * at + 1] = b * w[2 * at];
    };
    put(k, pk, pj);
    if (j < m && j != k) put(j, pj, pk);
  }
  fft(z, w, true);
  std::vector<double> gamma(max_lag + 1);
  const double scale = static_cast<double>(size) * static_cast<double>(n);
  for (std::size_t k = 0; k <= max_lag; ++k) gamma[k] = z[k] / scale;
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
