#include "mcpilot/io/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "mcpilot/stats/changepoint.hpp"

namespace mcpilot {

namespace {

std::string printf_string(const char* format, int precision, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, precision, x);
  return buf;
}

std::string count(std::size_t n, const char* singular, const char* plural) {
  return std::to_string(n) + ' ' + (n == 1 ? singular : plural);
}

// "line 152" when the positions are known, to let the user find a reading in the file.
std::string at_reading(std::size_t i, const reading_positions* positions) {
  std::string s = "reading " + std::to_string(i);
  if (positions && i < positions->size()) s += " (line " + std::to_string(positions->line(i)) + ')';
  return s;
}

// "; centre moved up 6% of the half-width for their skewness 0.45", or nothing when it moved by
// less than 1%.
std::string skewness_note(const analysis& a) {
  if (!a.subsession_skewness || !(std::abs(a.interval_shift) >= 0.005)) return "";
  return std::string("; centre moved ") + (a.interval_shift > 0 ? "up " : "down ") +
         format_percent(std::abs(a.interval_shift)) + " of the half-width for their skewness " +
         format_number(*a.subsession_skewness, 0.1);
}

}  // namespace

std::string format_number(double x, double resolution) {
  if (!std::isfinite(x)) return std::isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf");
  if (x == 0 && !(resolution > 0)) return "0";
  const double ax = std::abs(x);
  if (!(resolution > 0) || !std::isfinite(resolution)) {
    if (ax != 0 && (ax < 1e-3 || ax >= 1e9)) return printf_string("%.*e", 3, x);
    return printf_string("%.*g", 4, x);
  }
  const int res_exp = static_cast<int>(std::floor(std::log10(resolution)));
  const int decimals = std::max(1 - res_exp, 0);
  if (ax < 1e9 && decimals <= 8) {
    std::string s = printf_string("%.*f", decimals, x);
    // A negative number that rounds to zero: "-0.00" reads as a sign that means something.
    if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
    return s;
  }
  const int x_exp = ax == 0 ? res_exp : static_cast<int>(std::floor(std::log10(ax)));
  return printf_string("%.*e", std::clamp(x_exp - res_exp + 1, 1, 16), x);
}

std::string format_percent(double fraction) {
  const double v = 100 * fraction;
  if (!std::isfinite(v)) return "unbounded";
  if (std::abs(v) >= 10) return printf_string("%.*f", 0, v) + '%';
  if (std::abs(v) >= 1) return printf_string("%.*f", 1, v) + '%';
  return printf_string("%#.*g", 2, v) + '%';
}

std::string format_level(double fraction) {
  return printf_string("%.*g", 6, 100 * fraction) + '%';
}

std::string format_p(double p) {
  if (p < 1e-300) return "< 1e-300";  // underflow: the t is beyond what a double resolves
  if (p < 1e-3) return printf_string("%.*e", 1, p);
  return printf_string("%.*g", 2, p);
}

std::string discarded_text(const analysis& a) {
  std::string parts;
  auto part = [&](std::size_t n, const char* what) {
    if (!n) return;
    if (!parts.empty()) parts += ", ";
    parts += std::to_string(n) + " " + what;
  };
  // Before a stable phase that follows an earlier one, only the first readings were a warm-up.
  const std::size_t lead = a.warmup.leading_warmup;
  part(lead ? lead : a.warmup.removed_begin, "warm-up");
  if (lead) part(a.warmup.removed_begin - lead, "of an earlier level");
  part(a.warmup.removed_end, "cool-down");
  part(a.remainder, "past the last whole subsession");
  const std::size_t listed = a.warmup.removed_begin + a.warmup.removed_end + a.remainder;
  if (a.n > a.n_used + listed) part(a.n - a.n_used - listed, "other (no interval yet)");
  return parts.empty() ? "nothing" : parts;
}

std::string removed_at_start_text(const analysis& a) {
  const std::size_t lead = a.warmup.leading_warmup;
  if (!lead) return "warm-up";
  return std::to_string(lead) + " warm-up, then " + std::to_string(a.warmup.removed_begin - lead) +
         " of an earlier level";
}

std::string format_interval(double center, std::optional<double> low, std::optional<double> high,
                            bool relative) {
  if (!low) return format_number(center);
  const double below = center - *low;
  const double above = high ? *high - center : below;
  double resolution = std::min(std::abs(below), std::abs(above));
  if (!(resolution > 0)) resolution = std::max(std::abs(below), std::abs(above));
  std::string s = format_number(center, resolution) + " [" + format_number(*low, resolution) + ", ";
  if (!high) return s + "unbounded)";
  s += format_number(*high, resolution) + ']';
  if (!relative) return s;
  if (center == 0) return s + " (±" + format_number((above + below) / 2, resolution) + ')';
  const double rel_below = below / std::abs(center), rel_above = above / std::abs(center);
  if (std::abs(rel_below - rel_above) <= 1e-9 * std::max(rel_below, rel_above))
    return s + " (±" + format_percent(rel_above) + ')';
  return s + " (-" + format_percent(rel_below) + ", +" + format_percent(rel_above) + ')';
}

void report_table::add(std::string label, std::string value) {
  rows_.emplace_back(std::move(label), std::move(value));
}

void report_table::write(std::ostream& out, std::size_t indent) const {
  std::vector<std::vector<std::string>> rows;
  rows.reserve(rows_.size());
  for (const auto& [label, value] : rows_) rows.push_back({label, value});
  write_columns(out, rows, {true, true}, indent);
}

void write_columns(std::ostream& out, const std::vector<std::vector<std::string>>& rows,
                   const std::vector<bool>& left, std::size_t indent) {
  if (rows.empty()) return;
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], r[c].size());
  for (const auto& r : rows) {
    std::string line(indent, ' ');
    for (std::size_t c = 0; c < r.size() && c < width.size(); ++c) {
      const std::size_t pad = width[c] - r[c].size();
      if (c) line += "  ";
      if (c < left.size() && left[c]) {
        line += r[c];
        line.append(pad, ' ');
      } else {
        line.append(pad, ' ');
        line += r[c];
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }
}

void write_report(std::ostream& out, const analysis& a, const report_context& ctx) {
  const precision& req = ctx.requirements;
  out << ctx.source << ": " << count(a.n, "reading", "readings") << ", " << to_string(a.kind)
      << ", preset " << ctx.preset << " (" << format_level(req.confidence) << " confidence, "
      << "width "
      << (req.ci_abs ? format_number(*req.ci_abs)
                     : format_level(req.ci_perc) + " of the " + std::string(mean_label(a)))
      << ", autocorrelation limit " << format_number(req.autocorrelation_limit) << ", at least "
      << req.min_samples
      << (a.statistic == summary_statistic::median ? " independent readings)\n\n"
                                                   : " subsessions)\n\n");

  report_table t;
  const std::string label(mean_label(a));
  if (a.mean) {
    std::string v = format_interval(*a.mean, a.ci_low, a.ci_high);
    if (a.one_sided) v += ", one-sided bound: no variation in the readings";
    if (a.constant)
      v += ", every reading the same: the bound on a reading that differs, times the mean";
    t.add(label, v);
  } else {
    t.add(label, "none");
  }
  if (a.ci_width) {
    std::string v = format_number(*a.ci_width);
    if (a.ci_width_rel) v += " (" + format_percent(*a.ci_width_rel) + " of the " + label + ')';
    v += ", target " + format_number(a.target_width);
    if (!req.ci_abs) v += " (" + format_level(req.ci_perc) + ')';
    t.add("interval width", v);
  }
  if (a.statistic == summary_statistic::median && a.ci_low)
    t.add("interval",
          "order statistics of " + std::to_string(a.n_used) +
              " stable readings (distribution-free; ranks widened by the autocorrelation time " +
              format_number(a.autocorrelation_time.value_or(1), 0.01) +
              " of the readings' "
              "side of the median)");
  else if (a.constant)
    t.add("interval", "zero-events bound (no reading differs in " + std::to_string(a.n_used) +
                          "; it assumes one that did would lie within |mean| of it)");
  else if (a.subsession_size)
    t.add("interval", a.interval == interval_method::pilot
                          ? std::string("pilot (t interval of the subsession means)")
                          : "adjusted (subsession means' variance x " +
                                format_number(a.variance_inflation, 0.001) +
                                " for their lag-1 autocorrelation" + skewness_note(a) + ')');

  if (!ctx.remove_warmup) {
    t.add("warm-up removal", "off (--no-warmup-removal)");
  } else if (!a.warmup.applied) {
    t.add("warm-up removal", "not run: too few readings to detect a change");
  } else {
    std::string v;
    for (std::size_t k = 0; k < a.warmup.changepoints.size(); ++k) {
      if (k) v += "; ";
      v += at_reading(a.warmup.changepoints[k], ctx.positions);
      if (k < a.warmup.p_values.size()) v += ", p = " + format_p(a.warmup.p_values[k]);
    }
    if (v.empty()) v = "none";
    // A warm-up shorter than the shortest segment cannot be isolated: say how short that is.
    if (a.warmup.resolution > 1)
      v += " (searched on means of " + std::to_string(a.warmup.resolution) +
           " readings: no segment shorter than " +
           std::to_string(a.warmup.resolution * changepoint_options{}.min_segment) + ")";
    t.add("change-points", v);
    if (a.warmup.accepted)
      t.add("removed", std::to_string(a.warmup.removed_begin) + " at the start (" +
                           removed_at_start_text(a) + "), " + std::to_string(a.warmup.removed_end) +
                           " at the end (cool-down)");
    if (a.warmup.excursions)
      t.add("excursions", std::to_string(a.warmup.excursions) +
                              " readings kept inside the phase (its level on both sides of them)");
    else if (!ctx.keep_excursions)
      t.add("excursions", "cut (--cut-excursions): the stable phase is one segment");
    if (a.phase.latest) {
      std::string v = "latest: readings " + std::to_string(a.phase.begin) + "-" +
                      std::to_string(a.phase.end) + " (" +
                      std::to_string(a.phase.end - a.phase.begin) + " of " + std::to_string(a.n) +
                      ", no segment holds more than half)";
      if (a.phase.shift) v += ", shift from the phase before " + format_number(*a.phase.shift);
      if (a.phase.drift) v += ", segment means span " + format_number(*a.phase.drift);
      t.add("stable phase", v);
    }
  }
  if (a.subsession_size) {
    t.add("readings used", std::to_string(a.n_used) + " of " + std::to_string(a.n) +
                               (a.remainder ? ", " + std::to_string(a.remainder) +
                                                  " past the last whole subsession left out"
                                            : std::string()));
    t.add("subsession size", count(*a.subsession_size, "reading", "readings") + " x " +
                                 count(*a.subsession_count, "subsession", "subsessions"));
  }
  if (a.autocorrelation) {
    std::string v = format_number(*a.autocorrelation, 0.1) + " (lag 1, readings)";
    if (a.subsession_autocorrelation)
      v += ", " + format_number(*a.subsession_autocorrelation, 0.1) + " (subsession means)";
    if (a.autocorrelation_time)
      v += "; autocorrelation time " + format_number(*a.autocorrelation_time, 0.1) +
           " readings per independent one";
    t.add("autocorrelation", v);
  }
  if (a.subsession_size) {
    if (a.required_samples)
      t.add("required",
            count(*a.required_samples, "reading", "readings") + " in the stable phase (have " +
                std::to_string(a.n - a.warmup.removed_begin - a.warmup.removed_end) + ')');
    else if (a.unreachable)
      t.add("required", "unreachable");
    else
      t.add("required", "not known yet: no interval");
  }
  t.add("converged", a.converged ? "yes" : "no: " + a.status);
  if (a.warmup.applied && !a.warmup.accepted)
    t.add("hint",
          "mcpilot changepoints shows the segments; --no-warmup-removal treats all the "
          "readings as one phase");
  t.write(out);
}

std::string short_rounds_note(const wps_fit& f, const char* one, const char* many) {
  return count(f.excluded_rounds, one, many) + " with work below " +
         format_number(f.work_cutoff, f.work_cutoff * 1e-3) +
         ": too short to hold a stable phase (the intercept is below 0; the rounds whose fitted "
         "duration is below |intercept|)";
}

void write_report(std::ostream& out, const wps_fit& f, const std::string& source,
                  double confidence) {
  out << source << ": duration against work over " << count(f.rounds, "round", "rounds")
      << ", least squares, " << format_level(confidence) << " confidence\n\n";
  report_table t;
  if (f.verdict == wps_verdict::bounded)
    t.add("rate", format_interval(f.rate, f.rate_low, f.rate_high));
  else if (f.beta > 0)
    t.add("rate", format_number(f.rate) + ", no interval: " + std::string(to_string(f.verdict)));
  else
    t.add("rate", "none: " + std::string(to_string(f.verdict)));
  t.add("slope (time per work)",
        format_interval(f.beta, f.beta - f.beta_half_width, f.beta + f.beta_half_width));
  t.add("intercept (set-up)",
        format_interval(f.alpha, f.alpha - f.alpha_half_width, f.alpha + f.alpha_half_width));
  if (f.excluded_rounds > 0)
    t.add("short rounds left out", short_rounds_note(f, "round", "rounds"));
  t.add("residual sd", format_number(f.residual_sd));
  std::string grouping = count(f.subsession_size, "round", "rounds") + " x " +
                         count(f.subsessions, "subsession", "subsessions");
  if (f.residual_autocorrelation)
    grouping += " (residuals' lag-1 autocorrelation " +
                format_number(*f.residual_autocorrelation, 0.01) + ")";
  t.add("subsession size", grouping);
  t.add("naive rate", format_number(f.naive_rate, std::abs(f.rate) * 1e-3) +
                          "  (total work / total time; biased by the intercept)");
  t.write(out);
}

std::string_view mean_label(const analysis& a) {
  if (a.statistic == summary_statistic::median) return "median";
  return mean_label(a.kind);
}

std::string_view mean_label(quantity_kind k) {
  switch (k) {
    case quantity_kind::rate:
      return "harmonic mean";
    case quantity_kind::proportion:
      return "proportion";
    case quantity_kind::ordinary:
      break;
  }
  return "mean";
}

}  // namespace mcpilot
