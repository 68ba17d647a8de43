#pragma once
// Student-t and normal quantiles and distribution functions, through Boost.Math.
// Everything here throws std::domain_error for df <= 0 or p outside (0, 1).

namespace mcpilot {

// The p-quantile of Student's t with df degrees of freedom (df may be fractional, as Welch's).
double t_quantile(double df, double p);

// Two-sided critical value t*: the (1 + confidence)/2 quantile.
double t_critical(double df, double confidence);

// P(T <= x) for Student's t with df degrees of freedom.
double t_cdf(double df, double x);

double normal_quantile(double p);
double normal_critical(double confidence);  // (1 + confidence)/2 quantile, 1.959964 at 0.95
double normal_cdf(double x);

}  // namespace mcpilot
