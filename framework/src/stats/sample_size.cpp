#include "mcpilot/stats/sample_size.hpp"

#include <cmath>

#include "mcpilot/stats/distributions.hpp"

namespace mcpilot {

std::optional<std::size_t> required_batches(double sd, double width, double confidence) {
  if (!(width > 0) || !(sd >= 0)) return std::nullopt;
  const double k = sd / width;
  if (!std::isfinite(k)) return std::nullopt;
  // (2 z k)^2 <= (2 t_{h-1} k)^2 for every h, so the normal bound is a safe place to start.
  const double z_bound = std::ceil(std::pow(2 * normal_critical(confidence) * k, 2));
  if (!(z_bound < 1e15)) return std::nullopt;  // beyond any run anyone can make
  std::size_t h = std::max<std::size_t>(2, static_cast<std::size_t>(z_bound));
  while (static_cast<double>(h) <
         std::pow(2 * t_critical(static_cast<double>(h - 1), confidence) * k, 2))
    ++h;
  return h;
}

}  // namespace mcpilot
