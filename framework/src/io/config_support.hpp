#pragma once
// Private to the config reader (config*.cpp, ../sweep/reader.cpp): naming
// TOML types, dotted keys, and where each value came from, so every message starts with its place.

#include <toml++/toml.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "mcpilot/io/config.hpp"
#include "mcpilot/join.hpp"  // join, used with the helpers below

namespace mcpilot::config_detail {

// "an integer", "a table", ... for messages.
const char* describe_type(const toml::node& n);

std::string trim(std::string_view s);
// "model.lifetime.shape" -> {"model", "lifetime", "shape"}; empty components are kept.
std::vector<std::string> split_dots(std::string_view key);

// "FILE:LINE:COLUMN" of a source region, or FILE alone when the region is unknown.
std::string position(const std::string& source, const toml::source_region& r);

// Knows where every value came from: the file's line and column, or the --set (or sweep point)
// that put it there.
class locator {
 public:
  explicit locator(std::string source) : source_(std::move(source)) {}

  void set_origin(std::string dotted, std::string origin) {
    origins_[std::move(dotted)] = std::move(origin);
  }

  // The location of a value (or key) at `dotted` whose source region is `r`. A --set value wins,
  // and so does any --set of a table above it (an inline table value).
  std::string where(const toml::source_region& r, std::string_view dotted) const;

  const std::string& source() const { return source_; }

 private:
  std::string source_;
  std::map<std::string, std::string> origins_;
};

// Throws input_error "WHERE: SECTION FIELD: MESSAGE".
[[noreturn]] void fail(const std::string& where, std::string_view section, std::string_view field,
                       const std::string& message);

// Applies one "key=value" override to the parsed file; `origin` names it in messages
// ("--set model.disks", or a sweep point's place). Throws input_error.
void apply_set(toml::table& root, const std::string& assignment, const std::string& origin,
               locator& loc);

// --- typed fields (config_fields.cpp) ---------------------------------------------------------

// A parameter_error's message may or may not start with the field's name; say it once.
std::string with_field(const std::string& field, const std::string& message);

struct field_context {
  const locator& loc;
  std::string section;  // "[experiment]", "[model]", "[[quantity]] mttdl"
  std::string prefix;   // dotted path of the table, for --set origins: "experiment"
};

std::string where_of(const field_context& c, const toml::node& n, std::string_view field);
double get_number(const field_context& c, const toml::node& n, std::string_view field);
std::int64_t get_integer(const field_context& c, const toml::node& n, std::string_view field);
bool get_bool(const field_context& c, const toml::node& n, std::string_view field);
std::string get_string(const field_context& c, const toml::node& n, std::string_view field);
// 17 significant digits, for messages quoting a number.
std::string fmt(double v);
// The precision fields shared by [experiment] and [[quantity]] (confidence, ac, ci_perc, ci,
// min_samples): reads `key` into `out` and returns true, or returns false for another key.
bool read_precision_field(const field_context& c, std::string_view key, const toml::node& n,
                          precision_override& out);

// --- the sections -----------------------------------------------------------------------------

void read_experiment(const toml::table* table, const locator& loc, experiment_config& cfg);
void read_model(const toml::node* node, const locator& loc, const model_registry& models,
                experiment_config& cfg);
void read_quantities(const toml::node* node, const locator& loc, experiment_config& cfg);

// The resolved config as JSON (config_resolved.cpp): experiment_config::resolved.
nlohmann::ordered_json resolve(const experiment_config& cfg, const config_overrides& overrides);

}  // namespace mcpilot::config_detail
