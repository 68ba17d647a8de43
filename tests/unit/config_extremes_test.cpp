// A property of the config loader and the models (issue 36): any numeric field set to an extreme
// (+-2^63, +-inf, nan, 0, the smallest subnormal) is refused at load with a message naming it, or
// accepted and then runs; never a signal (2^62 rows once divided by zero), never an internal error
// (an exception other than input_error, exit 1). Each accepted value runs one short session, so
// that a value which passes load but breaks a replication (mean_hours = 1.7e308 did) is caught.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mcpilot/error.hpp"
#include "mcpilot/io/config.hpp"
#include "mcpilot/registry.hpp"
#include "mcpilot/session.hpp"
#include "mojette/mojette_model.hpp"
#include "placement/placement_model.hpp"
#include "sorting/sorting_model.hpp"
#include "storage/storage_model.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;

const model_registry& all_models() {
  static const model_registry models = [] {
    model_registry m;
    m.add<storage::storage_model>("storage.group");
    m.add<mojette::mojette_model>("mojette.layout");
    m.add<sorting::sorting_model>("sorting");
    m.add<placement::placement_model>("placement.design");
    return m;
  }();
  return models;
}

// Configs that reach every model's fields: each design or scenario reads its own.
const std::vector<std::string>& bases() {
  static const std::vector<std::string> all = {
      "[model]\nname = \"storage.group\"\nmission_hours = 1000\n",
      "[model]\nname = \"storage.group\"\nmethod = \"importance\"\nmission_hours = 1000\n",
      "[model]\nname = \"storage.group\"\nlifetime = { distribution = \"weibull\", shape = 1.1, "
      "scale_hours = 1000 }\nrepair = { distribution = \"lognormal\", mean_hours = 5 }\n",
      "[model]\nname = \"mojette.layout\"\n",
      "[model]\nname = \"mojette.layout\"\nlayout = \"custom\"\nprojections = [[1, 1], [-1, 1], "
      "[1, 2]]\nrows = 2\nblock_bytes = 128\nverify = true\ntiming = false\n",
      "[model]\nname = \"mojette.layout\"\nscenario = \"lifetime\"\nmission_hours = 1000\n"
      "timing = false\n",
      "[model]\nname = \"placement.design\"\n",
      "[model]\nname = \"placement.design\"\ndesign = \"random\"\ndevices = 9\ngroup_size = 3\n"
      "scenario = \"independent\"\n",
      "[model]\nname = \"placement.design\"\ndesign = \"copyset\"\ndevices = 9\ngroup_size = 3\n"
      "scatter_width = 4\nscenario = \"lifetime\"\nmission_hours = 1000\n"
      "rebuild = { device_bytes = 1e12 }\n",
      "[model]\nname = \"placement.design\"\ndesign = \"cyclic\"\nbase_block = \"0,1,3\"\n"
      "modulus = 7\n",
      "[model]\nname = \"sorting\"\nn = 64\n",
  };
  return all;
}

// TOML spellings: 2^63 does not fit a TOML integer, so it is written as a float too.
const std::vector<std::string> extremes = {"9223372036854775807",
                                           "-9223372036854775808",
                                           "9.223372036854775808e18",
                                           "-9.223372036854775808e18",
                                           "inf",
                                           "-inf",
                                           "nan",
                                           "0",
                                           "0.0",
                                           "4.9406564584124654e-324"};

const std::vector<std::string> experiment_fields = {
    "seed",    "threads", "max_replications", "max_seconds", "streams",       "confidence", "ac",
    "ci_perc", "ci",      "min_samples",      "cpu",         "min_reading_ms"};

// Loads `base` with `set`; when it loads, runs one round (a measurement only loads: its readings
// take real time). Returns what happened, for the failure message.
std::string outcome(const std::string& base, const std::string& set) {
  config_overrides o;
  o.sets = {set};
  try {
    experiment_config cfg = parse_config(base, "extreme.toml", all_models(), o);
    if (cfg.spec.is_measurement()) return "loaded";
    session_settings s = cfg.settings;
    s.threads = 1;
    s.max_replications = 100;
    s.max_seconds = 0.2;  // a session is cut inside its replications
    const session_result r = run_session(*cfg.instance, cfg.spec, s);
    return r.error ? "a replication failed: " + *r.error : "ran";
  } catch (const input_error&) {
    return "refused";
  }
}

TEST(ConfigExtremes, EveryNumericFieldIsRefusedOrRuns) {
  // Once skipped: the study did not finish in 400 s. Not a hang but one base's replications (the
  // copyset lifetime, a million-hour MTTF) each simulating about 9 s to their loss, which
  // max_seconds could not cut; a limit now ends a replication at its next random draw. It then
  // found a subnormal rebuild.bandwidth_bytes_per_hour (rebuild_hours = inf), refused at load now.
  std::size_t refused = 0, accepted = 0;
  for (const std::string& base : bases()) {
    SCOPED_TRACE(base);
    experiment_config plain = parse_config(base, "base.toml", all_models(), {});
    std::vector<std::string> keys;
    for (const auto& p : plain.spec.parameter_specs())
      if (p.type == param_type::number || p.type == param_type::integer)
        keys.push_back("model." + p.name);
    if (base.find("storage.group\"\nmission") != std::string::npos)
      for (const auto& f : experiment_fields) keys.push_back("experiment." + f);
    for (const std::string& key : keys)
      for (const std::string& v : extremes) {
        const std::string set = key + "=" + v;
        std::string what;
        ASSERT_NO_THROW(what = outcome(base, set)) << set;
        // A value that loads must not break a replication: that belongs at load.
        EXPECT_EQ(what.find("a replication failed"), std::string::npos) << set << ": " << what;
        (what == "refused" ? refused : accepted) += 1;
      }
  }
  // Most extremes are refused; some (0 for an optional count, 2^63-1 as a seed) are valid.
  EXPECT_GT(refused, 0u);
  EXPECT_GT(accepted, 0u);
}

}  // namespace MCPILOT_TEST_FILE
