#include "storage/durations.hpp"

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
