// `mcpilot compare A B`: Welch's test on subsession means against R's t.test, required_b
// against its formula evaluated in R, exit codes and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "cli_test_support.hpp"

namespace MCPILOT_TEST_FILE {

using mcpilot::test::column_csv;
using mcpilot::test::run_mcpilot;
using mcpilot::test::temp_file;
using nlohmann::json;

// Lag-1 autocorrelations -0.020 and -0.036 (R), so each reading is its own subsession and the
// test on subsession means is R's t.test on the readings.
const std::vector<double> a_values = {10.9, 9.1,  10,   9.5, 9.8,  10.4,
                                      10.2, 11.1, 11.5, 9.9, 10.6, 8.7};
const std::vector<double> b_values = {12.6, 11.8, 12, 10.7, 12.3, 11.2, 11, 10.4, 11.5, 10.9};

json compare_json(const std::vector<std::string>& args, const std::string& stdin_text = "") {
  const auto r = run_mcpilot(args, stdin_text);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return json::parse(r.out);
}

TEST(CliCompare, WelchMatchesR) {
  const temp_file a(column_csv(a_values)), b(column_csv(b_values));
  // --min-samples 2: the formula's own value, not Pilot's floor of min_samples subsessions.
  const json j = compare_json(
      {"compare", a.path(), b.path(), "--json", "--min-samples", "2", "--interval", "pilot"});
  // R: r <- t.test(a, b): t = -3.946225327628696, df = 19.91315384294990,
  //    p = 0.000803313357080429, conf.int = [-1.98482055862418, -0.61184610804249]
  EXPECT_NEAR(j["mean_a"].get<double>(), 10.1416666666667, 1e-12);
  EXPECT_NEAR(j["mean_b"].get<double>(), 11.44, 1e-12);
  EXPECT_NEAR(j["diff"].get<double>(), 10.1416666666667 - 11.44, 1e-12);
  EXPECT_NEAR(j["t"].get<double>(), -3.946225327628696, 1e-10);
  EXPECT_NEAR(j["df"].get<double>(), 19.91315384294990, 1e-9);
  EXPECT_NEAR(j["p"].get<double>(), 0.000803313357080429, 1e-12);
  EXPECT_NEAR(j["diff_ci_low"].get<double>(), -1.98482055862418, 1e-10);
  EXPECT_NEAR(j["diff_ci_high"].get<double>(), -0.61184610804249, 1e-10);
  EXPECT_EQ(j["significant"], true);
  // R: ts <- qt(0.975, r$parameter); var(b)/((d/ts)^2 - var(a)/length(a)) = 1.5780791206641,
  //    so 2 subsession means of B, each of 1 reading.
  EXPECT_EQ(j["required_b"], 2);
  EXPECT_FALSE(j.contains("reason"));
  EXPECT_EQ(j["a"]["n"], 12);
  EXPECT_EQ(j["b"]["n"], 10);
  EXPECT_EQ(j["interval"], "pilot");
  EXPECT_EQ(j["warmup_removal"], "on");
  const json cut = compare_json({"compare", a.path(), b.path(), "--json", "--min-samples", "2",
                                 "--interval", "pilot", "--cut-excursions"});
  EXPECT_EQ(cut["warmup_removal"], "cut-excursions");
}

TEST(CliCompare, PowerRaisesRequiredB) {
  const temp_file a(column_csv(a_values)), b(column_csv(b_values));
  // R: ts2 <- qt(0.975, r$parameter) + qnorm(0.8); var(b)/((d/ts2)^2 - var(a)/12) = 3.7168711843406
  const json j = compare_json({"compare", a.path(), b.path(), "--json", "--power", "0.8",
                               "--min-samples", "2", "--interval", "pilot"});
  EXPECT_EQ(j["required_b"], 4);
}

TEST(CliCompare, NoNumberSufficesWhenTheMeansAgree) {
  std::vector<double> shuffled = a_values;
  std::reverse(shuffled.begin(), shuffled.end());  // same mean, same spread: diff = 0
  const temp_file a(column_csv(a_values)), b(column_csv(shuffled));
  const json j = compare_json({"compare", a.path(), b.path(), "--json"});
  EXPECT_NEAR(j["diff"].get<double>(), 0, 1e-12);
  EXPECT_NEAR(j["p"].get<double>(), 1, 1e-12);
  EXPECT_TRUE(j["required_b"].is_null());
  EXPECT_TRUE(j["reason"].is_string());
  EXPECT_EQ(j["significant"], false);
}

TEST(CliCompare, RatesAreTestedOnTheReciprocals) {
  const temp_file a(column_csv(a_values));
  // B from standard input.
  const json j =
      compare_json({"compare", a.path(), "-", "--json", "--kind", "rate", "--interval", "pilot"},
                   column_csv(b_values));
  // R: t.test(1/a, 1/b): t = 3.918090215966429, df = 19.26320236190482, p = 0.00090384280275374.
  // The reported t carries the sign of the rates' difference, which is the opposite.
  EXPECT_NEAR(j["t"].get<double>(), -3.918090215966429, 1e-10);
  EXPECT_NEAR(j["df"].get<double>(), 19.26320236190482, 1e-9);
  EXPECT_NEAR(j["p"].get<double>(), 0.00090384280275374, 1e-12);
  EXPECT_EQ(j["test_scale"], "reciprocal");
  // The difference of the harmonic means and its delta-method interval, computed with mpmath
  // (40 digits) from the definitions: y = 1/readings, each rate's moments (1/ybar, var(y)/ybar^4,
  // n), Welch's se = 0.32940801290982748 and df = 19.963660818584628, and the t quantile
  // 2.0862068899586377 from the regularized incomplete beta function. (Not "the centre lies in
  // its own symmetric interval", which holds by construction.)
  EXPECT_NEAR(j["diff"].get<double>(), -1.3191833464736523, 1e-12);
  EXPECT_NEAR(j["diff_ci_low"].get<double>(), -2.0063966126137182, 1e-9);
  EXPECT_NEAR(j["diff_ci_high"].get<double>(), -0.63197008033358635, 1e-9);
}

TEST(CliCompare, RequiredBIsAtLeastTwoSubsessionMeans) {
  // A difference of ~100 standard errors: the formula asks for under one B reading, but Welch's
  // test needs two values on each side (the smallest min_samples allowed is 2).
  std::vector<double> far = b_values;
  for (double& v : far) v += 100;
  const temp_file a(column_csv(a_values)), b(column_csv(far));
  const json j = compare_json({"compare", a.path(), b.path(), "--json", "--min-samples", "2"});
  EXPECT_EQ(j["required_b"], 2);
}

TEST(CliCompare, RequiredBIsAtLeastMinSamplesSubsessionMeans) {
  // Issue 15: as Pilot does for every estimate, B needs at least min_samples subsession means,
  // whatever the formula says (here 1.578, R above): normal's 50, strict's 200, or the override.
  const temp_file a(column_csv(a_values)), b(column_csv(b_values));
  EXPECT_EQ(compare_json({"compare", a.path(), b.path(), "--json"})["required_b"], 50);
  EXPECT_EQ(
      compare_json({"compare", a.path(), b.path(), "--json", "--preset", "strict"})["required_b"],
      200);
  EXPECT_EQ(compare_json({"compare", a.path(), b.path(), "--json", "--min-samples",
                          "7"})["required_b_batches"],
            7);
}

TEST(CliCompare, HumanView) {
  const temp_file a(column_csv(a_values)), b(column_csv(b_values));
  const auto r = run_mcpilot({"compare", a.path(), b.path(), "--interval", "pilot"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* s : {"A - B", "-1.30 [-1.98, -0.61]", "Welch t", "df 19.9", "p ", "8.0e-04",
                        "required B", "the means differ"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
}

TEST(CliCompare, BadInput) {
  const temp_file a(column_csv(a_values)), bad("1\n2\nx\n"), few("1\n2\n");
  auto r = run_mcpilot({"compare", a.path(), bad.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(bad.path() + ":3:1: field 0 \"x\" is not a number"), std::string::npos)
      << r.err;
  r = run_mcpilot({"compare", a.path(), few.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(few.path() + ": 2 readings; at least 3"), std::string::npos) << r.err;
  r = run_mcpilot({"compare", "-", "-"}, "1\n2\n3\n");
  EXPECT_EQ(r.exit_code, 2);
  r = run_mcpilot({"compare", a.path()});
  EXPECT_EQ(r.exit_code, 2);
  r = run_mcpilot({"compare", a.path(), a.path(), "--power", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  r = run_mcpilot({"compare", a.path(), "/nonexistent/b.csv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/b.csv: cannot open"), std::string::npos);
}

}  // namespace MCPILOT_TEST_FILE
