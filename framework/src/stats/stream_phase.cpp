#include "stream_phase.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "mcpilot/stats/autocorrelation.hpp"
#include "mcpilot/stats/autocorrelation_time.hpp"
#include "mcpilot/stats/changepoint.hpp"
#include "mcpilot/stats/summary.hpp"
#include "mcpilot/stats/warmup_screen.hpp"

namespace mcpilot {

namespace {

// Warm-up and cool-down removal needs two minimal segments to say anything.
constexpr std::size_t min_readings_for_detection = 60;

// The start screen's longest warm-up: twice the shortest first segment the search can isolate
// (min_segment points of `resolution` readings), so that any warm-up it would miss is in reach.
std::size_t short_warmup_reach(std::size_t n, std::size_t max_points) {
  const std::size_t min_segment = changepoint_options{}.min_segment;
  const std::size_t b = max_points != 0 && n > max_points ? (n + max_points - 1) / max_points : 1;
  return 2 * min_segment * b;
}

// Below this the correlogram is mostly noise (each rho_k has a standard error near 1/sqrt(n),
// and the decay weighs lag k by k): Pilot's search sizes the subsessions of shorter series.
constexpr std::size_t min_readings_for_decay = 100;

// Load bursts on a shared machine are part of the machine being measured, and the longest
// segment alone leaves them out: on a stream of bursts (docs/statistics.md, "Excursions") 46% of
// sessions covered the long-run mean with removal on, against 63% without. An excursion is a
// run of segments between two that agree: A-B-A' with A within the asked half-width of the kept
// phase's level and every segment of B farther from it than A (the search may cut one burst in
// two). The phase grows over the nearest such A on either side, while the level it reaches
// agrees; a level that does not come back is a shift, and stays out. Segments i..j of seg are
// the phase. O(segments^2) a step, at most segments / 2 steps; a few segments in practice.
struct excursion_span {
  std::size_t i = 0, j = 0;    // the phase's first and last segments
  std::size_t excursions = 0;  // readings of the segments it spans as excursions
};

excursion_span span_excursions(const std::vector<changepoint_segment>& seg, std::size_t i,
                               std::size_t j, const analysis_options& opt) {
  std::size_t excursions = 0;
  const bool rate = opt.kind == quantity_kind::rate;
  const auto& req = opt.requirements;
  // Segment means are in the quantity's unit (harmonic for rates), as the width is. The phase's
  // level from its segments' means, weighted by their lengths: O(segments), where a mean over
  // the readings for every candidate made the search O(segments^2 n).
  auto level = [&] {
    double sum = 0;
    for (std::size_t k = i; k <= j; ++k)
      sum +=
          static_cast<double>(seg[k].end - seg[k].begin) * (rate ? 1.0 / seg[k].mean : seg[k].mean);
    const double m = sum / static_cast<double>(seg[j].end - seg[i].begin);
    return rate ? 1.0 / m : m;
  };
  // Whether seg[k] agrees with level p and every segment strictly between k and the phase is
  // farther from p than it.
  auto returns_at = [&](std::size_t k, std::size_t from, std::size_t to, double p) {
    const double tol = req.ci_abs ? *req.ci_abs / 2 : req.ci_perc / 2 * std::abs(p);
    const double off = std::abs(seg[k].mean - p);
    if (off > tol) return false;
    for (std::size_t m = from; m < to; ++m)
      if (std::abs(seg[m].mean - p) <= off) return false;
    return true;
  };
  for (bool moved = true; moved;) {
    moved = false;
    const double left = level();
    for (std::size_t k = i; k-- > 0;) {
      if (k + 1 < i && returns_at(k, k + 1, i, left)) {
        excursions += seg[i].begin - seg[k].end;
        i = k;
        moved = true;
        break;
      }
    }
    const double right = level();
    for (std::size_t k = j + 2; k < seg.size(); ++k) {
      if (returns_at(k, j + 1, k, right)) {
        excursions += seg[k].begin - seg[j].end;
        j = k;
        moved = true;
        break;
      }
    }
  }
  return {i, j, excursions};
}

}  // namespace

bool stable_phase(std::span<const double> y, const analysis_options& opt, warmup_report& w,
                  std::span<const double>& stable, phase_report* phase) {
  stable = y;
  if (phase) phase->end = y.size();
  if (!opt.remove_warmup || y.size() < min_readings_for_detection) return true;
  changepoint_options co;
  co.autocorrelation_limit =
      changepoint_autocorrelation_limit(opt.requirements.autocorrelation_limit);
  co.max_points = opt.changepoint_max_points;
  // A shift of a quarter of the asked half-width moves the mean of the readings it joins by at
  // most that much: it cannot change whether an interval of that half-width is right about the
  // machine the session saw, so it is not a reason to withhold one (changepoint.hpp, step 5).
  // An absolute precision has no relative scale: every kept change counts, as in Pilot.
  if (!opt.requirements.ci_abs) co.min_relative_shift = opt.requirements.ci_perc / 8;
  const changepoint_result cp = detect_changepoints(y, co);
  w.applied = true;
  w.resolution = std::max(w.resolution, cp.resolution);
  std::size_t begin = cp.stable_begin, end = cp.stable_end;
  bool accepted = cp.accepted;
  std::size_t excursions = 0;
  // The segments' means: for the excursions, and for the phase's shift and drift. O(n), once.
  std::vector<changepoint_segment> seg;
  if (!cp.changepoints.empty() || phase)
    seg = changepoint_segments(y, cp, opt.kind == quantity_kind::rate);
  if (!cp.changepoints.empty()) {
    // The longest segment, or the latest where none holds half; then the excursions around it.
    // A phase that grows past half of the readings is a verdict's.
    std::size_t i = seg.size() - 1;
    if (cp.accepted)
      while (seg[i].begin != begin) --i;
    std::size_t j = i;
    if (opt.keep_excursions) {
      const excursion_span e = span_excursions(seg, i, j, opt);
      i = e.i;
      j = e.j;
      excursions = e.excursions;
    }
    if (i != j) {
      begin = seg[i].begin;
      end = seg[j].end;
      accepted = 2 * (end - begin) > y.size();
    } else if (!cp.accepted) {
      begin = seg[i].begin;
      end = y.size();
    }
  }
  w.accepted = accepted;
  if (!accepted) {
    if (!phase) {
      w.changepoints.insert(w.changepoints.end(), cp.changepoints.begin(), cp.changepoints.end());
      w.p_values.insert(w.p_values.end(), cp.p_values.begin(), cp.p_values.end());
      return false;
    }
    phase->latest = true;
  }
  w.excursions += excursions;
  // The start screen runs on the phase the search kept, after it: a warm-up too short for the
  // search is what is left at the phase's start, and a long one the search has already cut
  // keeps its single change-point.
  warmup_screen_options so;
  so.max_length = short_warmup_reach(y.size(), opt.changepoint_max_points);
  const warmup_screen_result screen = screen_short_warmup(y.subspan(begin, end - begin), so);
  const std::size_t skip = screen.length;
  w.short_warmup += skip;
  // A kept phase after an earlier one: how much of what goes before it is a warm-up. The start
  // screen runs on all of it: the search's first segment may hold a warm-up too short for the
  // search and some of the earlier level (cut at 60 where 20 runs were slow), which would
  // otherwise count as part of that level and inflate the drift. If the screen finds none, a
  // first segment within its reach is the warm-up (the search cut it itself). Reported only:
  // everything before the phase is removed either way. The first segment may also be the only
  // one before the phase, when it is beyond that reach.
  std::size_t lead = 0;
  if (!cp.changepoints.empty() && (cp.changepoints.front() < begin ||
                                   (cp.changepoints.front() == begin && begin > so.max_length))) {
    const std::size_t first = cp.changepoints.front();
    warmup_screen_options lo = so;
    lo.max_share = 4;
    const warmup_screen_result s = screen_short_warmup(y.first(begin), lo);
    if (s.length > 0 && s.length < first) {
      lead = s.length;
      w.changepoints.push_back(lead);
      w.p_values.push_back(s.p_value);
    } else if (s.length > 0 || first <= so.max_length) {
      lead = first;
    }
  }
  for (std::size_t i = 0; i < cp.changepoints.size(); ++i) {
    if (skip > 0 && cp.changepoints[i] > begin && (i == 0 || cp.changepoints[i - 1] <= begin)) {
      w.changepoints.push_back(begin + skip);
      w.p_values.push_back(screen.p_value);
    }
    w.changepoints.push_back(cp.changepoints[i]);
    w.p_values.push_back(cp.p_values[i]);
  }
  if (skip > 0 && (cp.changepoints.empty() || cp.changepoints.back() <= begin)) {
    w.changepoints.push_back(begin + skip);
    w.p_values.push_back(screen.p_value);
  }
  w.leading_warmup += lead;
  w.removed_begin += begin + skip;
  w.removed_end += y.size() - end;
  stable = y.subspan(begin + skip, end - begin - skip);
  if (phase) {
    phase->begin = begin + skip;
    phase->end = end;
    auto segments = std::move(seg);
    phase->segments = segments.size();
    // The drift is the machine's: the warm-up ahead of an earlier level is not one of its levels,
    // nor is the rest of a first segment within the screen's reach (the 10 readings of [20, 30)
    // after a warm-up of 20 put a mean 0.3 sd off into the drift).
    if (lead > 0 && segments.front().end <= so.max_length) {
      segments.erase(segments.begin());
    } else if (lead > 0) {
      auto& s0 = segments.front();
      const double m = mean(y.subspan(lead, s0.end - lead));
      s0 = {lead, s0.end, opt.kind == quantity_kind::rate ? 1.0 / m : m, s0.stable};
    }
    if (segments.size() > 1) {
      double lo = segments.front().mean, hi = lo;
      std::size_t at = 0;
      for (std::size_t i = 0; i < segments.size(); ++i) {
        lo = std::min(lo, segments[i].mean);
        hi = std::max(hi, segments[i].mean);
        if (segments[i].begin == begin) at = i;
      }
      phase->drift = hi - lo;
      if (at > 0) phase->shift = segments[at].mean - segments[at - 1].mean;
    }
  }
  return true;
}

// q = ceil(decay / limit), where batch means' lag-1 reaches the limit to first order in 1/q; the
// whole correlogram sets it, not the first q whose noisy rho_1(q) happens to dip under the limit
// (or stays over it on a slow component of small weight). nullopt: use Pilot's search (the
// correlogram was cut by the series' length, or q > n/3). O(n log n), means of 2^16 at most.
std::optional<subsession_choice> subsession_from_decay(std::span<const double> y, double limit,
                                                       analysis& a) {
  if (y.size() < min_readings_for_decay) return std::nullopt;
  const autocorrelation_time t = integrated_autocorrelation_time(y, std::size_t{1} << 16);
  a.autocorrelation_time = t.tau;
  if (t.truncated) return std::nullopt;
  // Readings whose lag 1 is within the limit and whose tau is not significantly above AR(1)'s at
  // that lag (two standard errors, Madras and Sokal's tau sqrt(2 (2W + 1) / n)) show no memory
  // beyond lag 1 to batch away: q = 1, as Pilot's rule gives. Without this the decay's noise on
  // independent readings (a few tenths at n = 100) batched them in pairs: wider intervals (a 95%
  // interval covering 96.9%) and twice the minimum sample for nothing.
  const double rho1 = a.autocorrelation.value_or(0.0);
  const double se = t.tau * std::sqrt(2.0 * static_cast<double>(2 * t.window + 1) /
                                      static_cast<double>(y.size()));
  if (std::abs(rho1) <= limit && t.tau <= (1 + limit) / (1 - limit) + 2 * se)
    return subsession_choice{1, y.size(), rho1};
  const double q_real = std::max(1.0, std::ceil(t.decay / limit));
  if (q_real > static_cast<double>(y.size() / 3)) return std::nullopt;
  const auto q = static_cast<std::size_t>(q_real);
  const double rho = q == 1 ? autocorrelation(y) : batch_autocorrelation(y, q);
  return subsession_choice{q, y.size() / q, std::isfinite(rho) ? rho : 0.0};
}

}  // namespace mcpilot
