#include "storage/birth_death.hpp"

#include <algorithm>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace mcpilot::storage {

transient_chain birth_death::chain() const {
  const std::size_t n = size();
  transient_chain c(n);
  for (std::size_t i = 0; i < n; ++i) {
    c.absorb(i) = kill[i];
    if (i + 1 < n) c.rate(i, i + 1) = up[i];
    if (i > 0) c.rate(i, i - 1) = down[i];
  }
  return c;
}

double survival_spectrum::survival(double t) const {
  double s = 0;
  for (std::size_t k = 0; k < rate.size(); ++k) s += weight[k] * std::exp(-rate[k] * t);
  return std::clamp(s, 0.0, 1.0);
}

double survival_spectrum::absorbed_by(double t) const {
  double p = 0;
  for (std::size_t k = 0; k < rate.size(); ++k) p -= weight[k] * std::expm1(-rate[k] * t);
  return std::clamp(p, 0.0, 1.0);
}

namespace {

// Eigenvalues and orthonormal eigenvectors (columns of v) of the symmetric n x n matrix a, by
// cyclic Jacobi rotations until the off-diagonal mass is below 1e-300 or negligible next to the
// diagonal. O(n^3) per sweep; a handful of sweeps for the sizes here.
void jacobi_eigen(std::vector<double> a, std::size_t n, std::vector<double>& values,
                  std::vector<double>& v) {
  v.assign(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) v[i * n + i] = 1;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, diag = 0;
    for (std::size_t i = 0; i < n; ++i) {
      diag += a[i * n + i] * a[i * n + i];
      for (std::size_t j = i + 1; j < n; ++j) off += a[i * n + j] * a[i * n + j];
    }
    if (off <= 1e-300 || off <= 1e-34 * diag) break;
    for (std::size_t p = 0; p < n; ++p) {
      for (std::size_t q = p + 1; q < n; ++q) {
        const double apq = a[p * n + q];
        if (apq == 0) continue;
        const double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::hypot(1.0, theta));
        const double c = 1 / std::hypot(1.0, t), s = t * c;
        for (std::size_t k = 0; k < n; ++k) {  // columns p, q
          const double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (std::size_t k = 0; k < n; ++k) {  // rows p, q
          const double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (std::size_t k = 0; k < n; ++k) {
          const double vkp = v[k * n + p], vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  values.resize(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = a[i * n + i];
}

}  // namespace

survival_spectrum spectrum(const birth_death& bd) {
  const std::size_t n = bd.size();
  if (n == 0) throw std::invalid_argument("spectrum: empty chain");
  std::vector<double> d(n);
  for (std::size_t i = 0; i < n; ++i)
    d[i] = bd.kill[i] + (i + 1 < n ? bd.up[i] : 0.0) + (i > 0 ? bd.down[i] : 0.0);

  bool symmetric = true, no_down = true;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    if (!(bd.up[i] * bd.down[i + 1] > 0)) symmetric = false;
    if (bd.down[i + 1] != 0) no_down = false;
  }

  survival_spectrum s;
  if (symmetric) {
    std::vector<double> h(n * n, 0.0), scale(n, 1.0);
    for (std::size_t i = 0; i < n; ++i) h[i * n + i] = d[i];
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const double off = -std::sqrt(bd.up[i] * bd.down[i + 1]);
      h[i * n + i + 1] = h[(i + 1) * n + i] = off;
      scale[i + 1] = scale[i] * std::sqrt(bd.up[i] / bd.down[i + 1]);
    }
    std::vector<double> values, w;
    jacobi_eigen(std::move(h), n, values, w);
    for (std::size_t k = 0; k < n; ++k) {
      double right = 0;
      for (std::size_t j = 0; j < n; ++j) right += w[j * n + k] * scale[j];
      s.rate.push_back(values[k]);
      s.weight.push_back(w[k] * right);  // w[0 * n + k]
    }
  } else if (no_down) {
    // Upper bidiagonal: eigenvalue d_k with right vector v (v_k = 1, zero below k, v_j =
    // up_j v_{j+1} / (d_j - d_k) above) and left vector u (u_k = 1, zero above k, u_j =
    // u_{j-1} up_{j-1} / (d_j - d_k) below); u.v = 1, so c_k = v_0 sum_j u_j.
    for (std::size_t k = 0; k < n; ++k) {
      double v = 1;
      for (std::size_t j = k; j-- > 0;) {
        if (d[j] == d[k]) throw std::domain_error("spectrum: repeated eigenvalue");
        v = bd.up[j] * v / (d[j] - d[k]);
      }
      double u = 1, sum_u = 1;
      for (std::size_t j = k + 1; j < n; ++j) {
        if (d[j] == d[k]) throw std::domain_error("spectrum: repeated eigenvalue");
        u = u * bd.up[j - 1] / (d[j] - d[k]);
        sum_u += u;
      }
      s.rate.push_back(d[k]);
      s.weight.push_back(v * sum_u);
    }
  } else {
    throw std::domain_error("spectrum: some repair rates are zero and others not");
  }

  // Sort by rate, then refine the slowest mode from the exact identities.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto x, auto y) { return s.rate[x] < s.rate[y]; });
  survival_spectrum sorted;
  for (auto k : order) {
    sorted.rate.push_back(s.rate[k]);
    sorted.weight.push_back(s.weight[k]);
  }
  if (!(sorted.rate[0] > 0)) throw std::domain_error("spectrum: a mode does not decay");
  const double mean = mean_time_to_absorption(bd.chain())[0];
  double rest_weight = 0, rest_mean = 0;
  for (std::size_t k = 1; k < n; ++k) {
    rest_weight += sorted.weight[k];
    rest_mean += sorted.weight[k] / sorted.rate[k];
  }
  const double c0 = 1 - rest_weight, m0 = mean - rest_mean;
  if (c0 > 0 && m0 > 0) {
    sorted.weight[0] = c0;
    sorted.rate[0] = c0 / m0;
  }
  return sorted;
}

double mean_first_absorption(const birth_death& bd, std::size_t copies) {
  if (copies == 0) throw std::invalid_argument("mean_first_absorption: no copies");
  if (copies == 1) return mean_time_to_absorption(bd.chain())[0];
  const survival_spectrum s = spectrum(bd);
  const double g = static_cast<double>(copies);
  if (s.rate.size() == 1) return 1 / (g * s.rate[0]);
  const double end = 60 / s.rate[1];
  auto f = [&](double t) { return std::pow(s.survival(t), g); };
  double error = 0;
  const double body =
      boost::math::quadrature::gauss_kronrod<double, 31>::integrate(f, 0.0, end, 20, 1e-14, &error);
  const double r0 = s.rate[0], c0 = s.weight[0];
  const double tail = c0 > 0 ? std::exp(g * (std::log(c0) - r0 * end)) / (g * r0) : 0.0;
  return body + tail;
}

}  // namespace mcpilot::storage
