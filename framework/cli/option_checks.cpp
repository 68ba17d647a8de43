#include "option_checks.hpp"

#include <charconv>
#include <cmath>
#include <sstream>
#include <system_error>

namespace mcpilot::cli {

CLI::Validator unsigned_in(std::uint64_t min, std::uint64_t max, const std::string& what) {
  const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        std::uint64_t v = 0;
        const char* end = s.data() + s.size();
        const auto [p, ec] = std::from_chars(s.data(), end, v);
        const bool digits = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || ec == std::errc::invalid_argument || p != end)
          return "expects " + what + " (an integer in " + range + "), got '" + s + "'";
        if (ec == std::errc::result_out_of_range || v < min || v > max)
          return "expects " + what + " in " + range + ", got " + s;
        return {};
      },
      "UINT in " + range);
}

namespace {

// A number that std::from_chars reads to the end and `inside` accepts; `range` says which in the
// message and the help.
template <class Inside>
CLI::Validator number_check(const std::string& range, Inside inside) {
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        double v = 0;
        const char* end = s.data() + s.size();
        const auto [p, ec] = std::from_chars(s.data(), end, v);
        if (s.empty() || ec != std::errc() || p != end)
          return "expects a number " + range + ", got '" + s + "'";
        if (!inside(v)) return "expects a number " + range + ", got " + s;
        return {};
      },
      "X " + range);
}

std::string stream_text(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

}  // namespace

CLI::Validator number_between(double lo, double hi) {
  const std::string range = std::isinf(hi)
                                ? "> " + stream_text(lo)
                                : "in (" + stream_text(lo) + ", " + stream_text(hi) + ")";
  return number_check(range, [=](double v) { return v > lo && v < hi; });
}

CLI::Validator number_from(double lo, double hi) {
  return number_check("in [" + stream_text(lo) + ", " + stream_text(hi) + "]",
                      [=](double v) { return v >= lo && v <= hi; });
}

CLI::Validator non_empty_path() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        return s.empty() ? "expects a file name, got an empty string" : std::string();
      },
      "FILE");
}

}  // namespace mcpilot::cli
