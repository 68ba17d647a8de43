#pragma once
// Shared by the placement tests: configure placement.design from a few parameter values (the rest
// take their declared defaults, each value checked by its declaration as a config would).

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../support/configure_model.hpp"
#include "mcpilot/session.hpp"
#include "placement/placement_model.hpp"
#include "storage_support.hpp"

namespace placement_test {

using value = mcpilot::test::value;

using configured = mcpilot::test::configured<mcpilot::placement::placement_model>;

// configure_model (tests/support): defaults, then the values, each checked by its declaration.
// Throws parameter_error as configure() does.
inline std::unique_ptr<configured> make(
    std::initializer_list<std::pair<const char*, value>> values) {
  return mcpilot::test::make_configured<mcpilot::placement::placement_model>(values);
}

// The field a configuration is rejected for, or "" when it is accepted.
inline std::string rejected_field(std::initializer_list<std::pair<const char*, value>> values) {
  try {
    make(values);
  } catch (const mcpilot::parameter_error& e) {
    return e.field();
  }
  return "";
}

// A mirrored pair in the lifetime scenario (clustered, v = k = 2, one group, t = 1), the layout
// several closed forms are written for, with the parameters of the case.
inline std::unique_ptr<configured> mirror_lifetime(
    std::initializer_list<std::pair<const char*, value>> more) {
  std::vector<mcpilot::test::named_value> named;
  for (const auto& [name, v] :
       std::initializer_list<std::pair<const char*, value>>{{"design", "clustered"},
                                                            {"devices", 2},
                                                            {"group_size", 2},
                                                            {"groups", 1},
                                                            {"tolerance", 1},
                                                            {"scenario", "lifetime"}})
    named.emplace_back(name, v.v);
  for (const auto& [name, v] : more) named.emplace_back(name, v.v);
  return mcpilot::test::make_configured<mcpilot::placement::placement_model>(named);
}

// AG(2,3), t = 1, in 3 racks failing at 10^-4 per rack-hour; MTTF 1000 h, repairs 50 h, 500 h:
// placement_exact_test derives its MTTDL by hand, placement_simulation_test simulates it.
inline std::unique_ptr<configured> ag2_racks(const char* method = "naive") {
  return make({{"method", method},
               {"design", "ag2"},
               {"order", 3},
               {"tolerance", 1},
               {"scenario", "lifetime"},
               {"mission_hours", 500.0},
               {"lifetime.mean_hours", 1000.0},
               {"repair.mean_hours", 50.0},
               {"domains.count", 3},
               {"domains.failure_rate_per_hour", 1e-4}});
}

// A session at storage_support.hpp's settings (99.9% intervals by default).
inline mcpilot::session_result run(const configured& c, std::uint64_t seed, double ci_perc,
                                   unsigned threads = 2) {
  return mcpilot::run_session(c.model, c.spec, storage_test::settings(seed, ci_perc, threads));
}

inline double exact(const configured& c, const std::string& name) {
  const auto a = c.model.analytic();
  const auto it = a.find(name);
  if (it == a.end()) throw std::logic_error("no analytic value for " + name);
  return it->second;
}

}  // namespace placement_test
