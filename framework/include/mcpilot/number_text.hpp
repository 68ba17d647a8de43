#pragma once
// A double as the shortest text that reads back as the same double ("1e-09", "-0", "2.5";
// "inf", "-inf", "nan" as std::to_chars writes them). For error messages about a reading or a
// parameter, where std::to_string's six decimals showed 1e-9 as "0.000000" (an acceptable-looking
// 0 among proportions), and for files that other programs read back (plots, sweep tables).

#include <array>
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>

namespace mcpilot {

// Into a caller's buffer, for the files that write every reading (no allocation per number);
// the view lives as long as `buf` is not written again.
inline std::string_view number_text(double x, std::array<char, 32>& buf) {
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), x);
  return {buf.data(), static_cast<std::size_t>(r.ptr - buf.data())};
}

inline std::string number_text(double x) {
  std::array<char, 32> buf;
  return std::string(number_text(x, buf));
}

// A duration for people: "52 s", "14 min", "2.3 h". Each unit holds values below 60 of it, so two
// significant digits never become an exponent ("1.2e+02 s" for 119 s, as an earlier threshold of
// 120 s wrote); %g, never %f, so that an estimate near DBL_MAX seconds is not 305 digits of hours.
inline std::string duration_text(double seconds) {
  char buf[32];
  if (seconds < 60)
    std::snprintf(buf, sizeof buf, "%.2g s", seconds);
  else if (seconds < 3600)
    std::snprintf(buf, sizeof buf, "%.2g min", seconds / 60);
  else
    std::snprintf(buf, sizeof buf, "%.3g h", seconds / 3600);
  return buf;
}

// "[low, high]", each end written by `text`. Built by appending: the same text through operator+
// on temporaries drew GCC 12's false -Wrestrict warning about std::string's memcpy.
template <class Text>
std::string bracket_text(double low, double high, Text&& text) {
  std::string s = "[";
  s += text(low);
  s += ", ";
  s += text(high);
  s += ']';
  return s;
}

}  // namespace mcpilot
