// `mcpilot changepoints`: the JSON contract of docs/cli-analysis.md on series whose change-points
// are known by construction, the human view, exit codes and bad input.
#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "cli_test_support.hpp"

namespace MCPILOT_TEST_FILE {

using mcpilot::test::column_csv;
using mcpilot::test::run_mcpilot;
using mcpilot::test::temp_file;
using nlohmann::json;

// Normal readings with sd 1, level levels[k] for lengths[k] readings each. Fixed seed.
std::vector<double> steps(std::vector<double> levels, std::vector<int> lengths,
                          std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  boost::random::normal_distribution<double> noise(0, 1);
  std::vector<double> x;
  for (std::size_t k = 0; k < levels.size(); ++k)
    for (int i = 0; i < lengths[k]; ++i) x.push_back(100 + levels[k] + noise(rng));
  return x;
}

json changepoints_json(const std::vector<std::string>& args, const std::string& stdin_text = "") {
  const auto r = run_mcpilot(args, stdin_text);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return json::parse(r.out);
}

TEST(CliChangepoints, FindsAWarmupStep) {
  // 100 readings 5 sd above the 400 that follow.
  const temp_file f(column_csv(steps({5, 0}, {100, 400}, 11), "ms"));
  const json j = changepoints_json({"changepoints", f.path(), "--json"});
  for (const char* key :
       {"n", "changepoints", "p_values", "stable_begin", "stable_end", "accepted"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["n"], 500);
  ASSERT_EQ(j["changepoints"].size(), 1u) << j.dump();
  const int cp = j["changepoints"][0].get<int>();
  EXPECT_NEAR(cp, 100, 3);
  ASSERT_EQ(j["p_values"].size(), 1u);
  // Not "p < alpha/n" (the pruning guarantees it for every change-point kept) but the power of a
  // 5 sd shift between 100 and 400 iid readings: P(X < Y) = Phi(5/sqrt 2) = 0.9998, so the
  // rank-sum z = 0.4998 * 40000 / sqrt(40000 * 501 / 12) = 15.5 (p ~ 1e-54); with sd ~ 1 around
  // it, p must be below 1e-25 (z > 10.4) on any seed.
  EXPECT_LT(j["p_values"][0].get<double>(), 1e-25);
  EXPECT_EQ(j["tests"], json::array({"rank"}));
  EXPECT_EQ(j["stable_begin"], cp);
  EXPECT_EQ(j["stable_end"], 500);
  EXPECT_EQ(j["accepted"], true);
  ASSERT_EQ(j["segments"].size(), 2u);
  EXPECT_NEAR(j["segments"][0]["mean"].get<double>(), 105, 0.5);
  EXPECT_NEAR(j["segments"][1]["mean"].get<double>(), 100, 0.3);
  EXPECT_EQ(j["segments"][1]["stable"], true);
  EXPECT_EQ(j["changepoint_lines"][0], cp + 2);  // after the header line, 1-based
}

// docs/statistics.md, "A step among wandering runs": the step at run 300 of the recorded session
// is kept by the t on batch medians, and both outputs say so.
TEST(CliChangepoints, AStepNoRankTestCouldDecideSaysWhichTestKeptIt) {
  const std::string sample =
      std::string(MCPILOT_SOURCE_DIR) + "/docs/data/step-among-wandering-runs.csv";
  const json j = changepoints_json({"changepoints", sample, "--json"});
  ASSERT_EQ(j["changepoints"].size(), 1u) << j.dump();
  EXPECT_NEAR(j["changepoints"][0].get<double>(), 300, 10);
  EXPECT_EQ(j["tests"], json::array({"few_batches"}));
  const auto text = run_mcpilot({"changepoints", sample});
  EXPECT_NE(text.out.find("(t on batch medians: no rank test could decide)"), std::string::npos)
      << text.out;
}

TEST(CliChangepoints, NoChangeInAConstantLevelSeries) {
  const json j =
      changepoints_json({"changepoints", "-", "--json"}, column_csv(steps({0}, {500}, 12)));
  EXPECT_TRUE(j["changepoints"].empty());
  EXPECT_EQ(j["stable_begin"], 0);
  EXPECT_EQ(j["stable_end"], 500);
  EXPECT_EQ(j["accepted"], true);
}

TEST(CliChangepoints, NoStablePhaseWhenNoSegmentHoldsHalf) {
  const temp_file f(column_csv(steps({0, 10, 20}, {200, 200, 200}, 13)));
  const auto r = run_mcpilot({"changepoints", f.path(), "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // a result, not an error: `accepted` says it
  const json j = json::parse(r.out);
  EXPECT_EQ(j["changepoints"].size(), 2u) << j.dump();
  EXPECT_EQ(j["accepted"], false);
  const auto human = run_mcpilot({"changepoints", f.path()});
  EXPECT_NE(human.out.find("no stable phase"), std::string::npos) << human.out;
}

TEST(CliChangepoints, HumanViewListsSegmentsWithMeans) {
  const temp_file f(column_csv(steps({5, 0}, {100, 400}, 11), "ms"));
  const auto r = run_mcpilot({"changepoints", f.path()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* s : {"segment", "readings", "lines", "mean", "stable", "change-point at reading",
                        "stable phase: readings"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
}

TEST(CliChangepoints, BadInput) {
  auto r = run_mcpilot({"changepoints", "-"}, "1\n2\nfoo\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("<stdin>:3:1: field 0 \"foo\" is not a number"), std::string::npos) << r.err;
  r = run_mcpilot({"changepoints", "-", "--kind", "rate"}, "1\n2\n-3\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("<stdin>:3:1: field 0: a rate must be"), std::string::npos) << r.err;
  r = run_mcpilot({"changepoints", "/nonexistent/x.csv"});
  EXPECT_EQ(r.exit_code, 2);
  r = run_mcpilot({"changepoints", "-", "--alpha", "2"}, "1\n2\n3\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  // Fewer means than two minimal segments could never be split.
  r = run_mcpilot({"changepoints", "-", "--max-points", "59"}, "1\n2\n3\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--max-points must be 0 or at least twice --min-segment (60), got 59"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
}

// A series longer than --max-points is searched on means of ceil(n / max_points) readings
// (docs/cli-analysis.md): the JSON gives that resolution, the change-points are its multiples,
// and --max-points 0 searches reading by reading.
TEST(CliChangepoints, LongSeriesSearchedOnMeans) {
  // 200 readings 5 sd high, then 800: with --max-points 250, b = 4 and 250 means. (A warm-up of
  // 100 readings would be lost: it is 25 means, shorter than the 30 of a segment.)
  const temp_file f(column_csv(steps({5, 0}, {200, 800}, 14)));
  const json j = changepoints_json({"changepoints", f.path(), "--json", "--max-points", "250"});
  EXPECT_EQ(j["max_points"], 250);
  EXPECT_EQ(j["resolution"], 4);
  EXPECT_EQ(j["n"], 1000);
  ASSERT_EQ(j["changepoints"].size(), 1u) << j.dump();
  EXPECT_EQ(j["changepoints"][0], 200);  // 50 means of 4: the step falls between two
  EXPECT_EQ(j["stable_end"], 1000);
  const json whole = changepoints_json({"changepoints", f.path(), "--json", "--max-points", "0"});
  EXPECT_EQ(whole["resolution"], 1);
  const json by_default = changepoints_json({"changepoints", f.path(), "--json"});
  EXPECT_EQ(by_default["max_points"], 32768);
  EXPECT_EQ(by_default["resolution"], 1);
  const auto human = run_mcpilot({"changepoints", f.path(), "--max-points", "250"});
  EXPECT_NE(human.out.find("segments of at least 30 means of 4 readings"), std::string::npos)
      << human.out;
}

}  // namespace MCPILOT_TEST_FILE
