// `mcpilot bench` end to end, against bench_helper (tests/support/bench_helper.cpp), a program
// whose readings and durations are known: its intervals must cover the known values, the
// work-vs-duration regression must find its rate, and two commands of known ratio must be told
// apart in the right direction. Sessions use the quick preset and small durations so that the
// whole file runs in a few seconds.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "mcpilot/io/csv_table.hpp"
#include "mcpilot/stats/repeated_looks.hpp"

namespace mcpilot::test {
namespace MCPILOT_TEST_FILE {

const std::string helper = MCPILOT_BENCH_HELPER;

// A fresh run counter for the helper, so that its draws depend only on the seed.
struct helper_state {
  temp_file file{"", ".state"};
};

// Runs mcpilot bench with the helper's environment and --export-json; returns the JSON.
// --quiet unless `quiet` is false.
nlohmann::json bench_json(const std::vector<std::string>& args, unsigned seed, run_result* out,
                          bool quiet = true) {
  helper_state st;
  const temp_file json("", ".json");
  // --max-seconds: a loaded machine must not hold the suite up; the assertions then fail visibly.
  // A test that sets its own limit keeps it.
  std::vector<std::string> all = {"bench", "--export-json", json.path()};
  if (quiet) all.push_back("--quiet");
  if (std::find(args.begin(), args.end(), "--max-seconds") == args.end())
    all.insert(all.end(), {"--max-seconds", "30"});
  all.insert(all.end(), args.begin(), args.end());
  // The environment reaches the helper through mcpilot: set it for the mcpilot process.
  setenv("BENCH_HELPER_STATE", st.file.path().c_str(), 1);
  setenv("BENCH_HELPER_SEED", std::to_string(seed).c_str(), 1);
  *out = run_mcpilot(all);
  unsetenv("BENCH_HELPER_STATE");
  unsetenv("BENCH_HELPER_SEED");
  const std::string text = slurp(json.path());
  return text.empty() ? nlohmann::json() : nlohmann::json::parse(text);
}

const nlohmann::json& quantity(const nlohmann::json& cmd, const std::string& name) {
  for (const auto& q : cmd["quantities"])
    if (q["name"] == name) return q;
  throw std::runtime_error("no quantity " + name);
}

// N(10, 1) readings printed by the program: at fixed seeds the 95% interval covers 10. With
// three seeds the chance that a correct method misses at least once is 1 - 0.95^3 = 14%; these
// seeds are fixed, so the test is deterministic, and a biased method (e.g. one that dropped
// readings) would move the intervals off 10 at every seed.
TEST(CliBench, ProgramReadingsIntervalCoversKnownMean) {
  for (unsigned seed : {1u, 2u, 3u}) {
    run_result r;
    const auto j = bench_json(
        {"--preset", "quick", "--output", "csv:x", "--", helper, "normal", "10", "1", "3"}, seed,
        &r);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const auto& x = quantity(j["commands"][0], "x");
    EXPECT_LE(x["ci_low"].get<double>(), 10.0) << "seed " << seed;
    EXPECT_GE(x["ci_high"].get<double>(), 10.0) << "seed " << seed;
    EXPECT_EQ(x["n"].get<int>(), 3 * j["commands"][0]["runs"].get<int>());  // 3 lines per run
    EXPECT_TRUE(x["converged"].get<bool>());
  }
}

// --statistic median: the median of N(10, 1) readings is 10 as well, and its distribution-free
// interval covers it at these fixed seeds; the JSON and the table say which statistic it is.
TEST(CliBench, MedianIntervalCoversKnownMedian) {
  for (unsigned seed : {1u, 2u, 3u}) {
    run_result r;
    const auto j = bench_json({"--preset", "quick", "--statistic", "median", "--output", "csv:x",
                               "--", helper, "normal", "10", "1", "3"},
                              seed, &r);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const auto& x = quantity(j["commands"][0], "x");
    EXPECT_EQ(x["statistic"], "median");
    EXPECT_LE(x["ci_low"].get<double>(), 10.0) << "seed " << seed;
    EXPECT_GE(x["ci_high"].get<double>(), 10.0) << "seed " << seed;
    EXPECT_TRUE(x["converged"].get<bool>());
    EXPECT_NE(r.out.find("intervals: the median"), std::string::npos) << r.out;
  }
  const auto bad =
      run_mcpilot({"bench", "--quiet", "--statistic", "mode", "--", helper, "sleep", "0"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--statistic"), std::string::npos) << bad.err;
}

// Duration 0.05 + w/2000 s: the regression recovers about 2000 per second, where the naive
// sum w / sum T reads about 1000, and its intercept is the 0.05 s plus the cost of starting a
// process (well under 0.05 s more). The helper sleeps, so its true rate is 2000 only to within
// the kernel's timer and scheduling delays: under ctest -j2 the fit read 1983 with an interval
// of +-0.4% that missed 2000 (two runs in six on 2026-12-01). Asserting that one unseeded 95%
// interval covers an inexact truth failed by construction. A fixed 3% failed too, once, when a
// loaded machine made the runs noisy: 1911 with an interval of +-4.5%, which the asked precision
// (+-5%) allows. So the rate must come within twice its own half-width (a 95% interval misses by
// that much with probability 1e-4), plus 1.5% for the timer.
//
// The runs start with the ramp (from 20 up, each longer than the last), then take the first
// ladder's five amounts (20, 65, 110, 155, 200) and the second's nine (the midpoints added:
// 42.5, 87.5, 132.5 and 177.5 rounded away from zero), each ladder in a seeded order that does
// not climb (with --seed 1; a climbing ladder would let a load that rises with time pass for
// cost that rises with w). The export holds each run's amount.
TEST(CliBench, WorkAmountRateFromRegression) {
  run_result r;
  const temp_file csv("", ".csv");
  const auto j = bench_json(
      {"--preset", "quick", "--ci-perc", "0.1", "--work-initial", "20", "--work-max", "200",
       "--ramp-seconds", "2", "--export-csv", csv.path(), "--", helper, "work", "%WORK_AMOUNT%"},
      1, &r);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::istringstream lines(slurp(csv.path()));
  std::vector<double> amounts;
  for (std::string line; std::getline(lines, line);)
    if (const auto at = line.find(",work_amount,"); at != std::string::npos)
      amounts.push_back(std::stod(line.substr(at + 13)));
  ASSERT_EQ(amounts.size(), j["commands"][0]["runs"].get<std::size_t>());
  const std::size_t ramp = j["commands"][0]["work_schedule"]["ramp_runs"].get<std::size_t>();
  ASSERT_GE(j["commands"][0]["work_schedule"]["ladders_done"].get<std::size_t>(), 2u);
  ASSERT_GE(amounts.size(), ramp + 14) << r.out;
  EXPECT_EQ(amounts[0], 20);
  EXPECT_TRUE(std::is_sorted(amounts.begin(), amounts.begin() + ramp));
  EXPECT_LE(amounts[ramp - 1], 200);
  const std::vector<std::vector<double>> ladders = {{20, 65, 110, 155, 200},
                                                    {20, 43, 65, 88, 110, 133, 155, 178, 200}};
  std::size_t at = ramp;
  for (const auto& expected : ladders) {
    std::vector<double> ladder(amounts.begin() + at, amounts.begin() + at + expected.size());
    at += expected.size();
    EXPECT_FALSE(std::is_sorted(ladder.begin(), ladder.end()));
    std::sort(ladder.begin(), ladder.end());
    EXPECT_EQ(ladder, expected);
  }
  const auto& w = j["commands"][0]["wps"];
  const double rate = w["rate"].get<double>();
  const double low = w["rate_ci_low"].get<double>(), high = w["rate_ci_high"].get<double>();
  EXPECT_LE(low, rate) << r.out;
  EXPECT_GE(high, rate) << r.out;
  EXPECT_NEAR(rate, 2000.0, (high - low) + 30.0) << r.out;
  EXPECT_LT(w["naive_rate"].get<double>(), 1500.0) << "the start-up time is in the naive rate";
  EXPECT_GE(w["alpha"].get<double>(), 0.05);
  EXPECT_LE(w["alpha"].get<double>(), 0.10);
  EXPECT_NE(r.out.find("intercept"), std::string::npos);
}

// Two commands, the second 20% slower in its sleep: resolved, and the ratio slow/fast is above 1
// with its whole interval. A process's start-up adds the same time o to both, so the true ratio
// (0.012 + o) / (0.010 + o) is at most 1.2: the interval cannot lie wholly above it.
TEST(CliBench, TwoCommandsResolvedInTheRightDirection) {
  run_result r;
  const auto j = bench_json({"--preset", "quick", "--until", "separated", "-n", "fast", "-n",
                             "slow", helper + " sleep 0.010", helper + " sleep 0.012"},
                            1, &r);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  ASSERT_EQ(j["comparisons"].size(), 1u);
  const auto& c = j["comparisons"][0];
  EXPECT_EQ(c["a"], "fast");
  EXPECT_EQ(c["b"], "slow");
  EXPECT_TRUE(c["resolved"].get<bool>());
  EXPECT_GT(c["ratio_ci_low"].get<double>(), 1.0);
  EXPECT_LT(c["ratio_ci_low"].get<double>(), 1.2);
}

// The pair is compared on its blocks (the k-th run of each command, next to each other in time):
// the differences b_k - a_k over the window kept, in subsessions of the reported size, their
// variance times the interval's inflation, and the paired t on them. Rebuilt here from the
// exported readings by plain sums. --max-runs 40 stops the first round (quick: 60 blocks)
// deterministically, so the exit code is known: 3, and both commands have 20 runs.
TEST(CliBench, PairComparedOnTheBlocksDifferences) {
  const temp_file csv("", ".csv");
  run_result r;
  const auto j = bench_json(
      {"--preset", "quick", "--output", "csv", "--max-runs", "40", "--export-csv", csv.path(), "-n",
       "a", "-n", "b", helper + " normal 10 1", helper + " normal 10.2 1"},
      3, &r);
  ASSERT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_EQ(j["commands"][0]["runs"], 20);
  EXPECT_EQ(j["commands"][1]["runs"], 20);
  ASSERT_EQ(j["comparisons"].size(), 1u);
  // Each command's readings in run order, from the raw export.
  std::vector<double> x[2];
  std::istringstream in(slurp(csv.path()));
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::istringstream ls(line);
    for (std::string v; std::getline(ls, v, ',');) f.push_back(v);
    ASSERT_EQ(f.size(), 5u) << line;
    if (f[3] == "reading") x[f[1] == "a" ? 0 : 1].push_back(std::stod(f[4]));
  }
  ASSERT_EQ(x[0].size(), 20u);
  ASSERT_EQ(x[1].size(), 20u);
  const auto& cmp = j["comparisons"][0];
  EXPECT_EQ(cmp["method"], "paired");
  EXPECT_EQ(cmp["blocks"], 20);
  const auto& d = cmp["difference"];
  const auto begin = cmp["kept_from"].get<std::size_t>();
  const auto used = d["n_used"].get<std::size_t>(), q = d["subsession_size"].get<std::size_t>();
  std::vector<double> means;
  for (std::size_t k = begin; k + q <= begin + used; k += q) {
    double sum = 0;
    for (std::size_t i = k; i < k + q; ++i) sum += x[1][i] - x[0][i];
    means.push_back(sum / static_cast<double>(q));
  }
  const double h = static_cast<double>(means.size());
  double mean = 0, var = 0;
  for (double m : means) mean += m / h;
  for (double m : means) var += (m - mean) * (m - mean) / (h - 1);
  var *= d["variance_inflation"].get<double>();
  EXPECT_NEAR(cmp["t"].get<double>(), mean / std::sqrt(var / h), 1e-9);
  EXPECT_DOUBLE_EQ(cmp["df"].get<double>(), h - 1);
  // The ratio is that of the means over the same window.
  double sa = 0, sb = 0;
  for (std::size_t k = begin; k < cmp["kept_to"].get<std::size_t>(); ++k)
    sa += x[0][k], sb += x[1][k];
  EXPECT_NEAR(cmp["ratio_b_over_a"].get<double>(), sb / sa, 1e-12);
}

// A limit that cuts the first round short (100 runs each would take 5.5 s; --max-seconds 3) after
// the readings already separate a command 10 times slower: the goal is judged again on every
// reading, so the run ends as converged, exit 0, not as stopped by the limit. Before, a loaded
// machine could make a resolved pair exit 3 this way.
TEST(CliBench, LimitThatCutsARoundAfterTheGoalIsMetEndsConverged) {
  run_result r;
  const auto j =
      bench_json({"--preset", "quick", "--until", "separated", "--max-seconds", "3", "-n", "fast",
                  "-n", "slow", helper + " sleep 0.005", helper + " sleep 0.05"},
                 1, &r);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(j["stopped_because"], "converged");
  const auto runs = j["commands"][0]["runs"].get<int>() + j["commands"][1]["runs"].get<int>();
  EXPECT_LT(runs, 200) << "the first round ended before the limit: this tests nothing";
  EXPECT_TRUE(j["comparisons"][0]["resolved"].get<bool>());
}

// --until separated looks at a pair each time its runs have doubled, at falling levels
// (stats/repeated_looks.hpp). Two commands printing N(10, 1) readings from the helper's seed
// (deterministic): never resolved by 600 runs at seed 1, and the report names the looks taken
// and the level of the next; before, each round's end was a test at 5%, and equal commands were
// resolved a third of the time (validate_separated_looks).
TEST(CliBench, SeparatedLooksAtFallingLevels) {
  run_result r;
  const auto j =
      bench_json({"--preset", "quick", "--until", "separated", "--max-runs", "600", "--output",
                  "csv:x", "-n", "a", "-n", "b", helper + " normal 10 1", helper + " normal 10 1"},
                 1, &r);
  ASSERT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_EQ(j["stopped_because"], "max_runs");
  const auto& c = j["comparisons"][0];
  EXPECT_FALSE(c["resolved"].get<bool>());
  const auto looks = c["looks"].get<std::uint64_t>();
  // Blocks of one run each: 60 in the first round (quick's minimum, twice), then rounds of at
  // least double and at most five times the blocks, to 300 blocks at the limit: 2 to 5 looks.
  EXPECT_GE(looks, 2u);
  EXPECT_LE(looks, 5u);
  EXPECT_DOUBLE_EQ(c["level"].get<double>(), look_level(1 - 0.95, looks));  // alpha as bench has it
  EXPECT_GT(c["look_p"].get<double>(), c["level"].get<double>());
  EXPECT_NE(r.out.find("not resolved after " + std::to_string(looks) + " looks"), std::string::npos)
      << r.out;
}

// Three commands make three pairs, and --until separated stops on all of them together: each
// pair's looks share a third of 1 - confidence. The third command (mean 12) is told apart from
// both others; the first two (both mean 10) stay unresolved until the limit.
TEST(CliBench, SeparatedPairsShareTheErrorRate) {
  run_result r;
  const auto j =
      bench_json({"--preset", "quick", "--until", "separated", "--max-runs", "600", "--output",
                  "csv:x", "-n", "a", "-n", "b", "-n", "c", helper + " normal 10 1",
                  helper + " normal 10 1", helper + " normal 12 1"},
                 1, &r);
  ASSERT_EQ(r.exit_code, 3) << r.out << r.err;
  ASSERT_EQ(j["comparisons"].size(), 3u);
  for (const auto& c : j["comparisons"]) {
    const auto looks = c["looks"].get<std::uint64_t>();
    ASSERT_GE(looks, 1u);
    EXPECT_DOUBLE_EQ(c["level"].get<double>(), look_level((1 - 0.95) / 3, looks)) << c;
    EXPECT_EQ(c["resolved"].get<bool>(), c["b"] == "c") << c;
  }
}

// Means 10 and 11 (sd 1): resolved, at a look whose p is within its level, the right way round.
// The progress lines name the pair and its looks.
TEST(CliBench, SeparatedResolvesAtALookWithinItsLevel) {
  run_result r;
  const auto j =
      bench_json({"--preset", "quick", "--until", "separated", "--progress", "--output", "csv:x",
                  "-n", "a", "-n", "b", helper + " normal 10 1", helper + " normal 11 1"},
                 1, &r, false);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto& c = j["comparisons"][0];
  EXPECT_TRUE(c["resolved"].get<bool>());
  const auto looks = c["looks"].get<std::uint64_t>();
  EXPECT_GE(looks, 1u);
  EXPECT_DOUBLE_EQ(c["level"].get<double>(), look_level(1 - 0.95, looks));  // alpha as bench has it
  EXPECT_LE(c["look_p"].get<double>(), c["level"].get<double>());
  EXPECT_GT(c["ratio_ci_low"].get<double>(), 1.0);
  EXPECT_NE(r.out.find("resolved at look " + std::to_string(looks)), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("| b/a "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("resolved at look " + std::to_string(looks)), std::string::npos) << r.err;
}

// Readings of 60 for the program's first 20 runs, then 10, each with N(0, 1) noise drawn from the
// run's seed: the change-point removal finds the warm-up, and the mean is that of the fast runs.
// (Reported readings, not wall times: a loaded machine's timing drift must not decide the test.)
TEST(CliBench, WarmupRunsAreRemoved) {
  run_result r;
  const auto j = bench_json(
      {"--preset", "quick", "--output", "csv:x", "--", helper, "warmfirst", "20", "10", "60", "1"},
      1, &r);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto& x = quantity(j["commands"][0], "x");
  // Every slow run removed (a few fast ones may go with them), so that none biases the mean.
  EXPECT_GE(x["warmup"]["removed_begin"].get<int>(), 20) << r.out;
  EXPECT_LE(x["warmup"]["removed_begin"].get<int>(), 40) << r.out;
  EXPECT_NEAR(x["mean"].get<double>(), 10.0, 0.5) << r.out;  // the slow runs' 60 are gone
  EXPECT_NE(r.out.find("warm-up removed"), std::string::npos);
}

// A warm-up, then a step of the level at run 520 (readings 50 for 20 runs, 10 until run 520,
// 10.3 after, noise sd 0.1): the later level is the stable phase, and every run before it is
// removed, but the table and the JSON say how many were the warm-up (20-30:
// the search's own cut is 30) and how many an earlier level (statistics.md, "A warm-up ahead of
// an earlier level"). A width no session reaches keeps it running to --max-runs.
TEST(CliBench, AWarmupAheadOfAnEarlierLevelIsToldApart) {
  run_result r;
  const auto j = bench_json({"--ci-perc", "0.0001", "--max-runs", "1220", "--output", "csv:x", "--",
                             helper, "warmstep", "20", "50", "520", "10", "10.3", "0.1"},
                            1, &r);
  ASSERT_EQ(r.exit_code, 3) << r.out << r.err;  // not converged: --max-runs ended it
  const auto& x = quantity(j["commands"][0], "x");
  const auto removed = x["warmup"]["removed_begin"].get<int>();
  const auto lead = x["warmup"]["leading_warmup"].get<int>();
  EXPECT_NEAR(removed, 520, 10) << r.out;
  EXPECT_GE(lead, 20) << r.out;
  EXPECT_LE(lead, 30) << r.out;
  EXPECT_NEAR(x["mean"].get<double>(), 10.3, 0.05) << r.out;
  const std::string split = std::to_string(removed) + " removed before the stable phase (" +
                            std::to_string(lead) + " warm-up, then " +
                            std::to_string(removed - lead) + " of an earlier level)";
  EXPECT_NE(r.out.find(split), std::string::npos) << r.out;
}

// The JSON says how the runs' warm-up was treated, so that two exported sessions can be told
// apart: --cut-excursions and --no-warmup-removal (the default "on" is checked below).
TEST(CliBench, TheJsonSaysHowTheWarmupWasRemoved) {
  for (const auto& [flag, said] :
       {std::pair{"--cut-excursions", "cut-excursions"}, std::pair{"--no-warmup-removal", "off"}}) {
    run_result r;
    const auto j = bench_json({"--preset", "quick", flag, "--", helper, "sleep", "0"}, 1, &r);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(j["warmup_removal"], said);
  }
}

// --min-seconds holds a verdict until the runs add up to it: the helper's quick runs meet the
// quick preset within a few dozen, and the session goes on to 0.4 s of them; the JSON, the table
// and the progress lines say how much was measured. A floor above --max-seconds could never be
// met: exit 2.
TEST(CliBench, MinSecondsHoldsTheVerdictUntilTheRunsAddUpToIt) {
  run_result r;
  const auto j = bench_json(
      {"--preset", "quick", "--progress", "--min-seconds", "0.4", "--", helper, "sleep", "0"}, 1,
      &r, false);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(j["stopped_because"], "converged");
  EXPECT_EQ(j["min_seconds"], 0.4);
  EXPECT_EQ(j["warmup_removal"], "on");
  EXPECT_GE(j["commands"][0]["measured_seconds"].get<double>(), 0.4);
  EXPECT_NE(r.out.find(" s of runs"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find(" of --min-seconds 0.4 s"), std::string::npos) << r.err;

  const auto refused =
      run_mcpilot({"bench", "--quiet", "--max-seconds", "5", "--min-seconds", "6", "--", "true"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("--min-seconds"), std::string::npos) << refused.err;
}

// A session its limit ends says what the precision would still cost: the runs beyond those
// made that its required size asks for, counted in runs (3 readings each here), and their time.
// For N(10, 1) readings at +-0.1% that is about (1.96 / 0.01)^2 = 38,416 readings, 12,805 runs;
// the estimate from 120 readings may be off by a third either way.
TEST(CliBench, ALimitSaysHowManyMoreRunsThePrecisionNeeds) {
  run_result r;
  const auto j = bench_json({"--preset", "quick", "--ci-perc", "0.002", "--max-runs", "40",
                             "--output", "csv:x", "--", helper, "normal", "10", "1", "3"},
                            1, &r);
  ASSERT_EQ(r.exit_code, 3) << r.out << r.err;
  const auto& x = quantity(j["commands"][0], "x");
  const auto at = r.out.find("not converged (about ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const long long more = std::stoll(r.out.substr(at + 21));
  const auto need = x["required_samples"].get<long long>() +
                    x["warmup"]["removed_begin"].get<long long>() +
                    x["warmup"]["removed_end"].get<long long>();
  EXPECT_EQ(more, (need - x["n"].get<long long>() + 2) / 3);
  EXPECT_GT(more, 12805 * 2 / 3);
  EXPECT_LT(more, 12805 * 3 / 2);
  EXPECT_NE(r.out.find("more runs at the spread seen, "), std::string::npos) << r.out;
}

TEST(CliBench, MissingCommandIsAnInputError) {
  const auto r = run_mcpilot({"bench", "--quiet", "--", "no-such-program-mcpilot"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no-such-program-mcpilot"), std::string::npos) << r.err;
}

TEST(CliBench, FailingCommandGivesItsCodeAndStderr) {
  const auto r = run_mcpilot({"bench", "--quiet", "--", helper, "fail", "3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("exit code 3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("failing on purpose"), std::string::npos) << r.err;
}

TEST(CliBench, UnparsableOutputQuotesTheLine) {
  const auto r = run_mcpilot({"bench", "--quiet", "--output", "csv:x", "--", helper, "garbage"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("line 2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"not-a-number\""), std::string::npos) << r.err;
}

// Numeric options are range-checked as text: a negative count never wraps to 2^64 - 1 (which
// made --warmup -1 run warm-ups past --max-seconds).
TEST(CliBench, NegativeOrHugeNumbersAreUsageErrorsNamingTheOption) {
  for (const auto& [option, value] :
       std::vector<std::pair<std::string, std::string>>{{"--warmup", "-1"},
                                                        {"--max-runs", "-1"},
                                                        {"--max-runs", "2"},
                                                        {"--seed", "-1"},
                                                        {"--work-levels", "-3"},
                                                        {"--max-seconds", "-5"},
                                                        {"--max-seconds", "nan"},
                                                        {"--min-seconds", "-1"},
                                                        {"--min-seconds", "nan"}}) {
    const auto r = run_mcpilot({"bench", "--quiet", option, value, "--", helper, "sleep", "0"});
    EXPECT_EQ(r.exit_code, 2) << option << ' ' << value << '\n' << r.err;
    EXPECT_NE(r.err.find(option), std::string::npos) << r.err;
  }
}

// --output csv from a command that prints nothing is the command's mistake: exit 2, with what it
// printed, not exit 3 after a session without readings.
TEST(CliBench, CsvOutputFromACommandThatPrintsNothing) {
  const auto r = run_mcpilot({"bench", "--quiet", "--output", "csv", "--", helper, "sleep", "0"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("printed no reading line"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(nothing)"), std::string::npos) << r.err;
}

TEST(CliBench, WorkAmountNeedsWorkMax) {
  const auto r = run_mcpilot(
      {"bench", "--quiet", "--work-initial", "10", "--", helper, "work", "%WORK_AMOUNT%"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--work-max"), std::string::npos) << r.err;
}

TEST(CliBench, ExportsRawReadingsWithRunAndTime) {
  const temp_file csv("", ".csv"), md("", ".md");
  const auto r =
      run_mcpilot({"bench", "--quiet", "--preset", "quick", "--max-runs", "12", "--export-csv",
                   csv.path(), "--export-markdown", md.path(), "--", helper, "sleep", "0.001"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;  // stopped by --max-runs before converging
  const std::string text = slurp(csv.path());
  EXPECT_EQ(text.rfind("run,command,timestamp_s,quantity,value\n", 0), 0u);
  EXPECT_NE(text.find("\n11,"), std::string::npos);  // the 12th run, numbered from 0
  EXPECT_NE(slurp(md.path()).find("| Command |"), std::string::npos);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot::test

namespace mcpilot::test {
namespace MCPILOT_TEST_FILE {

// --parameter-scan: one session per value, the sweep table with one row per value and quantity,
// in the format `mcpilot scaling` reads.
TEST(CliBenchScan, OneSessionPerValueAndTheSweepTable) {
  const temp_file sweep("", ".csv");
  const auto r =
      run_mcpilot({"bench", "--quiet", "--preset", "quick", "--max-runs", "20", "--parameter-scan",
                   "k", "1", "4", "--geometric", "2", "--export-sweep", sweep.path(), "--", helper,
                   "normal", "{k}", "0.1"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;  // --max-runs 20 stops each session short
  const std::string t = slurp(sweep.path());
  EXPECT_EQ(t.rfind("point,k,quantity,mean,ci_low,ci_high,ci_width_rel,readings,converged,"
                    "stopped_because,analytic\n",
                    0),
            0u)
      << t;
  for (const char* row : {"\n0,1,wall_time,", "\n1,2,wall_time,", "\n2,4,wall_time,"})
    EXPECT_NE(t.find(row), std::string::npos) << row << '\n' << t;
}

TEST(CliBenchScan, CommandNamesWithCommasAreQuotedInTheSweepTable) {
  // Each row names its quantity "command:quantity"; a comma in a command's name must not split
  // the row into one column more (read back by the sweep table's own reader).
  const temp_file sweep("", ".csv");
  const auto r = run_mcpilot({"bench", "--quiet", "--max-runs", "10", "--parameter-scan", "k", "1",
                              "2", "--export-sweep", sweep.path(), "-n", "a,1", "-n", "say \"b\"",
                              helper + " sleep 0.000{k}", helper + " sleep 0"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  const auto t = read_csv_table(sweep.path());
  const auto q = t.find("quantity");
  ASSERT_TRUE(q.has_value()) << t.columns();
  std::set<std::string> names;
  for (const auto& row : t.rows) {
    ASSERT_EQ(row.cells.size(), t.header.size()) << t.where(row, 0);
    names.insert(row.cells[*q]);
  }
  EXPECT_TRUE(names.count("a,1:wall_time")) << slurp(sweep.path());
  EXPECT_TRUE(names.count("say \"b\":wall_time")) << slurp(sweep.path());
}

TEST(CliBenchScan, ParameterMissingFromTheCommand) {
  const auto r = run_mcpilot(
      {"bench", "--quiet", "--parameter-scan", "k", "1", "2", "--", helper, "sleep", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("{k}"), std::string::npos) << r.err;
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot::test

namespace mcpilot::test {
namespace MCPILOT_TEST_FILE {

// The order of the runs of several commands is a seeded shuffle: the same seed gives the same
// order, another seed another one (the first round, cut by --max-runs, is fixed by the seed alone).
std::string run_order(unsigned seed) {
  const temp_file csv("", ".csv");
  const auto r = run_mcpilot({"bench", "--quiet", "--max-runs", "30", "--seed",
                              std::to_string(seed), "--export-csv", csv.path(), "-n", "a", "-n",
                              "b", helper + " sleep 0", helper + " sleep 0.0001"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  std::string order;
  std::istringstream in(slurp(csv.path()));
  for (std::string line; std::getline(in, line);)
    if (line.find(",wall_time,") != std::string::npos) order += line.substr(line.find(',') + 1, 1);
  return order;
}

TEST(CliBench, InterleavingIsSeeded) {
  const std::string a = run_order(1), b = run_order(1), c = run_order(2);
  EXPECT_EQ(a.size(), 30u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a.find('a'), std::string::npos);
  EXPECT_NE(a.find('b'), std::string::npos);
}

// SIGTERM during a session (handled as Ctrl-C is; a background job of a non-interactive shell
// ignores SIGINT, so the test sends SIGTERM): exit 130, and the results so far are written.
TEST(CliBench, InterruptWritesResultsSoFar) {
  const temp_file json("", ".json");
  const std::string cmd =
      "setsid sh -c " +
      shell_quote(shell_quote(MCPILOT_EXE) + " bench --quiet --export-json " +
                  shell_quote(json.path()) + " -- " + shell_quote(helper) +
                  " sleep 0.02 >/dev/null 2>&1 & pid=$!; sleep 1; kill -TERM $pid; " +
                  "wait $pid; echo $? > " + shell_quote(json.path() + ".rc")) +
      " >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(slurp(json.path() + ".rc"), "130\n");
  std::filesystem::remove(json.path() + ".rc");
  const auto j = nlohmann::json::parse(slurp(json.path()));
  EXPECT_EQ(j["stopped_because"], "interrupted");
  EXPECT_GT(j["runs"].get<int>(), 5);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot::test
