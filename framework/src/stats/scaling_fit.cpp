// The fits of stats/scaling.hpp: the weighted intercept-and-slope fit with the fixed cost kept
// >= 0, each shape's point fit, and the lack-of-fit F test against the spread within sizes.
#include <algorithm>
#include <boost/math/distributions/fisher_f.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "mcpilot/error.hpp"
#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/scaling.hpp"
#include "mcpilot/stats/summary.hpp"
#include "scaling_parts.hpp"

namespace mcpilot {

namespace detail {

// long double sums: the bases span many decades (n^3 over 2^8 .. 2^15 spans 10^7 .. 10^13), and
// the centred form keeps the cancellation in Sxx to the spread of x, not its size.
bool fit_cd(std::span<const double> x, std::span<const double> y, std::span<const double> w,
            std::size_t skip, bool nonnegative_d, double& c, double& d) {
  long double sw = 0, sx = 0, sy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i == skip) continue;
    sw += w[i];
    sx += w[i] * static_cast<long double>(x[i]);
    sy += w[i] * static_cast<long double>(y[i]);
  }
  const long double xbar = sx / sw, ybar = sy / sw;
  long double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i == skip) continue;
    const long double dx = x[i] - xbar;
    sxx += w[i] * dx * dx;
    sxy += w[i] * dx * (y[i] - ybar);
  }
  if (!(sxx > 0)) return false;
  c = static_cast<double>(sxy / sxx);
  d = static_cast<double>(ybar - sxy / sxx * xbar);
  if (!nonnegative_d || d >= 0) return true;
  // One linear constraint on a convex problem: when the free minimum breaks it, the constrained
  // one lies on its boundary d = 0.
  long double sxx0 = 0, sxy0 = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i == skip) continue;
    sxx0 += w[i] * static_cast<long double>(x[i]) * x[i];
    sxy0 += w[i] * static_cast<long double>(x[i]) * y[i];
  }
  if (!(sxx0 > 0)) return false;
  c = static_cast<double>(sxy0 / sxx0);
  d = 0;
  return true;
}

void weights_for(std::span<const double> medians, scaling_weighting weighting,
                 std::vector<double>& w) {
  w.resize(medians.size());
  for (std::size_t i = 0; i < medians.size(); ++i)
    w[i] = weighting == scaling_weighting::relative ? 1.0 / (medians[i] * medians[i]) : 1.0;
}

double weighted_mean(std::span<const double> y, std::span<const double> w, std::size_t skip) {
  long double sw = 0, sy = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (i == skip) continue;
    sw += w[i];
    sy += w[i] * static_cast<long double>(y[i]);
  }
  return static_cast<double>(sy / sw);
}

std::string fixed(double x, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

}  // namespace detail

namespace {

using detail::nan;

// P(F > f) for Fisher's F with (df1, df2) degrees of freedom.
double f_upper_tail(double df1, double df2, double f) {
  if (!(f > 0)) return 1;
  if (std::isinf(f)) return 0;
  return boost::math::cdf(boost::math::complement(boost::math::fisher_f(df1, df2), f));
}

// y ~ c x through the origin, with c's t interval on k - 1 df.
line_fit fit_through_origin(std::span<const double> x, std::span<const double> y,
                            std::span<const double> w, double confidence) {
  const std::size_t k = x.size();
  line_fit f;
  long double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < k; ++i) {
    sxx += w[i] * static_cast<long double>(x[i]) * x[i];
    sxy += w[i] * static_cast<long double>(x[i]) * y[i];
  }
  if (!(sxx > 0)) return f;
  f.identified = true;
  f.c = static_cast<double>(sxy / sxx);
  if (k < 2) return f;
  long double rss = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const long double r = y[i] - static_cast<long double>(f.c) * x[i];
    rss += w[i] * r * r;
  }
  const double s2 = static_cast<double>(rss / static_cast<long double>(k - 1));
  f.residual_sd = std::sqrt(s2);
  const double half =
      t_critical(static_cast<double>(k - 1), confidence) * std::sqrt(s2 / static_cast<double>(sxx));
  f.c_low = f.c - half;
  f.c_high = f.c + half;
  return f;
}

}  // namespace

line_fit fit_line(std::span<const double> x, std::span<const double> y, std::span<const double> w,
                  double confidence) {
  if (x.size() != y.size() || x.size() != w.size())
    throw std::invalid_argument("fit_line: x, y and w need the same length");
  if (x.empty()) throw std::invalid_argument("fit_line: no points");
  const std::size_t k = x.size();
  line_fit f;
  double c = 0, d = 0;
  if (!detail::fit_cd(x, y, w, k, false, c, d)) {
    f.d = detail::weighted_mean(y, w, k);
    return f;
  }
  f.identified = true;
  f.c = c;
  f.d = d;
  if (k < 3) return f;
  long double sw = 0, sx = 0, rss = 0;
  for (std::size_t i = 0; i < k; ++i) {
    sw += w[i];
    sx += w[i] * static_cast<long double>(x[i]);
  }
  const long double xbar = sx / sw;
  long double sxx = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const long double dx = x[i] - xbar;
    sxx += w[i] * dx * dx;
    const long double r = y[i] - (static_cast<long double>(c) * x[i] + d);
    rss += w[i] * r * r;
  }
  const double s2 = static_cast<double>(rss / static_cast<long double>(k - 2));
  f.residual_sd = std::sqrt(s2);
  const double half =
      t_critical(static_cast<double>(k - 2), confidence) * std::sqrt(s2 / static_cast<double>(sxx));
  f.c_low = c - half;
  f.c_high = c + half;
  return f;
}

double shape_fit::predict(scaling_shape s, double n) const {
  if (s == scaling_shape::power_law) return c * std::pow(n, exponent.value_or(nan));
  if (s == scaling_shape::constant) return c;
  return c * scaling_basis(s, n) + d;
}

std::optional<shape_fit> fit_shape(scaling_shape s, std::span<const double> sizes,
                                   std::span<const double> medians, scaling_weighting weighting,
                                   double confidence, bool nonnegative_fixed_cost) {
  const std::size_t k = sizes.size();
  if (k == 0 || medians.size() != k) return std::nullopt;
  std::vector<double> w;
  detail::weights_for(medians, weighting, w);
  shape_fit out;
  if (s == scaling_shape::constant) {
    // T = c: the weighted mean, with its t interval on k - 1 df.
    out.c = detail::weighted_mean(medians, w, k);
    if (k >= 2) {
      long double sw = 0, ss = 0;
      for (std::size_t i = 0; i < k; ++i) {
        sw += w[i];
        ss += w[i] * (medians[i] - out.c) * (medians[i] - out.c);
      }
      const double s2 = static_cast<double>(ss / static_cast<long double>(k - 1));
      const double half = t_critical(static_cast<double>(k - 1), confidence) *
                          std::sqrt(s2 / static_cast<double>(sw));
      out.c_low = out.c - half;
      out.c_high = out.c + half;
    }
    return out;
  }
  std::vector<double> x(k), y(k);
  if (s == scaling_shape::power_law) {
    // log T = log a + b log n, unweighted: on the log scale every size already counts by its
    // relative error.
    for (std::size_t i = 0; i < k; ++i) {
      x[i] = std::log(sizes[i]);
      y[i] = std::log(medians[i]);
    }
    const std::vector<double> ones(k, 1.0);
    const line_fit f = fit_line(x, y, ones, confidence);
    if (!f.identified) return std::nullopt;
    out.c = std::exp(f.d);
    out.exponent = f.c;
    out.exponent_low = f.c_low;
    out.exponent_high = f.c_high;
    return out;
  }
  for (std::size_t i = 0; i < k; ++i) x[i] = scaling_basis(s, sizes[i]);
  line_fit f = fit_line(x, medians, w, confidence);
  if (!f.identified) return std::nullopt;
  if (nonnegative_fixed_cost && f.d < 0) {
    out.d_free = f.d;
    f = fit_through_origin(x, medians, w, confidence);
    if (!f.identified) return std::nullopt;
  }
  out.c = f.c;
  out.d = f.d;
  out.c_low = f.c_low;
  out.c_high = f.c_high;
  return out;
}

namespace {

struct size_group {
  double n = 0;
  std::size_t count = 0;
  double mean = 0;    // of t, or of log t for the power law
  double median = 0;  // of t
  double within = 0;  // sum of squared deviations about the mean
};

std::vector<size_group> group_rows(std::span<const double> n, std::span<const double> t,
                                   bool logs) {
  std::vector<std::size_t> order(n.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return n[a] < n[b]; });
  std::vector<size_group> out;
  std::vector<double> v;
  for (std::size_t at = 0; at < order.size();) {
    size_group g;
    g.n = n[order[at]];
    v.clear();
    while (at < order.size() && n[order[at]] == g.n) v.push_back(t[order[at++]]);
    g.count = v.size();
    std::vector<double> tmp = v;
    g.median = median_in_place(tmp);
    if (logs)
      for (double& x : v) x = std::log(x);
    long double sum = 0;
    for (double x : v) sum += x;
    g.mean = static_cast<double>(sum / static_cast<long double>(v.size()));
    long double ss = 0;
    for (double x : v) ss += (x - static_cast<long double>(g.mean)) * (x - g.mean);
    g.within = static_cast<double>(ss);
    out.push_back(g);
  }
  return out;
}

}  // namespace

std::optional<lack_of_fit_test> lack_of_fit(scaling_shape s, std::span<const double> n,
                                            std::span<const double> t, scaling_weighting weighting,
                                            bool nonnegative_fixed_cost) {
  if (n.size() != t.size()) throw std::invalid_argument("lack_of_fit: n and t differ in length");
  for (std::size_t j = 0; j < n.size(); ++j) {
    if (!(std::isfinite(n[j]) && n[j] > 0))
      throw reading_error(j, "the size n must be a finite number > 0");
    if (!(std::isfinite(t[j]) && t[j] > 0))
      throw reading_error(j, "the value must be a finite number > 0 (a log scale)");
  }
  const bool power = s == scaling_shape::power_law;
  const std::vector<size_group> g = group_rows(n, t, power);
  const std::size_t k = g.size();
  std::vector<double> x(k), y(k), w(k), big_w(k);
  long double pure = 0;
  for (std::size_t i = 0; i < k; ++i) {
    // The weights of one row at size i: the fit of c f(n) + d minimises relative errors
    // (docs/scaling.md), so a row's variance is taken as proportional to the median squared.
    w[i] = power || weighting == scaling_weighting::unweighted ? 1.0
                                                               : 1.0 / (g[i].median * g[i].median);
    big_w[i] = w[i] * static_cast<double>(g[i].count);
    x[i] = power ? std::log(g[i].n) : scaling_basis(s, g[i].n);
    y[i] = g[i].mean;
    pure += w[i] * static_cast<long double>(g[i].within);
  }
  std::size_t p = 2;
  std::vector<double> fitted(k);
  if (s == scaling_shape::constant) {
    p = 1;
    std::fill(fitted.begin(), fitted.end(), detail::weighted_mean(y, big_w, k));
  } else {
    double c = 0, d = 0;
    if (!detail::fit_cd(x, y, big_w, k, false, c, d)) return std::nullopt;
    if (!power && nonnegative_fixed_cost && d < 0) {
      if (!detail::fit_cd(x, y, big_w, k, true, c, d)) return std::nullopt;
      p = 1;
    }
    for (std::size_t i = 0; i < k; ++i) fitted[i] = c * x[i] + d;
  }
  const std::size_t rows = n.size();
  if (k <= p || rows <= k || !(pure > 0)) return std::nullopt;
  long double lack = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const long double r = y[i] - static_cast<long double>(fitted[i]);
    lack += big_w[i] * r * r;
  }
  lack_of_fit_test out;
  out.df_lack = k - p;
  out.df_pure = rows - k;
  out.f = static_cast<double>((lack / out.df_lack) / (pure / out.df_pure));
  out.p = f_upper_tail(static_cast<double>(out.df_lack), static_cast<double>(out.df_pure), out.f);
  return out;
}

std::optional<double> shape_exponent(scaling_shape s) {
  switch (s) {
    case scaling_shape::constant:
      return 0.0;
    case scaling_shape::linear:
      return 1.0;
    case scaling_shape::quadratic:
      return 2.0;
    case scaling_shape::cubic:
      return 3.0;
    default:
      return std::nullopt;
  }
}

}  // namespace mcpilot
