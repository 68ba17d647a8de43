#include "mcpilot/io/analysis_plot.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "mcpilot/io/report.hpp"

namespace mcpilot {

namespace {

// A band over [from, to) readings, drawn from the bottom to the top of the plot.
plot_data band(std::string name, double from, double to, double low, double high) {
  return {std::move(name), {"index", "low", "high"}, {{from, low, high}, {to, low, high}}};
}

}  // namespace

plot_request analysis_plot(const analysis& a, std::span<const double> readings,
                           const std::string& source, const std::string& output,
                           plot_format format) {
  return analysis_plot(a, readings, readings_axes{"mcpilot analyze: " + source}, output, format);
}

plot_request analysis_plot(const analysis& a, std::span<const double> readings,
                           const readings_axes& axes, const std::string& output,
                           plot_format format) {
  plot_request p;
  p.output = output;
  p.format = format;
  p.height = 700;  // room for the legend below
  const std::size_t n = readings.size();
  const std::size_t stride =
      n > max_plotted_readings ? (n + max_plotted_readings - 1) / max_plotted_readings : 1;
  plot_data pts{"readings", {"index", "reading"}, {}};
  for (std::size_t i = 0; i < n; i += stride)
    pts.rows.push_back({static_cast<double>(i), readings[i]});
  p.data.push_back(pts);

  double lo = n ? *std::min_element(readings.begin(), readings.end()) : 0;
  double hi = n ? *std::max_element(readings.begin(), readings.end()) : 1;
  if (a.ci_low) lo = std::min(lo, *a.ci_low);
  if (a.ci_high) hi = std::max(hi, *a.ci_high);
  const double pad = hi > lo ? 0.05 * (hi - lo) : (std::abs(hi) > 0 ? 0.05 * std::abs(hi) : 1);
  lo -= pad;
  hi += pad;

  std::ostringstream plot;
  const auto add = [&](const std::string& spec) {
    plot << (plot.tellp() == 0 ? "plot " : ", \\\n     ") << spec;
  };
  const std::size_t begin = std::min(a.warmup.removed_begin, n);
  const std::size_t end = n - std::min(a.warmup.removed_end, n - begin);
  if (begin > 0) {
    p.data.push_back(band("warmup", -0.5, static_cast<double>(begin) - 0.5, lo, hi));
    add("$warmup using 1:2:3 with filledcurves fc rgb '#f4a261' fs transparent solid 0.3 "
        "noborder title " +
        gnuplot_quote("warm-up removed (" + std::to_string(begin) + " readings)"));
  }
  if (end < n) {
    p.data.push_back(
        band("cooldown", static_cast<double>(end) - 0.5, static_cast<double>(n) - 0.5, lo, hi));
    add("$cooldown using 1:2:3 with filledcurves fc rgb '#8ecae6' fs transparent solid 0.4 "
        "noborder title " +
        gnuplot_quote("cool-down removed (" + std::to_string(n - end) + " readings)"));
  }
  add("$readings using 1:2 with points pt 7 ps 0.4 lc rgb '#555555' title " +
      gnuplot_quote(stride == 1 ? std::string("readings")
                                : "readings (every " + std::to_string(stride) + "th of " +
                                      std::to_string(n) + ")"));
  if (!a.warmup.changepoints.empty()) {
    plot_data cps{"changepoints", {"index", "y"}, {}};
    for (std::size_t c : a.warmup.changepoints) {
      const double x = static_cast<double>(c) - 0.5;
      cps.rows.push_back({x, lo});
      cps.rows.push_back({x, hi});
      cps.rows.push_back({});  // a blank line ends the segment
    }
    p.data.push_back(cps);
    add("$changepoints using 1:2 with lines dashtype 2 lw 2 lc rgb '#d62828' title " +
        gnuplot_quote("change-points (" + std::to_string(a.warmup.changepoints.size()) + ")"));
  }
  if (a.mean && end > begin) {
    const double from = static_cast<double>(begin) - 0.5, to = static_cast<double>(end) - 0.5;
    const std::string level = format_level(a.confidence);
    const double res = a.ci_width ? *a.ci_width / 2 : 0;
    if (a.ci_low || a.ci_high) {
      // An unbounded end (a rate whose interval reaches infinity) is drawn to the plot's edge.
      p.data.push_back(band("interval", from, to, a.ci_low.value_or(lo), a.ci_high.value_or(hi)));
      add("$interval using 1:2:3 with filledcurves fc rgb '#2a9d8f' fs transparent solid 0.35 "
          "noborder title " +
          gnuplot_quote(level + " interval [" + (a.ci_low ? format_number(*a.ci_low, res) : "-") +
                        ", " + (a.ci_high ? format_number(*a.ci_high, res) : "unbounded") + "]"));
    }
    p.data.push_back({"mean", {"index", "mean"}, {{from, *a.mean}, {to, *a.mean}}});
    add("$mean using 1:2 with lines lw 3 lc rgb '#264653' title " +
        gnuplot_quote(std::string(mean_label(a)) +
                      " of the stable phase: " + format_number(*a.mean, res) + " (" +
                      std::to_string(a.n_used) + " readings used)"));
  }

  std::ostringstream os;
  os << "set title " << gnuplot_quote(axes.title + " (" + a.status + ")") << '\n';
  os << "set xlabel " << gnuplot_quote(axes.x_label) << '\n';
  os << "set ylabel " << gnuplot_quote(axes.y_label) << '\n';
  os << "set grid\nset key below horizontal maxrows 3 width 2\n";
  os << "set xrange [-0.5:" << (n ? static_cast<double>(n) - 0.5 : 1.0) << "]\n";
  os << "set yrange [" << lo << ':' << hi << "]\n";
  os << plot.str() << '\n';
  p.commands = os.str();
  return p;
}

}  // namespace mcpilot
