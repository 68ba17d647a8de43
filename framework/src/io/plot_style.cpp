#include "plot_style.hpp"

#include <cmath>

#include "mcpilot/number_text.hpp"

namespace mcpilot::plot_style {

std::string preamble() {
  return "set grid lc rgb '#dddddd'\n"
         "set key inside box opaque\n"

         "set bars small\n"
         "set format y '%g'\n";
}

std::string colour(std::size_t k) {
  // Okabe and Ito's palette, without its yellow (too pale on white) and black (the exact values).
  static const char* const cycle[] = {"#0072B2", "#D55E00", "#009E73",
                                      "#CC79A7", "#56B4E9", "#E69F00"};
  return cycle[k % (sizeof cycle / sizeof cycle[0])];
}

std::string exact_colour() {
  return "#000000";
}

std::string number(double v) {
  return std::isfinite(v) ? number_text(v) : "NaN";
}

std::string axis_label(const std::string& name, const std::string& unit, quantity_kind kind) {
  if (!unit.empty()) return name + " (" + unit + ")";
  if (kind == quantity_kind::proportion) return name + " (probability)";
  return name;  // a count, a ratio: the name says what it is
}

}  // namespace mcpilot::plot_style
