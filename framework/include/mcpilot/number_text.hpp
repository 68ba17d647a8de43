#pragma once
// A double as the shortest text that reads back as the same double ("1e-09", "-0", "2.5";
// "inf", "-inf", "nan" as std::to_chars writes them). For error messages about a reading or a
// parameter, where std::to_string's six decimals showed 1e-9 as "0.000000" (an acceptable-looking
// 0 among proportions), and for files that other programs read back (plots, sweep tables).

#include <charconv>
#include <cstdio>
#include <string>

namespace mcpilot {

inline std::string number_text(double x) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

// A duration for people: "52 s", "14 min", "2.3 h" (two significant digits).
inline std::string duration_text(double seconds) {
  char buf[32];
  if (seconds < 120)
    std::snprintf(buf, sizeof buf, "%.2g s", seconds);
  else if (seconds < 7200)
    std::snprintf(buf, sizeof buf, "%.2g min", seconds / 60);
  else
    std::snprintf(buf, sizeof buf, "%.2g h", seconds / 3600);
  return buf;
}

}  // namespace mcpilot
