#include "storage/ctmc.hpp"

#include <cmath>
#include <stdexcept>

namespace mcpilot::storage {

double transient_chain::exit_rate(std::size_t i) const {
  double r = absorb_[i];
  for (std::size_t j = 0; j < size_; ++j)
    if (j != i) r += rate_[i * size_ + j];
  return r;
}

std::vector<double> solve_fundamental(const transient_chain& c, std::vector<double> b) {
  const std::size_t n = c.size();
  if (b.size() != n) throw std::invalid_argument("solve_fundamental: b has the wrong size");
  // w holds the off-diagonal rates of the shrinking Schur complement in the rows and columns not
  // yet eliminated, the multipliers q_ik / d_k below the diagonal once column k is eliminated.
  std::vector<double> w(n * n), a(n), d(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = c.absorb(i);
    for (std::size_t j = 0; j < n; ++j) w[i * n + j] = i == j ? 0.0 : c.rate(i, j);
  }
  for (std::size_t k = 0; k < n; ++k) {
    double dk = a[k];
    for (std::size_t j = k + 1; j < n; ++j) dk += w[k * n + j];
    if (!(dk > 0)) throw std::domain_error("absorbing chain: a state cannot reach absorption");
    d[k] = dk;
    for (std::size_t i = k + 1; i < n; ++i) {
      const double qik = w[i * n + k];
      if (qik == 0) continue;
      const double l = qik / dk;
      w[i * n + k] = l;
      a[i] += l * a[k];
      for (std::size_t j = k + 1; j < n; ++j)
        if (j != i) w[i * n + j] += l * w[k * n + j];
      // The term l q_ki would land on the diagonal of row i; the pivot of row i is rebuilt from
      // its row sum instead, so it is not needed.
    }
  }
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = k + 1; i < n; ++i) b[i] += w[i * n + k] * b[k];
  std::vector<double> x(n);
  for (std::size_t k = n; k-- > 0;) {
    double s = b[k];
    for (std::size_t j = k + 1; j < n; ++j) s += w[k * n + j] * x[j];
    x[k] = s / d[k];
  }
  return x;
}

std::vector<double> mean_time_to_absorption(const transient_chain& c) {
  return solve_fundamental(c, std::vector<double>(c.size(), 1.0));
}

double absorbed_by(const transient_chain& c, std::size_t from, double t, double max_jumps) {
  const std::size_t n = c.size();
  if (from >= n) throw std::invalid_argument("absorbed_by: no such state");
  if (!(t >= 0)) throw std::invalid_argument("absorbed_by: negative time");
  double big = 0;
  for (std::size_t i = 0; i < n; ++i) big = std::max(big, c.exit_rate(i));
  if (big == 0 || t == 0) return 0.0;
  const double lt = big * t;
  if (lt > max_jumps)
    throw std::domain_error(
        "absorbed_by: too many uniformization steps (L t = " + std::to_string(lt) + ")");
  const poisson_window w = poisson_weights(lt);

  // One jump of the uniformized chain: stay with 1 - exit/L, move with rate/L. The diagonal is
  // formed once; its cancellation costs an absolute 1e-16 on a probability near 1, harmless.
  std::vector<double> stay(n), to_loss(n), move(n * n);
  for (std::size_t i = 0; i < n; ++i) {
    stay[i] = std::max(0.0, 1.0 - c.exit_rate(i) / big);
    to_loss[i] = c.absorb(i) / big;
    for (std::size_t j = 0; j < n; ++j) move[i * n + j] = i == j ? 0.0 : c.rate(i, j) / big;
  }
  std::vector<double> p(n, 0.0), next(n);
  p[from] = 1.0;
  double absorbed = 0;  // A_k

  double sum = 0;
  for (std::size_t k = 0; k <= w.hi; ++k) {
    if (k >= w.lo) sum += w.weight[k - w.lo] * absorbed;
    for (std::size_t i = 0; i < n; ++i) {
      absorbed += p[i] * to_loss[i];
      next[i] = p[i] * stay[i];
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (p[i] == 0) continue;
      for (std::size_t j = 0; j < n; ++j) next[j] += p[i] * move[i * n + j];
    }
    p.swap(next);
  }
  return sum / w.sum;
}

poisson_window poisson_weights(double lt) {
  poisson_window w;
  const double spread = 12 * std::sqrt(lt) + 40;
  w.lo = static_cast<std::size_t>(std::max(0.0, std::floor(lt - spread)));
  w.hi = static_cast<std::size_t>(std::ceil(lt + spread));
  w.weight.resize(w.hi - w.lo + 1);
  double weight = std::exp(-lt + static_cast<double>(w.lo) * std::log(lt) -
                           std::lgamma(static_cast<double>(w.lo) + 1));
  for (std::size_t k = w.lo; k <= w.hi; ++k) {
    w.weight[k - w.lo] = weight;
    w.sum += weight;
    weight *= lt / static_cast<double>(k + 1);
  }
  return w;
}

}  // namespace mcpilot::storage
