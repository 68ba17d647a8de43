// The picture of one session: after each round, every shown quantity's interval, against the
// replications so far (log scale), with the band the final interval had to fit in (the target
// width around the final mean) and the exact value when the model knows it.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "mcpilot/io/report.hpp"
#include "mcpilot/io/run_plot.hpp"
#include "plot_style.hpp"

namespace mcpilot {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

double or_nan(const std::optional<double>& v) {
  return v ? *v : nan;
}

}  // namespace

void round_history::record(const session_progress& p) {
  if (!p.quantities) return;
  stream_style_ = p.streams > 0;
  std::map<std::string, entry> round;
  for (const auto& q : *p.quantities) {
    const analysis& a = q.stats;
    round[q.name] = {p.replications, or_nan(a.mean), or_nan(a.ci_low), or_nan(a.ci_high),
                     a.target_width};
  }
  rounds_.push_back(std::move(round));
}

std::vector<round_history::entry> round_history::of(const std::string& quantity) const {
  std::vector<entry> out;
  for (const auto& r : rounds_)
    if (const auto it = r.find(quantity); it != r.end()) out.push_back(it->second);
  return out;
}

plot_request session_plot(const round_history& h, const session_result& r,
                          const std::map<std::string, double>& analytic, const std::string& title,
                          const std::string& output, plot_format format) {
  std::vector<const quantity_result*> shown;
  for (const auto& q : r.quantities)
    if (q.required) shown.push_back(&q);
  if (shown.empty())
    for (const auto& q : r.quantities) shown.push_back(&q);

  plot_request req;
  req.output = output;
  req.format = format;
  req.height = std::max<int>(360, 300 * static_cast<int>(std::max<std::size_t>(shown.size(), 1)));
  std::ostringstream cmd;
  cmd << plot_style::preamble();
  cmd << "set multiplot layout " << std::max<std::size_t>(shown.size(), 1) << ",1 title "
      << gnuplot_quote("Interval after each round: " + title) << "\n";
  const std::string x_label = h.stream_style() ? "readings so far, all streams (log scale)"
                                               : "replications so far (log scale)";
  if (shown.empty()) cmd << "set title 'no quantities'\nplot NaN notitle\n";
  for (std::size_t k = 0; k < shown.size(); ++k) {
    const quantity_result& q = *shown[k];
    const auto rounds = h.of(q.name);
    const std::string id = std::to_string(k);
    plot_data d{"rounds" + id, {"replications", "mean", "ci_low", "ci_high"}, {}};
    double x_min = std::numeric_limits<double>::infinity(), x_max = 0;
    for (const auto& e : rounds) {
      d.rows.push_back({static_cast<double>(e.replications), e.mean, e.low, e.high});
      x_min = std::min(x_min, static_cast<double>(e.replications));
      x_max = std::max(x_max, static_cast<double>(e.replications));
    }
    req.data.push_back(std::move(d));
    const analysis& a = q.stats;
    const double level = q.requirements.confidence;
    // Late rounds are narrow and near the final mean: the lower right corner stays empty.
    cmd << "set key bottom right\n";
    cmd << "set title " << gnuplot_quote(q.name + (q.required ? "" : " (optional)")) << "\n";
    cmd << "set xlabel " << gnuplot_quote(x_label) << "\nset logscale x\n";
    if (x_max > 0)  // gnuplot would widen the log axis to whole decades
      cmd << "set xrange [" << plot_style::number(x_min / 1.25) << ":"
          << plot_style::number(x_max * 1.25) << "]\n";
    cmd << "set ylabel " << gnuplot_quote(plot_style::axis_label(q.name, q.unit, q.kind)) << "\n";
    std::string plots;
    // The band: the final mean +- half the target width, across the rounds.
    if (a.mean && a.target_width > 0 && std::isfinite(a.target_width) && x_max > 0) {
      const double lo = *a.mean - a.target_width / 2, hi = *a.mean + a.target_width / 2;
      req.data.push_back({"band" + id, {"x", "low", "high"}, {{x_min, lo, hi}, {x_max, lo, hi}}});
      // Early rounds can be far wider than the band; keep the band readable and let their bars
      // run off the panel.
      const double half = std::max(a.target_width / 2, a.ci_width ? *a.ci_width / 2 : 0.0);
      cmd << "set yrange [" << plot_style::number(*a.mean - 8 * half) << ":"
          << plot_style::number(*a.mean + 8 * half) << "]\n";
      const std::string half_text = *a.mean != 0
                                        ? format_percent(a.target_width / 2 / std::abs(*a.mean))
                                        : format_number(a.target_width / 2);
      plots += "$band" + id + " using 1:2:3 with filledcurves fc rgb '#d8ecd8' title " +
               gnuplot_quote("target: final mean ±" + half_text) + ", ";
    } else {
      cmd << "set autoscale y\n";
    }
    plots += "$rounds" + id + " using 1:2:3:4 with yerrorbars lc rgb '" + plot_style::colour(0) +
             "' pt 7 ps 0.7 title " +
             gnuplot_quote(format_level(level) + " interval after the round");
    if (const auto e = analytic.find(q.name); e != analytic.end())
      plots += ", " + plot_style::number(e->second) + " with lines dt 2 lw 2 lc rgb '" +
               plot_style::exact_colour() + "' title " +
               gnuplot_quote("exact " + format_number(e->second));
    cmd << "plot " << plots << "\n";
    cmd << "unset logscale x\n";
  }
  cmd << "unset multiplot\n";
  req.commands = cmd.str();
  return req;
}

}  // namespace mcpilot
