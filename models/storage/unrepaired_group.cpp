#include "storage/unrepaired_group.hpp"

#include <boost/math/quadrature/exp_sinh.hpp>
#include <cmath>

namespace mcpilot::storage {

namespace {

// ln C(n, k).
double log_choose(int n, int k) {
  return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
}

// 1 - S after a cumulative hazard H (F = 1 - e^-H), from the positive terms.
double loss_after_hazard(const unrepaired_group& g, double H) {
  if (!(H > 0)) return 0;
  const double log_f = std::log(-std::expm1(-H)), log_s = -H;
  const int n = g.disks, m = g.tolerance;
  auto b = [&](int k) { return std::exp(log_choose(n, k) + k * log_f + (n - k) * log_s); };
  double p = 0;
  for (int k = m + 1; k <= n; ++k) p += b(k);
  if (m >= 1 && g.rebuild_error > 0) p += g.rebuild_error * b(m);
  return std::min(p, 1.0);
}

}  // namespace

double unrepaired_loss_by(const unrepaired_group& g, double t) {
  return loss_after_hazard(g, g.lifetime.cumulative_hazard(t));
}

quadrature_result unrepaired_mttdl(const unrepaired_group& g, int groups) {
  // No failure before the location: the quadrature starts there, in units of the law's mean
  // beyond it, so that its scale is about 1.
  const double location = g.lifetime.type == duration_law::kind::weibull ? g.lifetime.location : 0;
  const double unit = g.lifetime.expected() - location;
  auto survival = [&](double x) {
    const double p = loss_after_hazard(g, g.lifetime.cumulative_hazard(location + unit * x));
    return std::exp(groups * std::log1p(-p));
  };
  boost::math::quadrature::exp_sinh<double> integrator;
  double error = 0;
  const double value =
      integrator.integrate(survival, 0.0, std::numeric_limits<double>::infinity(), 1e-10, &error);
  return {location + unit * value, unit * error};
}

}  // namespace mcpilot::storage
