// The shipped storage configs load, and the quickstart runs end to end through `mcpilot run`
// with its exact values in the JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "cli_test_support.hpp"
#include "mcpilot/io/config.hpp"
#include "mcpilot/registry.hpp"
#include "storage/storage_model.hpp"

namespace MCPILOT_TEST_FILE {

using mcpilot::test::run_mcpilot;
using mcpilot::test::slurp;
using mcpilot::test::temp_file;

std::string config_path(const std::string& name) {
  return std::string(MCPILOT_SOURCE_DIR) + "/configs/storage/" + name + ".toml";
}

mcpilot::model_registry registry() {
  mcpilot::model_registry r;
  r.add<mcpilot::storage::storage_model>("storage.group");
  return r;
}

TEST(StorageConfigs, AllLoadWithTheirMethodsQuantities) {
  const auto models = registry();
  for (const char* name : {"raid6-exponential", "replication3", "ec-10-4"}) {
    const auto cfg = mcpilot::load_config(config_path(name), models);
    EXPECT_EQ(cfg.model_name, "storage.group");
    const int mttdl = cfg.spec.quantity_index("mttdl_hours");
    ASSERT_GE(mttdl, 0) << name;
    EXPECT_TRUE(cfg.spec.quantities()[static_cast<std::size_t>(mttdl)].derived()) << name;
    EXPECT_GE(cfg.spec.quantity_index("loss_in_mission"), 0) << name;
    // mttdl_hours, loss_in_mission and durability_nines (its transform).
    EXPECT_EQ(cfg.instance->analytic().size(), 3u) << name;
  }
  for (const char* name : {"raid5-weibull-elerath", "raid5-latent-scrub"}) {
    const auto cfg = mcpilot::load_config(config_path(name), models);
    // mttdl_hours, loss_in_mission, and the optional durability_nines, fraction_lost,
    // unavailability and unavailable_events_per_year.
    ASSERT_EQ(cfg.spec.quantities().size(), 6u) << name;
    EXPECT_EQ(cfg.spec.quantities()[1].kind, mcpilot::quantity_kind::proportion) << name;
    for (std::size_t q = 2; q < 6; ++q) EXPECT_FALSE(cfg.spec.quantities()[q].required) << name;
    EXPECT_TRUE(cfg.instance->analytic().empty()) << name;
  }
  // The configs of issue 38 load, each with the quantity it asks for required.
  for (const auto& [name, asked] : {std::pair{"raid6-outages", "durability_nines"},
                                    {"vault-17-3", "durability_nines"},
                                    {"lrc-12-2-2", "durability_nines"},
                                    {"replication3-domains", "unavailability"}}) {
    const auto cfg = mcpilot::load_config(config_path(name), models);
    const int q = cfg.spec.quantity_index(asked);
    ASSERT_GE(q, 0) << name;
    EXPECT_TRUE(cfg.spec.quantities()[static_cast<std::size_t>(q)].required) << name;
    EXPECT_EQ(cfg.instance->analytic().count(asked), 1u) << name;
  }
}

// The general rare-event target: method = auto takes failure biasing and says why.
TEST(StorageConfigs, GeneralTargetChoosesImportance) {
  const auto cfg = mcpilot::load_config(config_path("raid6-weibull-latent"), registry());
  ASSERT_EQ(cfg.spec.quantities().size(), 2u);
  EXPECT_EQ(cfg.spec.quantities()[0].name, "loss_in_mission");
  EXPECT_EQ(cfg.spec.quantities()[1].name, "durability_nines");
  const auto facts = cfg.instance->model_facts();
  ASSERT_GE(facts.size(), 2u);
  EXPECT_EQ(std::get<std::string>(facts[0].value), "importance (failure biasing)");
  EXPECT_NE(std::get<std::string>(facts[1].value).find("auto chose importance"), std::string::npos);
}

TEST(StorageConfigs, ModelErrorsNameTheField) {
  const auto models = registry();
  // A Weibull shape whose Gamma(1 + 1/shape) overflows is refused at load, naming the field.
  try {
    mcpilot::config_overrides set;
    set.sets.push_back("model.lifetime.shape=1e-300");
    mcpilot::load_config(config_path("raid5-weibull-elerath"), models, set);
    FAIL() << "lifetime.shape = 1e-300 was accepted";
  } catch (const mcpilot::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("lifetime.shape"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("overflows"), std::string::npos) << e.what();
  }
  // Importance sampling with Weibull lifetimes is failure biasing: loss_in_mission only.
  mcpilot::config_overrides set;
  set.sets.push_back("model.method=importance");
  const auto cfg = mcpilot::load_config(config_path("raid5-weibull-elerath"), models, set);
  ASSERT_EQ(cfg.spec.quantities().size(), 2u);  // and durability_nines
  EXPECT_EQ(cfg.spec.quantities()[0].name, "loss_in_mission");
}

// Overflowing laws give exit 2 from `mcpilot run`, before any replication, naming the field.
TEST(StorageConfigs, OverflowingLawsExitTwo) {
  for (const char* set : {"model.lifetime.shape=1e-300", "model.lifetime.scale_hours=1e-300",
                          "model.repair.scale_hours=1e-300"}) {
    const auto r = run_mcpilot(
        {"run", config_path("raid5-weibull-elerath"), "--quiet", "--set", set, "--threads", "1"});
    EXPECT_EQ(r.exit_code, 2) << set << ": " << r.err;
    const std::string field = std::string(set).substr(6, std::string(set).find('=') - 6);
    EXPECT_NE(r.err.find(field), std::string::npos) << r.err;
  }
}

// The quickstart through the executable: exit 0, both exact values in the JSON and covered.
TEST(StorageConfigs, QuickstartRunsWithExactValues) {
  const temp_file json("", ".json");
  const auto r = run_mcpilot({"run", config_path("raid6-exponential"), "--quiet", "--threads", "2",
                              "--json", json.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(json.path()));
  int checked = 0;
  for (const auto& q : j["quantities"]) {
    if (q["analytic"].is_null()) continue;
    const double exact = q["analytic"].get<double>();
    EXPECT_LE(q["ci_low"].get<double>(), exact) << q["name"];
    EXPECT_GE(q["ci_high"].get<double>(), exact) << q["name"];
    ++checked;
  }
  EXPECT_EQ(checked, 3);  // mttdl_hours, loss_in_mission, durability_nines
  EXPECT_NE(r.out.find("covered"), std::string::npos) << r.out;
}

// Asking for a quantity the configuration cannot define is exit 2, naming it and why:
// unavailability under importance sampling without outages, durability_nines of
// placement.design. Bad domain
// and outage parameters from a config are exit 2 naming the field.
TEST(StorageConfigs, UndefinedQuantitiesAndBadDomainsExitTwo) {
  const std::string body =
      "[experiment]\nname = \"x\"\nseed = 1\nmax_seconds = 5\n[model]\nname = \"storage.group\"\n"
      "disks = 10\ntolerance = 2\nmission_hours = 8766\nmethod = \"importance\"\n";
  {
    const temp_file cfg(body + "[[quantity]]\nname = \"unavailability\"\nrequired = true\n",
                        ".toml");
    const auto r = run_mcpilot({"run", cfg.path(), "--quiet"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("\"unavailability\" is not estimated by storage.group with these "
                         "settings: no outages are configured"),
              std::string::npos)
        << r.err;
  }
  {
    const temp_file cfg(
        "[experiment]\nname = \"x\"\nseed = 1\n[model]\nname = \"placement.design\"\n"
        "design = \"fano\"\ntolerance = 1\n[[quantity]]\nname = \"durability_nines\"\n",
        ".toml");
    const auto r = run_mcpilot({"run", cfg.path(), "--quiet"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("\"durability_nines\" is not estimated by placement.design with these "
                         "settings: it is a quantity of failures over time"),
              std::string::npos)
        << r.err;
  }
  for (const auto& [extra, field] :
       {std::pair{"domains = { count = 3, failure_rate_per_hour = 1e-6 }\n", "domains.count"},
        {"domains = { count = 2, failure_rate_per_hour = 0.0 }\n", "domains.failure_rate_per_hour"},
        {"outage = { rate_per_hour = 1e-4, mean_hours = 9000 }\n", "outage.mean_hours"}}) {
    const temp_file cfg(body + extra, ".toml");
    const auto r = run_mcpilot({"run", cfg.path(), "--quiet"});
    EXPECT_EQ(r.exit_code, 2) << extra << r.err;
    EXPECT_NE(r.err.find(field), std::string::npos) << r.err;
  }
}

}  // namespace MCPILOT_TEST_FILE
