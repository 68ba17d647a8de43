#include "mcpilot/stats/scaling.hpp"
#include "mcpilot/stats/summary.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "mcpilot/error.hpp"
#include "mcpilot/rng.hpp"
#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/proportion.hpp"
#include "scaling_parts.hpp"

namespace mcpilot {

namespace {

constexpr std::array<scaling_shape, 7> shape_table = {
    scaling_shape::constant,  scaling_shape::log_n, scaling_shape::linear,   scaling_shape::n_log_n,
    scaling_shape::quadratic, scaling_shape::cubic, scaling_shape::power_law};

using detail::fit_cd;
using detail::fixed;
using detail::weighted_mean;
using detail::weights_for;

using detail::nan;

// What the selection needs of one shape over fixed sizes: its basis column (or, for the power
// law, log n against log T) and the weights. Built once; the bootstrap only changes the medians.
struct prepared {
  std::vector<double> log_n;
  std::vector<std::vector<double>> basis;  // per shape; empty for power_law
};

prepared prepare(std::span<const double> sizes, std::span<const scaling_shape> shapes) {
  prepared p;
  p.log_n.resize(sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) p.log_n[i] = std::log(sizes[i]);
  p.basis.resize(shapes.size());
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    if (shapes[s] == scaling_shape::power_law) continue;
    p.basis[s].resize(sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i)
      p.basis[s][i] = scaling_basis(shapes[s], sizes[i]);
  }
  return p;
}

// Leave-one-size-out errors of one shape, given the medians, their logs and the weights.
// The holdout is the largest size's own term.
shape_validation validate_one(const prepared& p, std::size_t s, scaling_shape shape,
                              std::span<const double> medians, std::span<const double> log_t,
                              std::span<const double> w, std::span<const double> ones,
                              bool nonnegative_d) {
  const std::size_t k = medians.size();
  shape_validation v;
  if (k < 3) return v;
  long double sum2 = 0;
  double last = nan;
  for (std::size_t i = 0; i < k; ++i) {
    double predicted_log = nan;
    if (shape == scaling_shape::constant) {
      const double level = weighted_mean(medians, w, i);
      if (level > 0) predicted_log = std::log(level);
    } else if (shape == scaling_shape::power_law) {
      double b = 0, log_a = 0;
      if (!fit_cd(p.log_n, log_t, ones, i, false, b, log_a)) return {};
      predicted_log = log_a + b * p.log_n[i];
    } else {
      double c = 0, d = 0;
      if (!fit_cd(p.basis[s], medians, w, i, nonnegative_d, c, d)) return {};
      const double predicted = c * p.basis[s][i] + d;
      if (predicted > 0) predicted_log = std::log(predicted);
    }
    // A prediction <= 0 cannot be judged on the log scale: it fails the gate outright.
    const double e = std::isnan(predicted_log) ? std::numeric_limits<double>::infinity()
                                               : std::abs(predicted_log - log_t[i]);
    sum2 += static_cast<long double>(e) * e;
    last = e;
  }
  v.loso_error = std::sqrt(static_cast<double>(sum2 / static_cast<long double>(k)));
  v.holdout_error = last;
  return v;
}

std::vector<shape_validation> validate_prepared(const prepared& p,
                                                std::span<const scaling_shape> shapes,
                                                std::span<const double> medians,
                                                scaling_weighting weighting, std::vector<double>& w,
                                                std::vector<double>& log_t,
                                                std::vector<double>& ones, bool nonnegative_d) {
  weights_for(medians, weighting, w);
  log_t.resize(medians.size());
  for (std::size_t i = 0; i < medians.size(); ++i) log_t[i] = std::log(medians[i]);
  ones.assign(medians.size(), 1.0);
  std::vector<shape_validation> out(shapes.size());
  for (std::size_t s = 0; s < shapes.size(); ++s)
    out[s] = validate_one(p, s, shapes[s], medians, log_t, w, ones, nonnegative_d);
  return out;
}

// The selection rule: the smallest leave-one-size-out error (a shape with more freedom gains
// nothing here unless it predicts unseen sizes better). Ties go to the earlier (simpler) shape.
std::optional<std::size_t> select(std::span<const shape_validation> v) {
  std::optional<std::size_t> best;
  for (std::size_t s = 0; s < v.size(); ++s)
    if (v[s].loso_error && (!best || *v[s].loso_error < *v[*best].loso_error)) best = s;
  return best;
}

// An index in [0, m) from 64 random bits, by Lemire's multiply-shift (no modulo bias worth
// naming for m far below 2^64).
std::size_t draw_index(philox_stream& g, std::size_t m) {
  return static_cast<std::size_t>((static_cast<unsigned __int128>(g()) * m) >> 64);
}

// Three significant digits: a p-value or a fixed cost, whatever its magnitude.
std::string format_p(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

void add_jump_warnings(scaling_result& r, double jump) {
  if (r.steps.size() < 2) return;
  std::vector<double> p;
  for (const auto& st : r.steps) p.push_back(st.exponent);
  const double typical = median_in_place(p);
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    const auto& st = r.steps[i];
    if (!(std::abs(st.exponent - typical) > jump)) continue;
    std::string w = "local exponent " + fixed(st.exponent, 2) +
                    " from n = " + format_size(st.n_from) + " to " + format_size(st.n_to) +
                    " departs from the typical " + fixed(typical, 2) + ": ";
    if (st.exponent < typical && i < r.steps.size() / 2)
      w += "a fixed overhead dominating at small n?";
    else if (st.exponent > typical)
      w += "a transition (a cache level, paging, GC, saturation)?";
    else
      w += "a transition (vectorization, a change of algorithm path, saturation)?";
    w += " A single shape over the whole range may not describe it";
    r.warnings.push_back(std::move(w));
  }
}

}  // namespace

std::span<const scaling_shape> all_scaling_shapes() {
  return shape_table;
}

std::string_view to_string(scaling_shape s) {
  switch (s) {
    case scaling_shape::constant:
      return "constant";
    case scaling_shape::log_n:
      return "log_n";
    case scaling_shape::linear:
      return "linear";
    case scaling_shape::n_log_n:
      return "n_log_n";
    case scaling_shape::quadratic:
      return "quadratic";
    case scaling_shape::cubic:
      return "cubic";
    case scaling_shape::power_law:
      return "power_law";
  }
  return "?";
}

std::optional<scaling_shape> parse_scaling_shape(std::string_view name) {
  for (auto s : shape_table)
    if (to_string(s) == name) return s;
  return std::nullopt;
}

std::string_view display_name(scaling_shape s) {
  switch (s) {
    case scaling_shape::constant:
      return "constant";
    case scaling_shape::log_n:
      return "log n";
    case scaling_shape::linear:
      return "n";
    case scaling_shape::n_log_n:
      return "n log n";
    case scaling_shape::quadratic:
      return "n^2";
    case scaling_shape::cubic:
      return "n^3";
    case scaling_shape::power_law:
      return "a*n^b";
  }
  return "?";
}

double scaling_basis(scaling_shape s, double n) {
  switch (s) {
    case scaling_shape::constant:
      return 1;
    case scaling_shape::log_n:
      return std::log(n);
    case scaling_shape::linear:
      return n;
    case scaling_shape::n_log_n:
      return n * std::log(n);
    case scaling_shape::quadratic:
      return n * n;
    case scaling_shape::cubic:
      return n * n * n;
    case scaling_shape::power_law:
      return nan;
  }
  return nan;
}

std::string_view to_string(scaling_label l) {
  switch (l) {
    case scaling_label::compatible:
      return "compatible-over-observed-range";
    case scaling_label::insufficient_design:
      return "insufficient-design";
    case scaling_label::none_adequate:
      return "none-adequate";
    case scaling_label::ambiguous:
      return "ambiguous";
  }
  return "?";
}

std::string_view to_string(scaling_status s) {
  return s == scaling_status::ok ? "ok" : "too-few-sizes";
}

std::vector<shape_validation> validate_shapes(std::span<const double> sizes,
                                              std::span<const double> medians,
                                              std::span<const scaling_shape> shapes,
                                              scaling_weighting weighting,
                                              bool nonnegative_fixed_cost) {
  const prepared p = prepare(sizes, shapes);
  std::vector<double> w, log_t, ones;
  return validate_prepared(p, shapes, medians, weighting, w, log_t, ones, nonnegative_fixed_cost);
}

std::string format_size(double n) {
  if (n != std::floor(n) || n >= 1e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", n);
    return buf;
  }
  std::string digits = std::to_string(static_cast<long long>(n));
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

scaling_result analyze_scaling(std::span<const double> n, std::span<const double> t,
                               const scaling_options& options) {
  if (n.size() != t.size())
    throw std::invalid_argument("analyze_scaling: n and t differ in length");
  for (std::size_t j = 0; j < n.size(); ++j) {
    if (!(std::isfinite(n[j]) && n[j] > 0))
      throw reading_error(j, "the size n must be a finite number > 0");
    if (!(std::isfinite(t[j]) && t[j] > 0))
      throw reading_error(j, "the value must be a finite number > 0 (a log scale)");
  }
  scaling_result r;
  r.rows = n.size();
  r.seed = options.seed;
  r.gate = std::log1p(options.relative_tolerance);
  r.exploratory = options.models.empty();
  std::vector<scaling_shape> shapes = options.models;
  if (shapes.empty()) shapes.assign(shape_table.begin(), shape_table.end());
  // Report order is the table's, whatever order --models named them in; duplicates once.
  std::vector<scaling_shape> ordered;
  for (auto s : shape_table)
    if (std::find(shapes.begin(), shapes.end(), s) != shapes.end()) ordered.push_back(s);
  shapes = ordered;

  // Group rows by size (a stable sort keeps each size's rows in file order).
  std::vector<std::size_t> order(n.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return n[a] < n[b]; });
  std::vector<std::vector<double>> groups;
  for (std::size_t at = 0; at < order.size();) {
    std::size_t end = at;
    scaling_size z;
    z.n = n[order[at]];
    z.first_row = order[at];
    std::vector<double> v;
    while (end < order.size() && n[order[end]] == z.n) v.push_back(t[order[end++]]);
    z.count = v.size();
    z.mean = std::accumulate(v.begin(), v.end(), 0.0L) / static_cast<long double>(v.size());
    z.min = *std::min_element(v.begin(), v.end());
    z.max = *std::max_element(v.begin(), v.end());
    if (v.size() >= 2) {
      long double ss = 0;
      for (double x : v) ss += (x - z.mean) * (x - z.mean);
      z.sd = std::sqrt(static_cast<double>(ss / static_cast<long double>(v.size() - 1)));
    }
    std::vector<double> tmp = v;
    z.median = median_in_place(tmp);
    for (double& x : tmp) x = std::abs(x - z.median);
    z.mad_rel = median_in_place(tmp) / z.median;
    r.sizes.push_back(z);
    groups.push_back(std::move(v));
    at = end;
  }
  const std::size_t k = r.sizes.size();
  if (k < 2) {
    r.status = scaling_status::too_few_sizes;
    r.design_problems.push_back("fewer than 2 distinct sizes");
    r.statement = scaling_statement(r);
    return r;
  }

  std::vector<double> sizes(k), medians(k);
  for (std::size_t i = 0; i < k; ++i) {
    sizes[i] = r.sizes[i].n;
    medians[i] = r.sizes[i].median;
  }
  for (std::size_t i = 1; i < k; ++i) {
    const double ratio = medians[i] / medians[i - 1];
    r.steps.push_back(
        {sizes[i - 1], sizes[i], ratio, std::log(ratio) / std::log(sizes[i] / sizes[i - 1])});
  }
  for (std::size_t i = 0; i < k; ++i) {
    scaling_normalized z;
    z.n = sizes[i];
    z.per_n = medians[i] / sizes[i];
    if (sizes[i] != 1) z.per_n_log_n = medians[i] / (sizes[i] * std::log2(sizes[i]));
    z.per_n2 = medians[i] / sizes[i] / sizes[i];
    r.normalized.push_back(z);
  }

  // Point fits and validation on the medians as measured.
  const prepared prep = prepare(sizes, shapes);
  std::vector<double> w, log_t, ones;
  const bool nonneg = options.nonnegative_fixed_cost;
  const auto validation =
      validate_prepared(prep, shapes, medians, options.weighting, w, log_t, ones, nonneg);
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    scaling_candidate c;
    c.shape = shapes[s];
    if (const auto f =
            fit_shape(shapes[s], sizes, medians, options.weighting, options.confidence, nonneg)) {
      c.c = f->c;
      c.d = f->d;
      c.d_free = f->d_free;
      c.c_low = f->c_low;
      c.c_high = f->c_high;
      c.exponent = f->exponent;
      c.exponent_low = f->exponent_low;
      c.exponent_high = f->exponent_high;
      long double ss = 0;
      bool positive = true;
      for (std::size_t i = 0; i < k; ++i) {
        const double p = f->predict(shapes[s], sizes[i]);
        if (!(p > 0)) {
          positive = false;
          continue;
        }
        ss += std::pow(std::log(p / medians[i]), 2);
      }
      c.rms_log_residual = positive ? std::sqrt(static_cast<double>(ss / k))
                                    : std::numeric_limits<double>::infinity();
    }
    c.loso_error = validation[s].loso_error;
    c.holdout_error = validation[s].holdout_error;
    std::vector<std::string> notes;
    if (!c.loso_error) {
      notes.push_back("too few sizes to leave one out");
    } else if (!(*c.loso_error <= r.gate)) {
      notes.push_back("leave-one-size-out error beyond the gate");
      if (!(*c.holdout_error <= r.gate)) notes.back() += "; so is the holdout";
    } else if (!(*c.holdout_error <= r.gate)) {
      notes.push_back("does not predict the largest size within the gate");
    } else {
      c.within_gate = true;
    }
    c.lack_of_fit = lack_of_fit(shapes[s], n, t, options.weighting, nonneg);
    const bool lack = c.lack_of_fit && c.lack_of_fit->p < options.lack_of_fit_level;
    if (lack)
      notes.push_back(
          "lack of fit against the spread within sizes: F = " + fixed(c.lack_of_fit->f, 1) +
          " on " + std::to_string(c.lack_of_fit->df_lack) + " and " +
          std::to_string(c.lack_of_fit->df_pure) + " df, p = " + format_p(c.lack_of_fit->p));
    if (c.d_free)
      notes.push_back("fixed cost d held at 0 (the free fit's d = " + format_p(*c.d_free) +
                      " is negative)");
    c.passes = c.within_gate && !lack;
    for (std::size_t i = 0; i < notes.size(); ++i) c.note += (i ? "; " : "") + notes[i];
    r.candidates.push_back(std::move(c));
  }

  // Selection stability: resample rows within each size, with replacement, and rerun the rule.
  r.bootstrap = options.bootstrap;
  if (options.bootstrap > 0) {
    std::vector<std::size_t> picks(shapes.size(), 0);
    std::vector<double> boot_medians(k), buf;
    for (std::size_t b = 0; b < options.bootstrap; ++b) {
      philox_stream g(options.seed, b);
      for (std::size_t i = 0; i < k; ++i) {
        const auto& v = groups[i];
        buf.resize(v.size());
        for (auto& x : buf) x = v[draw_index(g, v.size())];
        boot_medians[i] = median_in_place(buf);
      }
      const auto vb =
          validate_prepared(prep, shapes, boot_medians, options.weighting, w, log_t, ones, nonneg);
      if (const auto pick = select(vb)) ++picks[*pick];
    }
    for (std::size_t s = 0; s < shapes.size(); ++s) {
      auto& c = r.candidates[s];
      c.selected = picks[s];
      c.selected_fraction = static_cast<double>(picks[s]) / static_cast<double>(options.bootstrap);
      const auto wi = wilson_interval(c.selected_fraction, options.bootstrap, options.confidence);
      // The score interval's ends at 0 and B are exactly 0 and 1; keep rounding from saying
      // otherwise.
      c.selected_low = picks[s] == 0 ? 0.0 : std::max(0.0, wi.low);
      c.selected_high = picks[s] == options.bootstrap ? 1.0 : std::min(1.0, wi.high);
    }
  }

  // The design the stronger label needs (docs/scaling.md).
  std::size_t fewest = r.sizes.front().count;
  bool varies = false;
  for (const auto& z : r.sizes) {
    fewest = std::min(fewest, z.count);
    varies = varies || z.max > z.min;
  }
  const double span = sizes.back() / sizes.front();
  if (k < 6) r.design_problems.push_back(std::to_string(k) + " sizes, fewer than 6");
  if (span < 16)
    r.design_problems.push_back("the sizes span " + fixed(span, 1) + "x, less than 16x");
  if (fewest < 3)
    r.design_problems.push_back(std::to_string(fewest) + (fewest == 1 ? " sample" : " samples") +
                                " at some size, fewer than 3");
  else if (!varies)
    r.design_problems.push_back(
        "the samples within each size are identical: no resampling variation");
  if (options.bootstrap < 200)
    r.design_problems.push_back(std::to_string(options.bootstrap) +
                                " bootstrap resamples, fewer than 200");
  if (k < 6)
    r.warnings.push_back(
        "only " + std::to_string(k) +
        " sizes: too few to tell shapes apart reliably (6 or more over 16x or more)");
  add_jump_warnings(r, options.exponent_jump);

  detail::assign_label(r, options);
  r.statement = scaling_statement(r);
  return r;
}

}  // namespace mcpilot
