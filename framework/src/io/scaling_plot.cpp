#include "mcpilot/io/scaling_plot.hpp"

#include <cmath>
#include <sstream>

namespace mcpilot {

plot_request scaling_plot(const scaling_result& r, const scaling_source& s,
                          const std::string& output, plot_format format) {
  plot_request p;
  p.output = output;
  p.format = format;
  p.height = 900;

  plot_data sizes{"sizes", {"n", "median", "min", "max"}, {}};
  for (const auto& z : r.sizes) sizes.rows.push_back({z.n, z.median, z.min, z.max});
  p.data.push_back(sizes);

  const double lo = r.sizes.empty() ? 1 : r.sizes.front().n;
  const double hi = r.sizes.empty() ? 1 : r.sizes.back().n;
  std::ostringstream curves;
  for (const auto& c : r.candidates) {
    if (c.shape == scaling_shape::power_law && !c.exponent) continue;
    shape_fit f;  // the fit the table reports
    f.c = c.c;
    f.d = c.d;
    f.exponent = c.exponent;
    plot_data d{"fit_" + std::string(to_string(c.shape)), {"n", "predicted"}, {}};
    constexpr int points = 64;
    for (int i = 0; i < points; ++i) {
      const double n = lo * std::pow(hi / lo, static_cast<double>(i) / (points - 1));
      const double y = f.predict(c.shape, n);
      d.rows.push_back({n, y > 0 ? y : NAN});
    }
    p.data.push_back(d);
    std::string title =
        std::string(display_name(c.shape)) + " fit (" + (c.passes ? "passes" : "fails") + ")";
    if (r.best && *r.best == c.shape) title += ", best";
    curves << ", \\\n     $" << d.name << " using 1:2 with lines lw "
           << (r.best && *r.best == c.shape ? 3 : 1.5) << (c.passes ? "" : " dashtype 2")
           << " title " << gnuplot_quote(title);
  }

  plot_data steps{"steps", {"n_middle", "local_exponent"}, {}};
  for (const auto& st : r.steps)
    steps.rows.push_back({std::sqrt(st.n_from * st.n_to), st.exponent});
  p.data.push_back(steps);

  const std::string what = s.quantity.empty() ? s.value_column : s.quantity;
  const std::string unit = s.unit.empty() ? "unit as recorded" : s.unit;
  std::ostringstream os;
  os << "set multiplot layout 2,1 title "
     << gnuplot_quote("mcpilot scaling: " + s.file + " (" + what + " against " + s.n_column + ")")
     << '\n';
  os << "set grid\nset key top left box opaque\nset logscale xy\nset format x '%g'\nset format y "
        "'%g'\n";
  os << "set title " << gnuplot_quote(std::string(to_string(r.label)) + ": " + r.statement)
     << " font ',9'\n";
  os << "set xlabel "
     << gnuplot_quote(s.n_column == "n" || s.n_column == "0" ? std::string("n (input size)")
                                                             : "n (input size, " + s.n_column + ")")
     << '\n';
  os << "set ylabel " << gnuplot_quote("median " + what + " (" + unit + ")") << '\n';
  os << "plot $sizes using 1:2:3:4 with yerrorbars pt 7 ps 1 lc rgb 'black' title "
     << gnuplot_quote("median (bars: min to max)") << curves.str() << '\n';
  // A flat exponent must not look like a jagged one: keep at least +-0.25 around the points.
  os << "unset logscale y\nset offsets 0, 0, 0.25, 0.25\n";
  os << "set title " << gnuplot_quote("local exponents p = log(T_i/T_i-1) / log(n_i/n_i-1)")
     << '\n';
  os << "set xlabel " << gnuplot_quote("n (geometric middle of adjacent sizes)") << '\n';
  os << "set ylabel " << gnuplot_quote("local exponent (dimensionless)") << '\n';
  os << "plot $steps using 1:2 with linespoints pt 7 lw 2 title " << gnuplot_quote("local exponent")
     << '\n';
  os << "unset multiplot\n";
  p.commands = os.str();
  return p;
}

}  // namespace mcpilot
