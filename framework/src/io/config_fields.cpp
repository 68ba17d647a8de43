// Typed reading of config fields, each failure naming its place: shared by the section readers.
#include <cmath>
#include <sstream>

#include "config_support.hpp"

namespace mcpilot::config_detail {

// A parameter_error's message may or may not start with the field's name; say it once.
std::string with_field(const std::string& field, const std::string& message) {
  if (field.empty() || message.rfind(field, 0) == 0) return message;
  return field + ": " + message;
}

std::string where_of(const field_context& c, const toml::node& n, std::string_view field) {
  return c.loc.where(n.source(), c.prefix + "." + std::string(field));
}

double get_number(const field_context& c, const toml::node& n, std::string_view field) {
  if (n.is_integer()) return static_cast<double>(n.as_integer()->get());
  if (n.is_floating_point()) return n.as_floating_point()->get();
  fail(where_of(c, n, field), c.section, field,
       std::string("expected a number, got ") + describe_type(n));
}

std::int64_t get_integer(const field_context& c, const toml::node& n, std::string_view field) {
  if (n.is_integer()) return n.as_integer()->get();
  fail(where_of(c, n, field), c.section, field,
       std::string("expected an integer, got ") + describe_type(n));
}

bool get_bool(const field_context& c, const toml::node& n, std::string_view field) {
  if (n.is_boolean()) return n.as_boolean()->get();
  fail(where_of(c, n, field), c.section, field,
       std::string("expected true or false, got ") + describe_type(n));
}

std::string get_string(const field_context& c, const toml::node& n, std::string_view field) {
  if (n.is_string()) return n.as_string()->get();
  fail(where_of(c, n, field), c.section, field,
       std::string("expected a string, got ") + describe_type(n));
}

std::string fmt(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

// The precision fields shared by [experiment] and [[quantity]], each checked where it stands so
// that the message can name the line.
bool read_precision_field(const field_context& c, std::string_view key, const toml::node& n,
                          precision_override& out) {
  auto bad = [&](const std::string& msg) { fail(where_of(c, n, key), c.section, key, msg); };
  if (key == "confidence") {
    const double v = get_number(c, n, key);
    if (!(v > 0 && v < 1)) bad("must lie in (0, 1), got " + fmt(v));
    out.confidence = v;
  } else if (key == "ac") {
    const double v = get_number(c, n, key);
    if (!(v > 0 && v < 1)) bad("autocorrelation limit must lie in (0, 1), got " + fmt(v));
    out.autocorrelation_limit = v;
  } else if (key == "ci_perc") {
    const double v = get_number(c, n, key);
    if (!(v > 0) || !std::isfinite(v))
      bad("whole interval width as a fraction of the mean must be > 0, got " + fmt(v));
    out.ci_perc = v;
  } else if (key == "ci") {
    const double v = get_number(c, n, key);
    if (!(v > 0) || !std::isfinite(v))
      bad("whole interval width in the quantity's unit must be > 0, got " + fmt(v));
    out.ci_abs = v;
  } else if (key == "interval") {
    const std::string v = get_string(c, n, key);
    const auto m = parse_interval_method(v);
    if (!m) bad("unknown interval \"" + v + "\" (known: adjusted, pilot)");
    out.interval = m;
  } else if (key == "min_samples") {
    const std::int64_t v = get_integer(c, n, key);
    if (v < 2 || static_cast<std::uint64_t>(v) > max_min_samples)
      bad("must lie in [2, 10^15], got " + std::to_string(v));
    out.min_samples = static_cast<std::size_t>(v);
  } else if (key == "max_side_ratio") {
    const double v = get_number(c, n, key);
    if (!(v > 1))
      bad("the longest the skewness-adjusted interval's longer side may be against its shorter "
          "must be > 1 (inf: no limit), got " +
          fmt(v));
    out.max_side_ratio = v;
  } else {
    return false;
  }
  return true;
}

}  // namespace mcpilot::config_detail
