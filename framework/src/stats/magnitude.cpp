#include "mcpilot/stats/magnitude.hpp"

#include <cmath>
#include <sstream>

namespace mcpilot {

std::optional<std::size_t> first_unanalysable(std::span<const double> y) {
  for (std::size_t i = 0; i < y.size(); ++i) {
    // Written so that NaN fails too.
    if (!(std::abs(y[i]) <= largest_analysable)) return i;
  }
  return std::nullopt;
}

std::string unanalysable_message(double reading, bool reciprocal) {
  std::ostringstream s;
  s.precision(17);
  s << "the reading " << reading << (reciprocal ? " (a rate, analysed as its reciprocal)" : "")
    << " is beyond what double arithmetic can analyse: squared deviations would overflow; "
       "readings must lie within +-1e100"
    << (reciprocal ? " (and so must their reciprocals)" : "")
    << ", so rescale them (e.g. to another unit)";
  return s.str();
}

}  // namespace mcpilot
