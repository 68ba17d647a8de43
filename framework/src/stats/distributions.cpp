#include "mcpilot/stats/distributions.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <stdexcept>
#include <string>

namespace mcpilot {

namespace bm = boost::math;

namespace {

// Boost reports p = 0 or 1 as an overflow (the quantile is infinite); the header promises
// std::domain_error for every p outside (0, 1), so callers need to catch one type only.
double checked_probability(double p) {
  if (!(p > 0 && p < 1))
    throw std::domain_error("a quantile needs a probability in (0, 1), got " + std::to_string(p));
  return p;
}

}  // namespace

double t_quantile(double df, double p) {
  return bm::quantile(bm::students_t(df), checked_probability(p));
}

double t_critical(double df, double confidence) {
  return t_quantile(df, 0.5 + confidence / 2);
}

double t_cdf(double df, double x) {
  return bm::cdf(bm::students_t(df), x);
}

double normal_quantile(double p) {
  return bm::quantile(bm::normal(), checked_probability(p));
}

double normal_critical(double confidence) {
  return normal_quantile(0.5 + confidence / 2);
}

double normal_cdf(double x) {
  return bm::cdf(bm::normal(), x);
}

}  // namespace mcpilot
