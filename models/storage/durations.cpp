#include "storage/durations.hpp"

#include <algorithm>
#include <boost/math/policies/policy.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/lognormal_distribution.hpp>
#include <boost/random/weibull_distribution.hpp>
#include <cmath>
#include <limits>
#include <sstream>

namespace mcpilot::storage {

double duration_law::sample(philox_stream& rng) const {
  switch (type) {
    case kind::exponential:
      return boost::random::exponential_distribution<double>(1.0 / mean)(rng);
    case kind::weibull:
      return location + boost::random::weibull_distribution<double>(shape, scale)(rng);
    case kind::deterministic:
      return mean;
    case kind::lognormal:
      // mean = exp(mu + sigma^2 / 2), so mu = ln(mean) - sigma^2 / 2.
      return boost::random::lognormal_distribution<double>(std::log(mean) - sigma * sigma / 2,
                                                           sigma)(rng);
    case kind::none:
      break;
  }
  return std::numeric_limits<double>::infinity();
}

double duration_law::expected() const {
  switch (type) {
    case kind::weibull:
      return location + scale * boost::math::tgamma(1 + 1 / shape);
    case kind::none:
      return std::numeric_limits<double>::infinity();
    default:
      return mean;
  }
}

double duration_law::hazard_increment(double age, double dx) const {
  if (type == kind::exponential) return dx / mean;
  // Weibull: Lambda(u) = ((u - location) / scale)^shape past the location, 0 before it.
  const double u0 = std::max(age - location, 0.0), u1 = std::max(age + dx - location, 0.0);
  if (u1 <= 0) return 0;
  if (u0 <= 0) return std::pow(u1 / scale, shape);
  // Lambda(u1) - Lambda(u0) = Lambda(u0) (exp(shape ln(1 + dx / u0)) - 1), free of cancellation
  // (dx itself, not u1 - u0, which would lose the digits of a small step at a large age).
  return std::pow(u0 / scale, shape) * std::expm1(shape * std::log1p(dx / u0));
}

double duration_law::hazard_rate(double age) const {
  if (type == kind::exponential) return 1 / mean;
  const double u = age - location;
  if (u < 0) return 0;
  if (u == 0)
    return shape < 1 ? std::numeric_limits<double>::infinity() : (shape == 1 ? 1 / scale : 0);
  return shape / scale * std::pow(u / scale, shape - 1);
}

std::optional<law_problem> check_law(const duration_law& d, const std::string& field,
                                     double horizon) {
  std::ostringstream os;
  os.precision(6);
  if (d.type == duration_law::kind::weibull) {
    const double g = boost::math::tgamma(
        1 + 1 / d.shape,
        boost::math::policies::make_policy(
            boost::math::policies::overflow_error<boost::math::policies::ignore_error>()));
    if (!std::isfinite(g)) {
      os << field << ".shape = " << d.shape << " overflows: the mean needs Gamma(1 + 1/shape), "
         << "which is beyond a double below shape 0.0059";
      return law_problem{field + ".shape", os.str()};
    }
    const double mean = d.location + d.scale * g;
    const double lambda = std::pow(std::max(horizon - d.location, 0.0) / d.scale, d.shape);
    if (!std::isfinite(mean) || !std::isfinite(lambda) ||
        !std::isfinite(std::pow(40.0, 1 / d.shape))) {
      os << field << ".scale_hours = " << d.scale << " with " << field << ".shape = " << d.shape
         << " overflows: the cumulative hazard ((t - location) / scale)^shape at t = " << horizon
         << " h is beyond a double";
      return law_problem{field + ".scale_hours", os.str()};
    }
  } else if (d.type == duration_law::kind::exponential ||
             d.type == duration_law::kind::deterministic) {
    // The simulation draws -ln(u) x mean (up to 37 means for a 53-bit u) and the exact answers use
    // the rate 1/mean: both must be ordinary doubles, or a replication fails on an infinite time
    // (1.7e308 did) or a subnormal mean reads as a zero one.
    const double rate = 1 / d.mean;
    if (!std::isfinite(40 * d.mean) || !std::isfinite(rate) ||
        !(rate >= std::numeric_limits<double>::min()) ||
        !(d.mean >= std::numeric_limits<double>::min())) {
      os << field << ".mean_hours = " << d.mean << " is beyond what a double can simulate: a draw "
         << "of up to 40 means and the rate 1/mean must both be ordinary (normal, finite) numbers, "
         << "so mean_hours lies in [" << std::numeric_limits<double>::min() << ", "
         << std::numeric_limits<double>::max() / 40 << "]";
      return law_problem{field + ".mean_hours", os.str()};
    }
  } else if (d.type == duration_law::kind::lognormal) {
    const double mu = std::log(d.mean) - d.sigma * d.sigma / 2;
    if (!std::isfinite(mu)) {
      os << field << ".shape = " << d.sigma
         << " (sigma of ln time) overflows: mu = ln(mean) - sigma^2/2 is beyond a double";
      return law_problem{field + ".shape", os.str()};
    }
    // A sigma so large that the median exp(mu) underflows: nearly every draw is 0, the mean is
    // carried by draws a double cannot reach, and rebuilds of no time never end a replication.
    if (!(std::exp(mu) >= std::numeric_limits<double>::min())) {
      os << field << ".shape = " << d.sigma << " (sigma of ln time) with " << field
         << ".mean_hours = " << d.mean
         << " puts the median exp(ln(mean) - sigma^2/2) below the smallest normal double: "
            "nearly every draw would be 0";
      return law_problem{field + ".shape", os.str()};
    }
    if (!std::isfinite(std::exp(mu + 8 * d.sigma))) {
      os << field << ".mean_hours = " << d.mean << " with " << field << ".shape = " << d.sigma
         << " overflows: exp(mu + 8 sigma), a draw 8 standard deviations up, is beyond a double";
      return law_problem{field + ".mean_hours", os.str()};
    }
  }
  return std::nullopt;
}

std::string duration_law::describe() const {
  std::ostringstream os;
  os.precision(6);
  switch (type) {
    case kind::exponential:
      os << "exponential(mean " << mean << " h)";
      break;
    case kind::weibull:
      os << "weibull(shape " << shape << ", scale " << scale << " h, location " << location
         << " h)";
      break;
    case kind::deterministic:
      os << "deterministic(" << mean << " h)";
      break;
    case kind::lognormal:
      os << "lognormal(mean " << mean << " h, sigma " << sigma << ")";
      break;
    case kind::none:
      os << "none";
      break;
  }
  return os.str();
}

}  // namespace mcpilot::storage
