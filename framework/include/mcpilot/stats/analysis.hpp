#pragma once
// The whole analysis of one quantity's readings, in the order the method prescribes:
// warm-up/cool-down removal, the kind's transform (reciprocals for rates), the subsession size,
// the interval, and the readings still needed. This is what `mcpilot analyze` prints and what the
// engine evaluates after every round.

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mcpilot/stats/changepoint.hpp"
#include "mcpilot/stats/precision.hpp"

namespace mcpilot {

struct analysis_options {
  quantity_kind kind = quantity_kind::ordinary;
  precision requirements;
  bool remove_warmup = true;
  // Warm-up removal searches a longer series on means of ceil(n / this) readings
  // (changepoint_options::max_points); 0: reading by reading.
  std::size_t changepoint_max_points = changepoint_options{}.max_points;
  bool wilson = false;  // proportions: report Wilson's interval instead of the normal one
  // How analyze() sizes the subsessions (docs/statistics.md, "Subsession analysis"): from the
  // whole correlogram's decay, q = ceil(decay / limit) (autocorrelation_time.hpp), or Pilot's
  // smallest q whose batch means' lag-1 is within the limit. The decay rule falls back to
  // Pilot's when the correlogram is cut by the series' length (a drift), q > n/3, or the stable
  // phase holds fewer than 100 readings.
  enum class grouping { decay, lag1 } subsessions = grouping::decay;
  // Fewest stable readings a verdict may rest on, beside min_samples subsessions (0: none, as
  // Pilot). A stream with disturbances of rate r per reading (load bursts, descheduling) shows
  // none in its first n readings with probability (1 - r)^n, and a session that stops then is
  // precise about a machine it has not yet seen: 3 / r readings make that at most 5%, and 20 / r
  // to 25 / r let in enough of them for the interval to cover (docs/statistics.md, "A stop at
  // the minimum"). required_samples is at least this. A proportion
  // with no events (or all events) keeps its one-sided bound's own rule.
  std::size_t min_readings = 0;
  // Warm-up removal keeps a segment whose neighbours agree, A-B-A' with A within the asked
  // half-width of the kept phase (a load burst that passed), inside the phase rather than
  // cutting the phase at it (docs/statistics.md, "Excursions"). Off: the longest segment alone.
  bool keep_excursions = true;
  // requirements.interval, when unset, means the adjusted interval here.
};

struct warmup_report {
  bool applied = false;  // detection ran
  bool accepted = true;  // a stable phase holding more than half of the readings was found
  std::size_t removed_begin = 0;
  std::size_t removed_end = 0;
  std::vector<std::size_t> changepoints;
  std::vector<double> p_values;
  // Readings per point the detection searched (changepoint_result::resolution; the largest over
  // streams): 1, or b for a series long enough to be searched on means of b readings.
  std::size_t resolution = 1;
  // Of removed_begin, the readings the short warm-up screen dropped at the start of the phase the
  // search kept (warmup_screen.hpp): a warm-up shorter than the search's shortest segment.
  std::size_t short_warmup = 0;
  // Of removed_begin, when the kept phase begins after an earlier one: the series' first readings
  // that the same screen finds apart from that earlier phase, a warm-up ahead of it (20 slow runs,
  // then a shift of the machine's level at run 514: 20 of the 514). Its change-point is listed
  // first, and the phase's drift leaves those readings out. 0 when none.
  std::size_t leading_warmup = 0;
  // Readings inside the kept phase that the search set apart as excursions and that
  // analysis_options::keep_excursions kept, the phase's level being on both sides of them.
  std::size_t excursions = 0;
};

// The phase of the readings the interval is built on. Single-stream analyses only.
struct phase_report {
  // No segment held more than half of the readings (warmup_report::accepted false), so the
  // interval is of the latest segment, the machine as it is now, rather than no interval.
  bool latest = false;
  std::size_t begin = 0, end = 0;  // readings [begin, end) of those given
  std::size_t segments = 1;        // between the change-points found (after the screen)
  // In the quantity's unit (harmonic means for rates): the phase's mean less the mean of the
  // segment before it, and the largest less the smallest segment mean. None with one segment.
  std::optional<double> shift;
  std::optional<double> drift;
};

struct analysis {
  quantity_kind kind = quantity_kind::ordinary;
  double confidence = 0.95;
  std::size_t n = 0;          // readings given
  std::size_t n_used = 0;     // readings inside the interval: q h of the stable phase
  std::size_t remainder = 0;  // stable readings past the last whole subsession, not used
  warmup_report warmup;
  phase_report phase;

  // The estimate: the mean; harmonic for rates, proportion for 0/1, the median under
  // summary_statistic::median (then n_used is every stable reading, and there are no batches).
  summary_statistic statistic = summary_statistic::mean;
  std::optional<double> mean;
  std::optional<double> ci_low;
  std::optional<double> ci_high;  // none when unbounded (a rate with d >= y-bar)
  std::optional<double> ci_width;
  std::optional<double> ci_width_rel;
  // The adjusted interval's sides differed by more than max_side_ratio, and the interval is its
  // symmetric envelope, mean -+ its longer side, converged or not (docs/statistics.md, "A
  // verdict waits for a small skewness adjustment").
  bool symmetric_envelope = false;
  bool one_sided = false;  // a proportion with no events (or all events): a one-sided bound
  // Every reading the same nonzero value c: the interval is c +- p|c|, p the exact bound on the
  // chance that a reading differs (docs/statistics.md, "Readings that never vary").
  bool constant = false;

  std::optional<std::size_t> subsession_size;
  std::optional<std::size_t> subsession_count;
  std::optional<double> autocorrelation;  // raw lag-1 of the analysed readings
  // Integrated autocorrelation time of the analysed readings (Geyer's initial sequence), the
  // readings per independent one: set by analyze() with the decay rule.
  std::optional<double> autocorrelation_time;
  std::optional<double> subsession_autocorrelation;  // lag-1 of the batch means used
  // The interval built on the batch means, and the factor by which it multiplied their variance:
  // (1 + r~) / (1 - r~) for the adjusted interval (r~ the bias-corrected lag-1), 1 for Pilot's
  // and for the binomial intervals of independent 0/1 trials.
  interval_method interval = interval_method::adjusted;
  double variance_inflation = 1;
  // The batch means' skewness, for which the adjusted interval's centre moved away from the mean
  // by interval_shift half-widths (> 0: towards larger values of the quantity reported, so down
  // in the reciprocals for a rate); none and 0 for Pilot's interval and binomial ones.
  std::optional<double> subsession_skewness;
  double interval_shift = 0;

  double target_width = 0;  // the whole width the requirements ask for, in the unit
  std::optional<std::size_t> required_samples;  // raw readings needed in the stable phase
  bool unreachable = false;  // no number of readings can meet the width (e.g. relative to mean 0)
  bool converged = false;
  std::string status;  // "converged", "needs more readings", or why there is no interval
};

// O(n log n): dominated by the subsession search (and change-point detection when enabled).
// Throws reading_error for a reading the kind cannot accept (rate <= 0, proportion not 0/1).
analysis analyze(std::span<const double> readings, const analysis_options& options);

// The readings on the scale analyze() builds the interval on, and detects change-points on:
// reciprocals for rates (kept in `storage`), the readings themselves otherwise, not copied (the
// engine re-analyses every reading each round). Throws reading_error, naming the reading, for
// what the kind cannot accept (not finite, beyond +-1e100 on that scale, a rate <= 0, a
// proportion other than 0 and 1). O(n).
std::span<const double> analysed_scale(std::span<const double> x, quantity_kind kind,
                                       std::vector<double>& storage);

}  // namespace mcpilot

namespace mcpilot {

// Stream style: several independent streams of one quantity. Each stream's warm-up is removed
// separately; one subsession size q serves all streams, the smallest whose lag-1 autocorrelation
// of batch means, pooled over the streams (pooled_lag1), is within the limit; and the batch means
// of every stream are pooled into one interval (batch means within a stream are nearly
// uncorrelated at that size, and streams are independent). required_samples counts stable readings
// over all streams together. O(sum n_s log n_s).
analysis analyze_streams(std::span<const std::span<const double>> streams,
                         const analysis_options& options);

// A function g of the means of several quantities recorded together (row i of every input comes
// from replication i). All inputs are batched with the largest of their subsession sizes; the
// interval comes from the delta method, g(m) +- t* sqrt(grad' S grad / h), S the covariance of the
// batch means. It is computed as the t interval of the linearised batch values
// z_j = g(m) + grad . (y_j - m), whose mean is g(m) and whose variance is grad' S grad. The
// gradient is taken by central differences. Kind is ordinary; no warm-up removal.
// O(k n log n) for k inputs.
analysis analyze_derived(std::span<const std::span<const double>> inputs,
                         const std::function<double(std::span<const double>)>& g,
                         const analysis_options& options);

}  // namespace mcpilot
