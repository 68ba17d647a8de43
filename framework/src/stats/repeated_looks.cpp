#include "mcpilot/stats/repeated_looks.hpp"

#include <numbers>
#include <stdexcept>

namespace mcpilot {

double look_level(double alpha, std::uint64_t look) {
  if (look == 0) throw std::invalid_argument("look_level: looks are counted from 1");
  if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("look_level: alpha must be in (0, 1)");
  const double k = static_cast<double>(look);
  return 6 * alpha / (std::numbers::pi * std::numbers::pi * k * k);
}

double look_schedule::take(std::uint64_t n, double alpha) {
  ++looks_;
  last_n_ = n;
  return look_level(alpha, looks_);
}

}  // namespace mcpilot
