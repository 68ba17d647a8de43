// placement.design through the `mcpilot` executable: the shipped configs run, describe lists the
// designs, and every bad input of the issue exits 2 naming the field (and the file's line).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace MCPILOT_TEST_FILE {

using mcpilot::test::run_mcpilot;
using mcpilot::test::slurp;
using mcpilot::test::temp_file;

const std::string source = MCPILOT_SOURCE_DIR;

std::string config(const std::string& model_lines) {
  return "[experiment]\nseed = 1\npreset = \"quick\"\nmax_seconds = 30\n\n[model]\nname = "
         "\"placement.design\"\n" +
         model_lines;
}

TEST(PlacementCli, DescribeListsTheDesigns) {
  const auto r = run_mcpilot({"describe", "placement.design"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("fano | pg2 | ag2 | sts | cyclic | complete | file | random | clustered | "
                       "copyset"),
            std::string::npos)
      << r.out;
  for (const char* p : {"order", "devices", "group_size", "base_block", "modulus", "blocks_file",
                        "tolerance", "scenario", "failed", "failure_probability", "mission_hours",
                        "lifetime.distribution", "repair.distribution", "rebuild.device_bytes",
                        "rebuild.bandwidth_bytes_per_hour", "rebuild.declustered"})
    EXPECT_NE(r.out.find(std::string("\n  ") + p + " "), std::string::npos) << p;
}

// Each bad input: exit 2, the message names the field; given in the file, also its line.
TEST(PlacementCli, BadInputExitsTwoNamingTheField) {
  struct bad {
    std::string lines, field, line;
  };
  const std::vector<bad> cases = {
      {"design = \"pg2\"\norder = 6\n", "order", ":9:"},
      {"design = \"sts\"\ndevices = 8\n", "devices", ":9:"},
      {"design = \"fano\"\ntolerance = 3\n", "tolerance", ":9:"},
      {"design = \"fano\"\nfailed = 8\n", "failed", ":9:"},
      {"design = \"cyclic\"\nbase_block = \"0,1,2,3\"\nmodulus = 7\n", "base_block", ":9:"},
      {"design = \"copyset\"\ndevices = 9\ngroup_size = 3\nscatter_width = 1\n", "scatter_width",
       ":11:"},
  };
  for (const auto& c : cases) {
    const temp_file cfg(config(c.lines), ".toml");
    const auto r = run_mcpilot({"run", cfg.path(), "--quiet"});
    EXPECT_EQ(r.exit_code, 2) << c.lines << r.err;
    EXPECT_NE(r.err.find(c.field), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(cfg.path() + c.line), std::string::npos) << r.err;
  }
  // --set names the field too.
  const auto r = run_mcpilot(
      {"run", source + "/configs/placement/fano-racks.toml", "--quiet", "--set", "model.failed=9"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("failed"), std::string::npos) << r.err;
  // A lifetime law a double cannot evaluate fails at load, not inside a replication.
  const auto w =
      run_mcpilot({"run", source + "/configs/placement/sts-tape-libraries.toml", "--quiet", "--set",
                   "model.lifetime.distribution=weibull", "--set",
                   "model.lifetime.scale_hours=1000", "--set", "model.lifetime.shape=1e-300"});
  EXPECT_EQ(w.exit_code, 2);
  EXPECT_NE(w.err.find("lifetime.shape"), std::string::npos) << w.err;
  EXPECT_NE(w.err.find("overflows"), std::string::npos) << w.err;
  EXPECT_EQ(w.err.find("replication"), std::string::npos) << w.err;
}

TEST(PlacementCli, BlocksFile) {
  // Balanced (the Fano plane written out): runs, with the exact 4/5 at 4 failed.
  const temp_file fano("0 1 3\n1 2 4\n2 3 5\n3 4 6\n0 4 5\n1 5 6\n0 2 6\n", ".blocks");
  const temp_file json("", ".json");
  const temp_file good(config("design = \"file\"\nblocks_file = \"" + fano.path() +
                              "\"\ntolerance = 2\nfailed = 4\n"),
                       ".toml");
  auto r = run_mcpilot({"run", good.path(), "--quiet", "--json", json.path()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(json.path()));
  EXPECT_EQ(j["model_facts"]["balanced"], true);
  EXPECT_EQ(j["model_facts"]["lambda"], 1);
  EXPECT_NEAR(j["quantities"][0]["analytic"].get<double>(), 0.8, 1e-12);

  // Unbalanced: exit 2 naming blocks_file; with allow_unbalanced, a warning and a run.
  const temp_file skew("0 1 2\n0 1 3\n0 2 3\n", ".blocks");
  const temp_file unbalanced(config("design = \"file\"\nblocks_file = \"" + skew.path() +
                                    "\"\ntolerance = 1\nfailed = 2\n"),
                             ".toml");
  r = run_mcpilot({"run", unbalanced.path(), "--quiet"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("blocks_file"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not balanced"), std::string::npos) << r.err;
  r = run_mcpilot({"run", unbalanced.path(), "--quiet", "--set", "model.allow_unbalanced=true"});
  EXPECT_NE(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("warning"), std::string::npos) << r.err;
  // The command-line flag says the same.
  r = run_mcpilot({"run", unbalanced.path(), "--quiet", "--allow-unbalanced"});
  EXPECT_NE(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("warning"), std::string::npos) << r.err;
  // On a model without the parameter it is an error naming the option's --set.
  r = run_mcpilot(
      {"run", source + "/configs/storage/raid6-exponential.toml", "--quiet", "--allow-unbalanced"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("allow_unbalanced"), std::string::npos) << r.err;

  // A device at or above v: exit 2 naming blocks_file and the file's line.
  const temp_file wide("0 1 3\n1 2 7\n", ".blocks");
  const temp_file too_wide(config("design = \"file\"\nblocks_file = \"" + wide.path() +
                                  "\"\ndevices = 7\ntolerance = 1\nfailed = 2\n"),
                           ".toml");
  r = run_mcpilot({"run", too_wide.path(), "--quiet"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("blocks_file"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(wide.path() + ":2"), std::string::npos) << r.err;
}

// Every shipped config runs and converges (exit 0), with its exact values covered.
TEST(PlacementCli, ShippedConfigsRun) {
  for (const char* name :
       {"fano-racks", "pg2-13-racks", "sts-tape-libraries", "blocks-file", "declustered",
        "clustered", "ag2-racks-lifetime", "pg2-11-racks-importance"}) {
    const temp_file json("", ".json");
    // blocks-file names its file relative to the repository root, as a user there would.
    const auto here = std::filesystem::current_path();
    std::filesystem::current_path(source);
    const auto r = run_mcpilot({"run", "configs/placement/" + std::string(name) + ".toml",
                                "--quiet", "--threads", "2", "--json", json.path()});
    std::filesystem::current_path(here);
    EXPECT_EQ(r.exit_code, 0) << name << r.err;
    const auto j = nlohmann::json::parse(slurp(json.path()));
    for (const auto& q : j["quantities"])
      if (!q["analytic_covered"].is_null() && q["required"].get<bool>())
        EXPECT_TRUE(q["analytic_covered"].get<bool>()) << name << " " << q["name"];
  }
}

}  // namespace MCPILOT_TEST_FILE
