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

// The upper tail (1 - c)/2 rather than the lower (1 + c)/2: a confidence within 1e-16 of 1 is a
// valid level, but (1 + c)/2 rounds to exactly 1 in double, while 1 - c is exact (Sterbenz).
double t_critical(double df, double confidence) {
  const double tail = checked_probability((1 - confidence) / 2);
  return bm::quantile(bm::complement(bm::students_t(df), tail));
}

double t_cdf(double df, double x) {
  return bm::cdf(bm::students_t(df), x);
}

double normal_quantile(double p) {
  return bm::quantile(bm::normal(), checked_probability(p));
}

double normal_critical(double confidence) {
  const double tail = checked_probability((1 - confidence) / 2);
  return bm::quantile(bm::complement(bm::normal(), tail));
}

double normal_cdf(double x) {
  return bm::cdf(bm::normal(), x);
}

}  // namespace mcpilot
