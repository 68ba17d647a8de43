#include "mcpilot/sweep/plan.hpp"

#include <cmath>
#include <type_traits>
#include <variant>

#include "mcpilot/number_text.hpp"
#include "mcpilot/rng.hpp"

namespace mcpilot {

std::size_t sweep_plan::size() const {
  if (axes.empty()) return 0;
  if (mode == sweep_mode::zip) return axes.front().values.size();
  std::size_t n = 1;
  for (const auto& a : axes) n *= a.values.size();
  return n;
}

std::vector<std::size_t> sweep_plan::coordinates(std::size_t k) const {
  std::vector<std::size_t> at(axes.size(), k);
  if (mode == sweep_mode::zip) return at;
  // The last key changes fastest, as nested loops written in the same order would.
  for (std::size_t i = axes.size(); i-- > 0;) {
    const std::size_t n = axes[i].values.size();
    at[i] = k % n;
    k /= n;
  }
  return at;
}

std::vector<param_value> sweep_plan::point(std::size_t k) const {
  const auto at = coordinates(k);
  std::vector<param_value> values;
  values.reserve(axes.size());
  for (std::size_t i = 0; i < axes.size(); ++i) values.push_back(axes[i].values[at[i]]);
  return values;
}

std::vector<param_value> geometric_values(double lo, double hi, double factor, bool lo_integer,
                                          bool factor_integer, bool round_integer) {
  std::vector<param_value> out;
  // lo * factor^j from pow rather than repeated products, so the error does not accumulate; the
  // tolerance keeps hi when lo * factor^j lands on it up to rounding (2 * sqrt(2)^38 = 2^20).
  const double limit = hi * (1 + 1e-9);
  for (int j = 0;; ++j) {
    const double v = lo * std::pow(factor, j);
    if (!(v <= limit) || !std::isfinite(v)) break;
    if (round_integer || (lo_integer && factor_integer)) {
      const auto r = static_cast<std::int64_t>(std::llround(v));
      if (!out.empty() && std::get<std::int64_t>(out.back()) == r) continue;
      out.emplace_back(r);
    } else {
      out.emplace_back(v);
    }
    if (j > 100000) break;  // a factor barely above 1: the caller caps the points anyway
  }
  return out;
}

std::uint64_t point_seed(std::uint64_t seed, std::uint64_t k) {
  philox_stream s(seed, sweep_point_key(k));
  return s();
}

std::string toml_text(const param_value& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return std::to_string(x);
        } else if constexpr (std::is_same_v<T, double>) {
          if (std::isnan(x)) return "nan";
          if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
          std::string s = number_text(x);
          // TOML reads "24" as an integer: keep a float a float.
          if (s.find_first_of(".eE") == std::string::npos) s += ".0";
          return s;
        } else {
          std::string s = "\"";
          for (char c : x) {
            if (c == '"' || c == '\\') {
              s += '\\';
              s += c;
            } else if (static_cast<unsigned char>(c) < 0x20) {
              static const char hex[] = "0123456789abcdef";
              s += "\\u00";
              s += hex[(c >> 4) & 0xf];
              s += hex[c & 0xf];
            } else {
              s += c;
            }
          }
          return s + '"';
        }
      },
      v);
}

}  // namespace mcpilot
