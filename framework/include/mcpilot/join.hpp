#pragma once
// Items joined by a separator, for messages and listings ("known: a, b, c"). O(total length).

#include <string>
#include <string_view>
#include <vector>

namespace mcpilot {

inline std::string join(const std::vector<std::string>& items, std::string_view sep = ", ") {
  std::string out;
  for (const auto& s : items) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

}  // namespace mcpilot
