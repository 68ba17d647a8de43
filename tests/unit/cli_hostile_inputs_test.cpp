// Regression tests for the inputs a hostile new user tried (issue 15, section 1): each one was
// misread or mis-answered once. Every bad input must give exit 2 with a message naming what is
// wrong; every valid one a correct answer.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "cli_test_support.hpp"

namespace MCPILOT_TEST_FILE {

using mcpilot::test::column_csv;
using mcpilot::test::run_mcpilot;
using mcpilot::test::temp_file;
using nlohmann::json;

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

std::vector<double> normal_sample(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> d(10, 1);
  std::vector<double> x(n);
  for (double& v : x) v = d(rng);
  return x;
}

// Lag-1 -0.020, so q = 1 and the interval is the t interval of the readings.
const std::vector<double> small_sample = {10.9, 9.1,  10,   9.5, 9.8,  10.4,
                                          10.2, 11.1, 11.5, 9.9, 10.6, 8.7};

TEST(HostileInputs, ConfidenceJustBelowOneIsValid) {
  // 0.9999999999999999 = 1 - 2^-53 + ... is < 1, but (1 + c)/2 rounds to 1 in double.
  const temp_file f(column_csv(small_sample));
  const auto r = run_mcpilot({"analyze", f.path(), "--json", "--confidence", "0.9999999999999999"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  // The t quantile with 11 df at upper tail (1 - c)/2 = 5.55e-17 is huge, so the interval must
  // be far wider than the 95% one (R: diff(t.test(x)$conf.int) = 1.0415) yet finite.
  const double width = j["ci_width"].get<double>();
  EXPECT_TRUE(std::isfinite(width));
  EXPECT_GT(width, 10 * 1.0415);
  for (const std::vector<std::string> args :
       {std::vector<std::string>{"compare", f.path(), f.path()},
        std::vector<std::string>{"analyze", f.path(), "--kind", "proportion"}}) {
    auto a = args;
    a.insert(a.end(), {"--confidence", "0.9999999999999999"});
    const auto rr = run_mcpilot(a);
    EXPECT_NE(rr.exit_code, 1) << rr.err;
    EXPECT_FALSE(contains(rr.err, "internal error")) << rr.err;
  }
}

TEST(HostileInputs, ConfidenceOutOfRangeIsAUsageError) {
  const temp_file f(column_csv(small_sample));
  for (const char* c : {"1", "0", "-0.5", "1.5", "nan", "x"}) {
    const auto r = run_mcpilot({"analyze", f.path(), "--confidence", c});
    EXPECT_EQ(r.exit_code, 2) << c;
    EXPECT_TRUE(contains(r.err, "--confidence")) << r.err;
  }
}

TEST(HostileInputs, ByteOrderMarkIsSkipped) {
  const std::vector<double> x = normal_sample(100, 1);
  const temp_file f("\xEF\xBB\xBF" + column_csv(x, ""));
  const auto r = run_mcpilot({"analyze", f.path(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["n"], 100);
}

TEST(HostileInputs, CarriageReturnOnlyLineEndsAreLines) {
  std::string text;
  for (double v : normal_sample(100, 2)) text += std::to_string(v) + "\r";
  const temp_file f(text);
  const auto r = run_mcpilot({"analyze", f.path(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["n"], 100);
}

TEST(HostileInputs, NumberLikeFirstLineTakenAsHeaderIsSaid) {
  for (const std::string first : {"12abc", "0x10", "\"3,5\""}) {
    const temp_file f(first + "\n" + column_csv(small_sample, ""));
    const auto r = run_mcpilot({"analyze", f.path(), "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, ":1: note: line 1 was taken as a header")) << first << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["n"], 12);
    EXPECT_EQ(j["header"]["line"], 1);
    EXPECT_EQ(j["header"]["guessed"], true);
  }
  // A name is an ordinary header: recorded in the JSON, no note.
  const temp_file named(column_csv(small_sample, "latency_ms"));
  const auto r = run_mcpilot({"analyze", named.path(), "--json"});
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(json::parse(r.out)["header"]["line"], 1);
}

TEST(HostileInputs, NulBytesAreRejectedAtOnce) {
  // /dev/zero never ends: the reader must stop at its first byte, not grow until memory runs out.
  const auto r = run_mcpilot({"analyze", "/dev/zero"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "/dev/zero:1:1: a NUL byte")) << r.err;
  const temp_file f(std::string("1\n2\n3") + '\0' + "\n");
  const auto s = run_mcpilot({"analyze", f.path()});
  EXPECT_EQ(s.exit_code, 2);
  EXPECT_TRUE(contains(s.err, f.path() + ":3:2: a NUL byte")) << s.err;
}

TEST(HostileInputs, NegativeOrHugeUnsignedOptionsAreRejected) {
  const temp_file f(column_csv(small_sample));
  const std::vector<std::vector<std::string>> cases = {
      {"analyze", f.path(), "--min-samples", "-5"},
      {"analyze", f.path(), "--min-samples", "3689348814741910324"},
      {"analyze", f.path(), "--min-samples", "1"},
      {"analyze", f.path(), "--column", "-1"},
      {"compare", f.path(), f.path(), "--min-samples", "-5"},
      {"changepoints", f.path(), "--min-segment", "-1"},
      {"changepoints", f.path(), "--min-segment", "18446744073709551617"},
      {"run", "x.toml", "--seed", "-1"},
      {"run", "x.toml", "--seed", "18446744073709551616"},
      {"run", "x.toml", "--threads", "-2"},
  };
  for (const auto& args : cases) {
    const auto r = run_mcpilot(args);
    EXPECT_EQ(r.exit_code, 2) << args[2] << ' ' << args.back();
    EXPECT_TRUE(contains(r.err, args[args.size() - 2])) << r.err;  // names the option
    EXPECT_FALSE(contains(r.err, "18446744073709551611")) << r.err;
  }
}

TEST(HostileInputs, LargestMinSamplesGivesNoWrappedProduct) {
  // 10^15 subsessions of q = 1: 10^15 readings required, not a wrapped product.
  const temp_file f(column_csv(small_sample));
  const auto r = run_mcpilot({"analyze", f.path(), "--json", "--min-samples", "1000000000000000"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["required_samples"], 1000000000000000ull);
}

TEST(HostileInputs, OverflowingReadingsAreNamed) {
  for (const std::string big : {"1.6e308", "1e200", "-1e200"}) {
    const temp_file f("x\n1\n2\n" + big + "\n3\n");
    const auto r = run_mcpilot({"analyze", f.path()});
    EXPECT_EQ(r.exit_code, 2) << big;
    EXPECT_TRUE(contains(r.err, f.path() + ":4:1")) << r.err;
    EXPECT_TRUE(contains(r.err, "double arithmetic")) << r.err;
  }
  // Rates: 4.9e-324's reciprocal is infinite (it was "got inf"); 1e308's reciprocal 1e-308
  // squares to 0, which was reported as "no variation" though the readings differ.
  {
    const temp_file f("x\n1\n2\n4.9e-324\n3\n");
    const auto r = run_mcpilot({"analyze", f.path(), "--kind", "rate"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(contains(r.err, f.path() + ":4:1")) << r.err;
    EXPECT_TRUE(contains(r.err, "double arithmetic")) << r.err;
  }
  {
    const temp_file f(column_csv(std::vector<double>{1e308, 1.2e308, 1.1e308, 1.3e308, 1e308}));
    const auto r = run_mcpilot({"analyze", f.path(), "--kind", "rate", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string status = json::parse(r.out)["status"];
    EXPECT_TRUE(contains(status, "underflows double arithmetic")) << status;
  }
  const temp_file f("x\n1\n2\n1e200\n3\n");
  EXPECT_EQ(run_mcpilot({"changepoints", f.path()}).exit_code, 2);
  const temp_file w("w,t\n1,1\n2,2\n3,1e200\n");
  EXPECT_EQ(run_mcpilot({"analyze", w.path(), "--wps", "0,1"}).exit_code, 2);
}

TEST(HostileInputs, AllEqualReadingsTextAndJsonAgree) {
  // All zeros: no interval, and nothing is called unreachable.
  const temp_file f(column_csv(std::vector<double>(100, 0.0)));
  const auto t = run_mcpilot({"analyze", f.path()});
  const json j = json::parse(run_mcpilot({"analyze", f.path(), "--json"}).out);
  EXPECT_EQ(j["unreachable"], false);
  EXPECT_TRUE(j["required_samples"].is_null());
  EXPECT_FALSE(contains(t.out, "unreachable")) << t.out;
  EXPECT_TRUE(contains(t.out, "required         not known yet")) << t.out;
  // All fives: the zero-events interval, in both. 1 - 0.05^(1/100) = 0.0295130 (Python).
  const temp_file g(column_csv(std::vector<double>(100, 5.0)));
  const auto u = run_mcpilot({"analyze", g.path()});
  const json k = json::parse(run_mcpilot({"analyze", g.path(), "--json"}).out);
  EXPECT_EQ(k["constant"], true);
  EXPECT_NEAR(k["ci_high"].get<double>(), 5 * (1 + 0.0295130), 1e-6);
  EXPECT_TRUE(contains(u.out, "zero-events bound (no reading differs in 100")) << u.out;
  EXPECT_TRUE(contains(u.out, "required         59 readings")) << u.out;
}

TEST(HostileInputs, WilsonOnlyForProportions) {
  const temp_file f(column_csv(small_sample));
  for (const char* kind : {"ordinary", "rate"}) {
    const auto r = run_mcpilot({"analyze", f.path(), "--kind", kind, "--wilson"});
    EXPECT_EQ(r.exit_code, 2) << kind;
    EXPECT_TRUE(contains(r.err, "--wilson")) << r.err;
  }
  const temp_file p(column_csv(std::vector<double>{0, 1, 0, 0, 1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(run_mcpilot({"analyze", p.path(), "--kind", "proportion", "--wilson"}).exit_code, 0);
}

TEST(HostileInputs, UnknownCommandIsNamedWithTheList) {
  const auto r = run_mcpilot({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "unknown command 'frobnicate'")) << r.err;
  EXPECT_TRUE(contains(r.err, "analyze, compare, changepoints, run")) << r.err;
}

TEST(HostileInputs, RunSaysDirectoryAndTheOsReason) {
  const auto dir = run_mcpilot({"run", MCPILOT_SOURCE_DIR});
  EXPECT_EQ(dir.exit_code, 2);
  EXPECT_TRUE(contains(dir.err, "it is a directory")) << dir.err;
  const auto missing = run_mcpilot({"run", "no-such-config.toml"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(
      contains(missing.err, "no-such-config.toml: cannot read the config file: No such file"))
      << missing.err;
}

TEST(HostileInputs, SetOfAnUnknownSectionNamesTheSet) {
  const std::string config =
      std::string(MCPILOT_SOURCE_DIR) + "/configs/storage/raid6-exponential.toml";
  const auto r = run_mcpilot({"run", config, "--set", "bogus.x=3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "--set bogus.x")) << r.err;
  EXPECT_FALSE(contains(r.err, "raid6-exponential.toml")) << r.err;
}

TEST(HostileInputs, EmptyOutputPathIsRejected) {
  const std::string config =
      std::string(MCPILOT_SOURCE_DIR) + "/configs/storage/raid6-exponential.toml";
  for (const char* opt : {"--json", "--raw"}) {
    const auto r = run_mcpilot({"run", config, opt, ""});
    EXPECT_EQ(r.exit_code, 2) << opt;
    EXPECT_TRUE(contains(r.err, opt)) << r.err;
  }
}

TEST(HostileInputs, LinearTrendIsWarnedAbout) {
  // x_i = i: every subsession mean lies exactly on a line, whatever q the search settles on.
  std::vector<double> x(30000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i);
  const temp_file f(column_csv(x));
  const auto r = run_mcpilot({"analyze", f.path(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "warning: the subsession means trend")) << r.err;
  EXPECT_EQ(json::parse(r.out)["trend"]["warning"], true);
  // Independent readings: no warning (the test's level is 1%; this seed's p is far above it).
  const temp_file g(column_csv(normal_sample(2000, 3)));
  const auto s = run_mcpilot({"analyze", g.path(), "--json"});
  EXPECT_EQ(s.err, "");
  EXPECT_EQ(json::parse(s.out)["trend"]["warning"], false);
}

}  // namespace MCPILOT_TEST_FILE
