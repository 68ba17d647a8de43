// The label of a scaling analysis and its sentence (docs/scaling.md, "Labels"): which shape the
// label speaks of, which other candidates the resamples pick too often for it to be stable, and
// when the free power law says the same as a named shape rather than something else.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "mcpilot/stats/proportion.hpp"
#include "mcpilot/stats/scaling.hpp"
#include "scaling_parts.hpp"

namespace mcpilot {

namespace {

using detail::fixed;

std::string shape_phrase(const scaling_result& r, scaling_shape s) {
  if (s != scaling_shape::power_law) return std::string(display_name(s));
  for (const auto& c : r.candidates)
    if (c.shape == s && c.exponent) return "a power law n^" + fixed(*c.exponent, 2);
  return "a power law";
}

const scaling_candidate* find(const scaling_result& r, scaling_shape s) {
  for (const auto& c : r.candidates)
    if (c.shape == s) return &c;
  return nullptr;
}

bool interval_holds(const scaling_candidate& power, double exponent) {
  return power.exponent_low && power.exponent_high && *power.exponent_low <= exponent &&
         exponent <= *power.exponent_high;
}

std::string percent(double fraction) {
  return fixed(100 * fraction, 1) + "%";
}

}  // namespace

namespace detail {

void assign_label(scaling_result& r, const scaling_options& o) {
  const auto& cs = r.candidates;
  std::optional<std::size_t> best_passing, best_any;
  for (std::size_t s = 0; s < cs.size(); ++s) {
    if (cs[s].loso_error && (!best_any || *cs[s].loso_error < *cs[*best_any].loso_error))
      best_any = s;
    if (cs[s].passes && (!best_passing || *cs[s].loso_error < *cs[*best_passing].loso_error))
      best_passing = s;
  }
  if (!r.design_problems.empty()) {
    r.label = scaling_label::insufficient_design;
    if (best_passing || best_any) r.best = cs[best_passing ? *best_passing : *best_any].shape;
    return;
  }
  if (!best_passing) {
    r.label = scaling_label::none_adequate;
    return;
  }
  std::size_t best = *best_passing;
  // The free power law and a named power shape (n, n^2, ...) are one growth when the power law's
  // exponent interval holds the named exponent: the label then names the simpler shape, and the
  // resamples that picked either count for it.
  std::optional<std::size_t> power;
  for (std::size_t s = 0; s < cs.size(); ++s)
    if (cs[s].shape == scaling_shape::power_law) power = s;
  bool agrees = false;
  if (power && best == *power) {
    std::optional<std::size_t> named;
    for (std::size_t s = 0; s < cs.size(); ++s) {
      const auto e = shape_exponent(cs[s].shape);
      if (cs[s].passes && e && interval_holds(cs[*power], *e) &&
          (!named || *cs[s].loso_error < *cs[*named].loso_error))
        named = s;
    }
    if (named) {
      best = *named;
      agrees = true;
    }
  } else if (power) {
    const auto e = shape_exponent(cs[best].shape);
    agrees = e && interval_holds(cs[*power], *e);
  }
  r.best = cs[best].shape;
  r.power_law_agrees = agrees;
  // Unstable: the best shape (with the power law when they agree) must be the resamples' pick in
  // a clear majority, beyond the Monte Carlo uncertainty of the count (its Wilson interval lies
  // above `majority`). Near-tied: no other candidate may be picked often enough that the noise in
  // the data could plausibly flip the choice (its Wilson interval reaches `rival`), whether or
  // not it passes on the data as measured: a shape that the resamples pick a third of the time
  // is a rival even when it just misses the gate on the data as they fell.
  const std::size_t picks = cs[best].selected + (agrees ? cs[*power].selected : 0);
  double low = 0;
  if (r.bootstrap > 0 && picks > 0) {
    const double fraction = static_cast<double>(picks) / static_cast<double>(r.bootstrap);
    low = wilson_interval(fraction, r.bootstrap, o.confidence).low;
  }
  r.rivals.clear();
  for (std::size_t s = 0; s < cs.size(); ++s)
    if (s != best && !(agrees && s == *power) && cs[s].selected_high >= o.rival)
      r.rivals.push_back(cs[s].shape);
  r.label =
      low > o.majority && r.rivals.empty() ? scaling_label::compatible : scaling_label::ambiguous;
}

}  // namespace detail

std::string scaling_statement(const scaling_result& r) {
  if (r.status == scaling_status::too_few_sizes)
    return "fewer than 2 distinct sizes: no scaling can be estimated";
  const std::string range =
      "n = " + format_size(r.sizes.front().n) + " to " + format_size(r.sizes.back().n);
  std::string s;
  switch (r.label) {
    case scaling_label::compatible: {
      s = "empirically compatible with " + shape_phrase(r, *r.best) + " over " + range +
          " under the recorded conditions";
      const auto* power = find(r, scaling_shape::power_law);
      if (r.power_law_agrees && power)
        s += " (the free power law's exponent interval [" + fixed(*power->exponent_low, 3) + ", " +
             fixed(*power->exponent_high, 3) + "] contains " + std::string(display_name(*r.best)) +
             "'s exponent " + fixed(*shape_exponent(*r.best), 0) + ")";
      break;
    }
    case scaling_label::insufficient_design: {
      s = "insufficient design over " + range + " (";
      for (std::size_t i = 0; i < r.design_problems.size(); ++i)
        s += (i ? "; " : "") + r.design_problems[i];
      s += "): no claim; ";
      s += r.best ? "the best point fit is " + shape_phrase(r, *r.best)
                  : "no shape could be validated";
      break;
    }
    case scaling_label::none_adequate: {
      s = "no candidate shape both predicts the left-out sizes within the tolerance and fits "
          "within the spread of the runs over " +
          range;
      for (const auto& c : r.candidates)
        if (c.within_gate && !c.passes && c.lack_of_fit)
          s += "; " + shape_phrase(r, c.shape) +
               " predicts them but departs from the per-size means beyond their spread (lack of "
               "fit p = " +
               [&] {
                 char buf[32];
                 std::snprintf(buf, sizeof buf, "%.2g", c.lack_of_fit->p);
                 return std::string(buf);
               }() +
               ")";
      break;
    }
    case scaling_label::ambiguous: {
      const auto* best = find(r, *r.best);
      s = "ambiguous over " + range + ": " + shape_phrase(r, *r.best) + " fits best";
      if (!r.rivals.empty()) {
        s += ", but the resamples also pick ";
        for (std::size_t i = 0; i < r.rivals.size(); ++i) {
          const auto* c = find(r, r.rivals[i]);
          s += (i == 0                     ? ""
                : i + 1 == r.rivals.size() ? " and "
                                           : ", ") +
               shape_phrase(r, c->shape) + " (" + percent(c->selected_fraction) + ")";
        }
        s += " and the choice is unstable";
      } else {
        s +=
            ", but the resamples pick it in only " + percent(best->selected_fraction) + " of draws";
      }
      break;
    }
  }
  if (r.exploratory) s += " (exploratory: every built-in shape tried, none pre-specified)";
  return s;
}

}  // namespace mcpilot
