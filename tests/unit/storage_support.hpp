#pragma once
// Shared by the storage tests: configure storage.group from a few parameter values (the rest take
// their declared defaults, each value checked by its declaration as a config would), and run it.

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../support/configure_model.hpp"
#include "mcpilot/session.hpp"
#include "storage/storage_model.hpp"

namespace storage_test {

using value = mcpilot::test::value;

using configured = mcpilot::test::configured<mcpilot::storage::storage_model>;

// configure_model (tests/support): defaults, then the values, each checked by its declaration.
// Throws parameter_error as configure() does.
inline std::unique_ptr<configured> make(
    std::initializer_list<std::pair<const char*, value>> values) {
  return mcpilot::test::make_configured<mcpilot::storage::storage_model>(values);
}

// 4 disks tolerating 2 in two domains of 2, lambda 1, parallel rebuilds mu = 10, domain failures
// 1/2, h = 1/10, a 1-hour mission: storage_availability_test gives its exact values (sympy),
// storage_domain_importance_test estimates them by importance sampling.
inline std::unique_ptr<configured> two_domains_of_two(const char* method) {
  return make({{"disks", 4},
               {"tolerance", 2},
               {"lifetime.mean_hours", 1.0},
               {"repair.mean_hours", 0.1},
               {"repair.parallel", true},
               {"rebuild_error_probability", 0.1},
               {"domains.count", 2},
               {"domains.failure_rate_per_hour", 0.5},
               {"mission_hours", 1.0},
               {"method", method}});
}

// Intervals at 99.9% by default: a test file checks some thirty known answers, and at 95% one of
// them would miss by chance for most seeds (1 - 0.95^30 = 79%); at 99.9% a miss is a 1-in-1000
// event per check, while a bias of more than ~3.3 standard errors still fails.
inline mcpilot::session_settings settings(std::uint64_t seed, double ci_perc, unsigned threads = 2,
                                          double confidence = 0.999) {
  mcpilot::session_settings s;
  s.seed = seed;
  s.threads = threads;
  s.engine.session_precision = *mcpilot::preset("normal");
  s.engine.session_precision.ci_perc = ci_perc;
  s.engine.session_precision.confidence = confidence;
  s.max_replications = 5'000'000;
  s.max_seconds = 120;
  return s;
}

inline mcpilot::session_result run(const configured& c, std::uint64_t seed, double ci_perc,
                                   unsigned threads = 2, double confidence = 0.999) {
  return mcpilot::run_session(c.model, c.spec, settings(seed, ci_perc, threads, confidence));
}

inline const mcpilot::quantity_result& quantity(const mcpilot::session_result& r,
                                                const std::string& name) {
  for (const auto& q : r.quantities)
    if (q.name == name) return q;
  throw std::logic_error("no quantity " + name);
}

// Determinism: a session gives the same readings, to the last bit, on 1 thread and on 2.
template <class Configured>
::testing::AssertionResult same_readings_on_1_and_2_threads(const Configured& c, std::uint64_t seed,
                                                            double ci_perc) {
  const auto r1 = mcpilot::run_session(c.model, c.spec, settings(seed, ci_perc, 1));
  const auto r2 = mcpilot::run_session(c.model, c.spec, settings(seed, ci_perc, 2));
  if (r1.replications != r2.replications)
    return ::testing::AssertionFailure()
           << r1.replications << " replications on 1 thread, " << r2.replications << " on 2";
  for (std::size_t q = 0; q < r1.quantities.size(); ++q) {
    const bool same = r1.quantities[q].derived
                          ? r1.quantities[q].stats.mean == r2.quantities[q].stats.mean
                          : r1.readings->readings(q) == r2.readings->readings(q);
    if (!same)
      return ::testing::AssertionFailure() << "quantity " << r1.quantities[q].name << " differs";
  }
  return ::testing::AssertionSuccess();
}

// The interval of `name` holds `exact`.
inline ::testing::AssertionResult covers(const mcpilot::session_result& r, const std::string& name,
                                         double exact) {
  const auto& a = quantity(r, name).stats;
  if (!a.ci_low || !a.ci_high)
    return ::testing::AssertionFailure() << name << ": no interval (" << a.status << ")";
  if (*a.ci_low <= exact && exact <= *a.ci_high) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << name << ": [" << *a.ci_low << ", " << *a.ci_high << "] misses " << exact << " (mean "
         << *a.mean << ", n " << a.n << ")";
}

}  // namespace storage_test
