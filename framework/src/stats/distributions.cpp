#include "mcpilot/stats/distributions.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

namespace mcpilot {

namespace bm = boost::math;

double t_quantile(double df, double p) { return bm::quantile(bm::students_t(df), p); }

double t_critical(double df, double confidence) {
  return t_quantile(df, 0.5 + confidence / 2);
}

double t_cdf(double df, double x) { return bm::cdf(bm::students_t(df), x); }

double normal_quantile(double p) { return bm::quantile(bm::normal(), p); }

double normal_critical(double confidence) { return normal_quantile(0.5 + confidence / 2); }

double normal_cdf(double x) { return bm::cdf(bm::normal(), x); }

}  // namespace mcpilot
