// The picture of a sweep: each shown quantity against the first numeric swept key, with interval
// bars, one series per combination of the other keys' values (zip mode: one series). Points that
// did not run are gaps. Log axes where the swept values came from a geometric range, or where
// positive values span two decades or more.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <variant>

#include "mcpilot/io/report.hpp"
#include "mcpilot/io/run_plot.hpp"
#include "mcpilot/io/sweep_output.hpp"
#include "plot_style.hpp"

namespace mcpilot {

namespace {

constexpr double no_value = std::numeric_limits<double>::quiet_NaN();

bool numeric(const param_value& v) {
  return std::holds_alternative<std::int64_t>(v) || std::holds_alternative<double>(v);
}

double as_double(const param_value& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  return std::get<double>(v);
}

// Positive values spanning at least two decades read better on a log scale.
bool wide_positive(const std::vector<double>& v) {
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (double x : v) {
    if (std::isnan(x)) continue;
    if (!(x > 0)) return false;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  return hi > 0 && hi / lo >= 100;
}

}  // namespace

plot_request sweep_plot(const sweep_result& r, const experiment_config& base,
                        const std::string& output, plot_format format) {
  const sweep_plan& plan = *base.sweep;
  // The x axis: the first numeric key; without one, the point index labelled with the values.
  std::size_t x_axis = plan.axes.size();
  for (std::size_t i = 0; i < plan.axes.size() && x_axis == plan.axes.size(); ++i)
    if (std::all_of(plan.axes[i].values.begin(), plan.axes[i].values.end(), numeric)) x_axis = i;
  const bool by_index = x_axis == plan.axes.size();
  const std::string x_key = by_index ? "point" : plan.axes[x_axis].key;

  // Series: the other keys' values (product mode); one series in zip mode.
  auto series_of = [&](const sweep_point& p) {
    if (plan.mode == sweep_mode::zip || by_index) return std::string();
    std::string label;
    for (std::size_t i = 0; i < p.keys.size(); ++i) {
      if (i == x_axis) continue;
      if (!label.empty()) label += ", ";
      label += p.keys[i] + " = " + to_string(p.values[i]);
    }
    return label;
  };
  std::vector<std::string> series;
  for (const auto& p : r.points)
    if (std::find(series.begin(), series.end(), series_of(p)) == series.end())
      series.push_back(series_of(p));

  std::vector<const quantity_spec*> shown;
  for (const auto& q : base.spec.quantities())
    if (q.required) shown.push_back(&q);
  if (shown.empty())
    for (const auto& q : base.spec.quantities()) shown.push_back(&q);

  plot_request req;
  req.output = output;
  req.format = format;
  req.height = std::max<int>(360, 320 * static_cast<int>(std::max<std::size_t>(shown.size(), 1)));
  std::ostringstream cmd;
  cmd << plot_style::preamble();
  double level = 0.95;
  if (!base.spec.quantities().empty())
    level = base.spec.quantities()
                .front()
                .precision.apply(base.settings.engine.session_precision)
                .confidence;
  cmd << "set multiplot layout " << std::max<std::size_t>(shown.size(), 1) << ",1 title "
      << gnuplot_quote(base.name + " (" + base.path + "): " + std::to_string(plan.size()) +
                       "-point sweep, " + format_level(level) + " intervals")
      << "\n";
  std::vector<double> xs;
  for (const auto& p : r.points)
    xs.push_back(by_index ? static_cast<double>(p.index) : as_double(p.values[x_axis]));
  const bool log_x = !by_index && (plan.axes[x_axis].geometric || wide_positive(xs));
  if (log_x) {
    // gnuplot widens a log axis to whole decades; a fifth of a step of margin reads better.
    const auto [lo, hi] = std::minmax_element(xs.begin(), xs.end());
    const double margin = xs.size() > 1 ? std::pow(*hi / *lo, 0.2 / double(xs.size() - 1)) : 1.5;
    cmd << "set xrange [" << plot_style::number(*lo / margin) << ":"
        << plot_style::number(*hi * margin) << "]\n";
  }
  // A few swept values: a tic at each, labelled with the value as written.
  if (!by_index && plan.axes[x_axis].values.size() <= 12) {
    cmd << "set xtics (";
    for (std::size_t k = 0; k < plan.axes[x_axis].values.size(); ++k) {
      const param_value& v = plan.axes[x_axis].values[k];
      cmd << (k ? ", " : "") << gnuplot_quote(to_string(v)) << " "
          << plot_style::number(as_double(v));
    }
    cmd << ")\n";
  }
  if (by_index) {
    cmd << "set xtics (";
    for (std::size_t k = 0; k < r.points.size(); ++k)
      cmd << (k ? ", " : "") << gnuplot_quote(point_label(r.points[k])) << " " << r.points[k].index;
    cmd << ") rotate by -20\n";
  }
  for (std::size_t c = 0; c < shown.size(); ++c) {
    const quantity_spec& q = *shown[c];
    std::vector<double> ys;
    std::string plots;
    bool exact_titled = false;
    for (std::size_t s = 0; s < series.size(); ++s) {
      const std::string id = std::to_string(c) + "_" + std::to_string(s);
      plot_data d{"q" + id, {x_key, "mean", "ci_low", "ci_high"}, {}};
      plot_data e{"exact" + id, {x_key, "exact"}, {}};
      for (std::size_t k = 0; k < r.points.size(); ++k) {
        const sweep_point& p = r.points[k];
        if (series_of(p) != series[s]) continue;
        const quantity_result* res = p.quantity(q.name);
        const analysis* a = res ? &res->stats : nullptr;
        const double mean = a && a->mean ? *a->mean : no_value;
        d.rows.push_back({xs[k], mean, a && a->ci_low ? *a->ci_low : no_value,
                          a && a->ci_high ? *a->ci_high : no_value});
        ys.push_back(mean);
        if (const auto it = p.analytic.find(q.name); it != p.analytic.end())
          e.rows.push_back({xs[k], it->second});
      }
      const std::string label = series[s].empty() ? q.name : series[s];
      if (!plots.empty()) plots += ", ";
      const std::string colour = " lc rgb '" + plot_style::colour(s) + "'";
      plots += "$q" + id + " using 1:2:3:4 with yerrorlines lw 1.5 pt 7 ps 0.8" + colour +
               " title " + gnuplot_quote(label + (series.size() > 1 ? "" : ": mean and interval"));
      if (!e.rows.empty()) {
        // One series: the exact values in a colour of their own; several: each in its series'.
        const std::string exact_colour =
            series.size() == 1 ? " lc rgb '" + plot_style::exact_colour() + "'" : colour;
        // Several series: one legend entry says what the dashed lines are.
        const bool titled = !exact_titled;
        exact_titled = true;
        plots +=
            ", $exact" + id + " using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 1.2" + exact_colour +
            (titled
                 ? " title " + gnuplot_quote(series.size() == 1 ? std::string("exact")
                                                                : std::string("exact (dashed, each "
                                                                              "series' colour)"))
                 : std::string(" notitle"));
        req.data.push_back(std::move(e));
      }
      req.data.push_back(std::move(d));
    }
    // The key in the upper corner the curve leaves empty: left when it rises, right when it falls.
    const auto first = std::find_if(ys.begin(), ys.end(), [](double y) { return !std::isnan(y); });
    const auto last = std::find_if(ys.rbegin(), ys.rend(), [](double y) { return !std::isnan(y); });
    const bool rising = first != ys.end() && *last > *first;
    if (series.size() > 1)
      cmd << "set key outside right top\n";
    else
      cmd << (rising ? "set key inside top left\n" : "set key inside top right\n");
    cmd << "set title " << gnuplot_quote(q.name + " against " + x_key) << "\n";
    cmd << "set xlabel " << gnuplot_quote(x_key + (log_x ? " (log scale)" : "")) << "\n";
    cmd << (log_x ? "set logscale x\n" : "unset logscale x\n");
    const bool log_y = wide_positive(ys);
    cmd << (log_y ? "set logscale y\n" : "unset logscale y\n");
    cmd << "set ylabel "
        << gnuplot_quote(plot_style::axis_label(q.name, q.unit, q.kind) +
                         (log_y ? ", log scale" : ""))
        << "\n";
    cmd << (log_x ? "set offsets 0, 0, graph 0.05, graph 0.05\n"
                  : "set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n");
    cmd << "plot " << plots << "\n";
  }
  if (shown.empty()) cmd << "plot NaN notitle\n";
  cmd << "unset multiplot\n";
  req.commands = cmd.str();
  return req;
}

}  // namespace mcpilot
