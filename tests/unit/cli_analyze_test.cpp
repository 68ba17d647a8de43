// `mcpilot analyze`: the JSON contract of docs/cli-analysis.md, its exit codes, and every bad
// input named at file:line:column.
#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "cli_test_support.hpp"
#include "mcpilot/stats/adjusted_interval.hpp"

namespace MCPILOT_TEST_FILE {

using mcpilot::test::column_csv;
using mcpilot::test::run_mcpilot;
using mcpilot::test::temp_file;
using nlohmann::json;

// Lag-1 autocorrelation -0.020 (below every preset's limit, so one reading per subsession),
// computed in R as sum((x[-1]-m)*(x[-n]-m))/sum((x-m)^2).
const std::vector<double> small_sample = {10.9, 9.1,  10,   9.5, 9.8,  10.4,
                                          10.2, 11.1, 11.5, 9.9, 10.6, 8.7};

json analyze_json(const std::vector<std::string>& args, const std::string& stdin_text = "") {
  const auto r = run_mcpilot(args, stdin_text);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return json::parse(r.out);  // stdout holds the JSON object and nothing else
}

TEST(CliAnalyze, JsonHasTheContractFieldsWithRsValues) {
  const temp_file f(column_csv(small_sample, "latency_ms"));
  const json j = analyze_json({"analyze", f.path(), "--json", "--interval", "pilot"});
  for (const char* key :
       {"n", "mean", "ci_low", "ci_high", "ci_width", "ci_width_rel", "subsession_size",
        "subsession_count", "autocorrelation", "subsession_autocorrelation", "required_samples",
        "converged", "kind", "confidence", "warmup", "n_used", "remainder", "status"})
    EXPECT_TRUE(j.contains(key)) << key;
  for (const char* key :
       {"removed_begin", "removed_end", "changepoints", "p_values", "accepted", "resolution"})
    EXPECT_TRUE(j["warmup"].contains(key)) << key;
  EXPECT_EQ(j["n"], 12);
  EXPECT_EQ(j["kind"], "ordinary");
  EXPECT_EQ(j["confidence"], 0.95);
  EXPECT_EQ(j["subsession_size"], 1);
  EXPECT_EQ(j["subsession_count"], 12);
  // R: mean(x) = 10.1416666666667; t.test(x)$conf.int = [9.62091834372724, 10.66241498960609]
  EXPECT_NEAR(j["mean"].get<double>(), 10.1416666666667, 1e-12);
  EXPECT_NEAR(j["ci_low"].get<double>(), 9.62091834372724, 1e-10);
  EXPECT_NEAR(j["ci_high"].get<double>(), 10.66241498960609, 1e-10);
  EXPECT_NEAR(j["ci_width"].get<double>(), 10.66241498960609 - 9.62091834372724, 1e-10);
  EXPECT_NEAR(j["autocorrelation"].get<double>(), -0.0199710537197851, 1e-12);
  // 12 subsession means are fewer than normal's 50: not converged, 50 readings required.
  EXPECT_EQ(j["converged"], false);
  EXPECT_EQ(j["required_samples"], 50);
  EXPECT_EQ(j["unreachable"], false);
}

TEST(CliAnalyze, NotConvergedStillExitsZeroAndSaysWhy) {
  const temp_file f(column_csv(small_sample));
  const auto r = run_mcpilot({"analyze", f.path(), "--interval", "pilot"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("10.14 [9.62, 10.66] (±5.1%)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("converged        no: needs more readings"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST(CliAnalyze, PresetAndOverridesAreUsed) {
  const temp_file f(column_csv(small_sample));
  // Width 1.041 is just over 10% of the mean 10.14 (R: diff(t.test(x)$conf.int) / mean(x) =
  // 0.1027); R: the smallest h with h >= (2 qt(.975, h-1) sd(x) / (0.1 mean(x)))^2 is 13.
  json j =
      analyze_json({"analyze", f.path(), "--json", "--interval", "pilot", "--min-samples", "10"});
  EXPECT_EQ(j["converged"], false);
  EXPECT_EQ(j["required_samples"], 13);
  j = analyze_json({"analyze", f.path(), "--json", "--interval", "pilot", "--min-samples", "10",
                    "--ci-perc", "0.11"});
  EXPECT_EQ(j["converged"], true);
  j = analyze_json({"analyze", f.path(), "--json", "--interval", "pilot", "--preset", "strict"});
  EXPECT_EQ(j["required_samples"], 200);
  EXPECT_EQ(j["requirements"]["ac"], 0.1);
  // One key per field: the precision's words are run --json's, and its older name is gone.
  EXPECT_FALSE(j["requirements"].contains("autocorrelation_limit"));
  j = analyze_json(
      {"analyze", f.path(), "--json", "--interval", "pilot", "--ci", "0.5", "--min-samples", "10"});
  EXPECT_EQ(j["target_width"], 0.5);
  EXPECT_EQ(j["converged"], false);
  // R: qt(0.995, 11) widens the interval: t.test(x, conf.level = 0.99)$conf.int
  //   = [9.40683957029766, 10.87649376303568]
  j = analyze_json({"analyze", f.path(), "--json", "--interval", "pilot", "--confidence", "0.99"});
  EXPECT_NEAR(j["ci_low"].get<double>(), 9.40683957029766, 1e-9);
  EXPECT_NEAR(j["ci_high"].get<double>(), 10.87649376303568, 1e-9);
}

TEST(CliAnalyze, AdjustedIntervalIsTheDefaultAndSaysSo) {
  const temp_file f(column_csv(small_sample));
  const json adjusted = analyze_json({"analyze", f.path(), "--json"});
  const json pilot = analyze_json({"analyze", f.path(), "--json", "--interval", "pilot"});
  EXPECT_EQ(adjusted["interval"], "adjusted");
  EXPECT_EQ(adjusted["requirements"]["interval"], "adjusted");
  EXPECT_EQ(pilot["interval"], "pilot");
  EXPECT_EQ(pilot["variance_inflation"], 1.0);
  // 12 readings, lag-1 -0.0199710537197851 (R): corrected (12 r + 1) / 8 = 0.09504342, so the
  // variance is multiplied by 1.0950434 / 0.9049566 and the width by its square root.
  const double r = (12 * -0.0199710537197851 + 1) / 8;
  const double a = (1 + r) / (1 - r);
  EXPECT_NEAR(adjusted["variance_inflation"].get<double>(), a, 1e-12);
  // Skewness G1 = -0.10135421758205151 (exact moments, Python fractions), so beta = G1 / (6
  // sqrt 12) and the interval is [x - G(t) se, x - G(-t) se] with t = qt(0.975, 11) and se
  // Pilot's half-width sqrt(a) / t: a little wider than Pilot's times sqrt(a), and moved down.
  const double skew = -0.10135421758205151, beta = skew / (6 * std::sqrt(12.0));
  EXPECT_NEAR(adjusted["subsession_skewness"].get<double>(), skew, 1e-12);
  EXPECT_TRUE(pilot["subsession_skewness"].is_null());
  const double t = 2.200985160082949;  // qt(0.975, 11)
  const double se = pilot["ci_width"].get<double>() / 2 / t * std::sqrt(a);
  const double mean = pilot["mean"].get<double>();
  EXPECT_NEAR(adjusted["ci_low"].get<double>(),
              mean - mcpilot::skewness_adjusted_quantile(t, beta) * se, 1e-10);
  EXPECT_NEAR(adjusted["ci_high"].get<double>(),
              mean - mcpilot::skewness_adjusted_quantile(-t, beta) * se, 1e-10);
  EXPECT_LT(adjusted["interval_shift"].get<double>(), 0);
  EXPECT_EQ(pilot["interval_shift"].get<double>(), 0);
  EXPECT_EQ(adjusted["mean"], pilot["mean"]);
  const auto bad = run_mcpilot({"analyze", f.path(), "--interval", "wide"});
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(CliAnalyze, ReadsStandardInput) {
  const json j = analyze_json({"analyze", "-", "--json"}, column_csv(small_sample));
  EXPECT_EQ(j["n"], 12);
  EXPECT_EQ(j["source"], "<stdin>");
}

TEST(CliAnalyze, ColumnAndHeaderOptions) {
  std::string csv = "0,0\n";  // numeric first line: data unless --header
  for (std::size_t i = 0; i < small_sample.size(); ++i)
    csv += std::to_string(i) + "," + std::to_string(small_sample[i]) + "\n";
  const temp_file f(csv);
  json j = analyze_json({"analyze", f.path(), "--json", "--column", "1", "--header"});
  EXPECT_EQ(j["n"], 12);
  EXPECT_NEAR(j["mean"].get<double>(), 10.1416666666667, 1e-12);
  j = analyze_json({"analyze", f.path(), "--json", "--column", "1"});
  EXPECT_EQ(j["n"], 13);
}

TEST(CliAnalyze, RateUsesTheHarmonicMeanAndReciprocalInterval) {
  const temp_file f(column_csv(small_sample));
  const json j =
      analyze_json({"analyze", f.path(), "--json", "--kind", "rate", "--interval", "pilot"});
  EXPECT_EQ(j["kind"], "rate");
  // R: y <- 1/x; 1/mean(y) = 10.0800597876109; ci <- t.test(y)$conf.int;
  //    c(1/ci[2], 1/ci[1]) = 9.57905032412212 10.63636983552290
  EXPECT_NEAR(j["mean"].get<double>(), 10.0800597876109, 1e-11);
  EXPECT_NEAR(j["ci_low"].get<double>(), 9.57905032412212, 1e-9);
  EXPECT_NEAR(j["ci_high"].get<double>(), 10.63636983552290, 1e-9);
}

TEST(CliAnalyze, ProportionWithNoEventsGivesAOneSidedBound) {
  const temp_file f(column_csv(std::vector<double>(40, 0.0)));
  const json j = analyze_json({"analyze", f.path(), "--json", "--kind", "proportion"});
  EXPECT_EQ(j["one_sided"], true);
  EXPECT_EQ(j["ci_low"], 0.0);
  // R: 1 - 0.05^(1/40) = 0.0721575245055146 (exact Clopper-Pearson one-sided bound)
  EXPECT_NEAR(j["ci_high"].get<double>(), 0.0721575245055146, 1e-12);
  // p may be as large as the bound, and a relative width needs fewer trials the larger p is, so
  // the trials needed at p = bound are a lower bound on the need. Normal preset (+-5%, whole 10%):
  // R: u <- 1 - 0.05^(1/40); s <- sqrt(u*(1-u)); h <- 2
  //    while (2*qt(0.975, h-1)*s/sqrt(h) > 0.1*u) h <- h+1; h  -> 19761
  EXPECT_EQ(j["required_samples"], 19761);
  EXPECT_EQ(j["unreachable"], false);
  EXPECT_EQ(j["converged"], false);
}

TEST(CliAnalyze, WarmupIsRemovedFromTheShippedSample) {
  const std::string sample = std::string(MCPILOT_SOURCE_DIR) + "/configs/samples/latency.csv";
  const json j = analyze_json({"analyze", sample, "--json"});
  EXPECT_EQ(j["n"], 2000);
  const json& w = j["warmup"];
  EXPECT_EQ(w["applied"], true);
  EXPECT_EQ(w["accepted"], true);
  // The generator slows the first 150 readings (scripts/make-sample-latency.py).
  EXPECT_GE(w["removed_begin"].get<int>(), 130);
  EXPECT_LE(w["removed_begin"].get<int>(), 170);
  EXPECT_EQ(w["changepoints"].size(), w["p_values"].size());
  EXPECT_EQ(w["resolution"], 1);  // 2,000 readings are searched one by one
  // Every reading is accounted for: removed, used, or past the last whole subsession.
  EXPECT_EQ(w["removed_begin"].get<int>() + w["removed_end"].get<int>() + j["n_used"].get<int>() +
                j["remainder"].get<int>(),
            2000);
  EXPECT_EQ(j["n_used"], j["subsession_size"].get<int>() * j["subsession_count"].get<int>());

  const json all = analyze_json({"analyze", sample, "--json", "--no-warmup-removal"});
  EXPECT_EQ(all["warmup"]["applied"], false);
  EXPECT_EQ(all["warmup"]["removed_begin"], 0);
  // The slow warm-up pulls the mean up when it is kept.
  EXPECT_GT(all["mean"].get<double>(), j["mean"].get<double>());
}

TEST(CliAnalyze, AWarmupAheadOfAnEarlierLevelInARecordedSession) {
  // bench's slow-start case as recorded on 2026-12-06 (docs/bench.md, "A seventh run"): 20 runs
  // of about 52 ms, then levels alternating between 11.7 and 11.93 ms over about 100 runs, the
  // last from run 514. The search cuts at 60 (its first segment holds the 20 slow runs), 176, 279,
  // 350, 414 and 514; the start screen on the readings before the phase finds the 20. Before the
  // screen the report said "514 warm-up" and a drift of 2.19 ms, the slow runs averaged into the
  // first level. (Before the few-batch fallback of the search, 2026-12-06, it cut at 384, 414 and
  // 514 only.)
  const std::string sample =
      std::string(MCPILOT_SOURCE_DIR) + "/configs/samples/slow-start-then-step.csv";
  const json j = analyze_json({"analyze", sample, "--json"});
  EXPECT_EQ(j["n"], 1190);
  const json& w = j["warmup"];
  EXPECT_EQ(w["leading_warmup"], 20);
  EXPECT_EQ(w["changepoints"], json::array({20, 60, 176, 279, 350, 414, 514}));
  EXPECT_EQ(w["changepoints"].size(), w["p_values"].size());
  // The levels after the warm-up: 11.7-11.93 ms, so a drift under half a millisecond.
  EXPECT_GT(j["phase"]["drift"].get<double>(), 0.0001);
  EXPECT_LT(j["phase"]["drift"].get<double>(), 0.0005);
  // The level came back after each dip to 11.7 ms (279-350, 414-514), well within the normal
  // preset's half-width of 5%: the phase spans them as excursions, from 176 on. Before
  // keep_excursions (2026-12-06) it was the last segment alone, from 514.
  EXPECT_EQ(w["removed_begin"], 176);
  EXPECT_EQ(w["excursions"], 171);
  EXPECT_EQ(j["warmup_removal"], "on");
  const auto text = run_mcpilot({"analyze", sample});
  EXPECT_NE(text.out.find("176 at the start (20 warm-up, then 156 of an earlier level)"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("171 readings kept inside the phase"), std::string::npos) << text.out;
  // At +-0.1% (a half-width of 0.012 ms) the phase reaches back over the dip at 414 to 350, and
  // no further: with that dip in it, its level is 11.903 ms, and 176-279 (11.929) is farther
  // from it than the asked half-width.
  const json k = analyze_json({"analyze", sample, "--json", "--ci-perc", "0.002"});
  EXPECT_EQ(k["warmup"]["removed_begin"], 350);
  EXPECT_EQ(k["warmup"]["excursions"], 100);
}

// --cut-excursions is Pilot's rule: the same change-points, and the phase the last segment alone,
// from 514, as before keep_excursions. With warm-up removal off it has nothing to change.
TEST(CliAnalyze, CutExcursionsLeavesTheLongestSegmentAlone) {
  const std::string sample =
      std::string(MCPILOT_SOURCE_DIR) + "/configs/samples/slow-start-then-step.csv";
  const json j = analyze_json({"analyze", sample, "--json", "--cut-excursions"});
  const json& w = j["warmup"];
  EXPECT_EQ(w["changepoints"], json::array({20, 60, 176, 279, 350, 414, 514}));
  EXPECT_EQ(w["removed_begin"], 514);
  EXPECT_EQ(w["excursions"], 0);
  EXPECT_EQ(j["warmup_removal"], "cut-excursions");
  const auto text = run_mcpilot({"analyze", sample, "--cut-excursions"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("cut (--cut-excursions)"), std::string::npos) << text.out;
  const auto both = run_mcpilot({"analyze", sample, "--cut-excursions", "--no-warmup-removal"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--cut-excursions"), std::string::npos) << both.err;
}
// docs/statistics.md, "A step among wandering runs": a bench session of 20 runs at 30 ms, then
// about 3.5 ms until run 300 and 5.6 ms after, each level wandering over tens of runs. Before the
// search's few-batch fallback nothing was found but the 20 slow runs, and the interval mixed both
// levels (4.5 ms +-92% on 3 subsessions of 171 runs).
TEST(CliAnalyze, AStepAmongWanderingRunsGivesTheLaterLevel) {
  const std::string sample =
      std::string(MCPILOT_SOURCE_DIR) + "/docs/data/step-among-wandering-runs.csv";
  const json j = analyze_json({"analyze", sample, "--json"});
  const json& w = j["warmup"];
  ASSERT_EQ(w["changepoints"].size(), 2u) << w.dump();
  EXPECT_EQ(w["changepoints"][0], 20);
  EXPECT_NEAR(w["changepoints"][1].get<double>(), 300, 10);
  EXPECT_EQ(w["leading_warmup"], 20);
  EXPECT_EQ(w["accepted"], true);
  // The later level, about 5.6 ms, and the step of about 2.2 ms from the one before.
  EXPECT_NEAR(j["mean"].get<double>(), 0.0057, 0.0003);
  EXPECT_NEAR(j["phase"]["shift"].get<double>(), 0.0022, 0.0003);
}

// Past 2^15 readings the warm-up is searched on means of ceil(n / 2^15) readings
// (docs/statistics.md): 40,000 readings, b = 2, a warm-up of 1,001 readings 2 sd low.
TEST(CliAnalyze, WarmupOfALongSeriesIsSearchedOnMeans) {
  std::mt19937_64 rng(15);
  boost::random::normal_distribution<double> noise;
  std::vector<double> x(40000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 100 + noise(rng) - (i < 1001 ? 2.0 : 0.0);
  const temp_file f(column_csv(x));
  const json j = analyze_json({"analyze", f.path(), "--json"});
  const json& w = j["warmup"];
  EXPECT_EQ(w["resolution"], 2);
  ASSERT_EQ(w["changepoints"].size(), 1u) << w.dump();
  const int begin = w["removed_begin"].get<int>();
  EXPECT_EQ(begin % 2, 0);
  EXPECT_NEAR(begin, 1001, 10);
  EXPECT_EQ(
      begin + w["removed_end"].get<int>() + j["n_used"].get<int>() + j["remainder"].get<int>(),
      40000);
  const auto human = run_mcpilot({"analyze", f.path()});
  EXPECT_NE(human.out.find("(searched on means of 2 readings: no segment shorter than 60)"),
            std::string::npos)
      << human.out;
  // --changepoint-max-points 0 searches reading by reading; fewer than two segments is an error.
  const json whole = analyze_json({"analyze", f.path(), "--json", "--changepoint-max-points", "0"});
  EXPECT_EQ(whole["warmup"]["resolution"], 1);
  EXPECT_NEAR(whole["warmup"]["removed_begin"].get<int>(), 1001, 10);
  const auto bad = run_mcpilot({"analyze", f.path(), "--changepoint-max-points", "59"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--changepoint-max-points must be 0 or at least 60, got 59"),
            std::string::npos)
      << bad.err;
}

TEST(CliAnalyze, HumanViewOfTheSample) {
  const auto r =
      run_mcpilot({"analyze", std::string(MCPILOT_SOURCE_DIR) + "/configs/samples/latency.csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* s : {"mean", "interval width", "readings used", "subsession size", "removed",
                        "at the start (warm-up)", "required", "converged        yes"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
}

TEST(CliAnalyze, WpsFitMatchesR) {
  // T = 3 + 0.01 w + e with e = (0.3,-0.2,0.1,0.4,-0.5,0.2,-0.1,0.3,-0.4,-0.1).
  // R: m <- lm(T ~ w): coef = 3.16, 0.00970909090909091; confint(m)["w",] =
  //    [0.00891118509394921, 0.01050699672423262]; rates 1/upper = 95.1746751470540,
  //    1/lower = 112.2185196982398, 1/beta = 102.9962546816479; sum(w)/sum(T) = 64.7058823529412
  const double T[] = {4.3, 4.8, 6.1, 7.4, 7.5, 9.2, 9.9, 11.3, 11.6, 12.9};
  std::string csv = "work,seconds\n";
  for (int i = 0; i < 10; ++i)
    csv += std::to_string((i + 1) * 100) + "," + std::to_string(T[i]) + "\n";
  const temp_file f(csv);
  // The residuals' lag-1 autocorrelation is -0.6287 (by hand from the residuals of the R fit),
  // beyond normal's 0.2 limit, and 10 rounds leave no subsession size that meets it: --ac 0.9
  // keeps the rounds ungrouped, so that the fit is R's lm on all 10.
  const json j = analyze_json({"analyze", f.path(), "--wps", "0,1", "--json", "--ac", "0.9"});
  const json& w = j["wps"];
  EXPECT_NEAR(w["alpha"].get<double>(), 3.16, 1e-9);
  EXPECT_NEAR(w["beta"].get<double>(), 0.00970909090909091, 1e-14);
  EXPECT_NEAR(w["rate"].get<double>(), 102.9962546816479, 1e-9);
  EXPECT_NEAR(w["rate_ci_low"].get<double>(), 95.1746751470540, 1e-8);
  EXPECT_NEAR(w["rate_ci_high"].get<double>(), 112.2185196982398, 1e-8);
  EXPECT_NEAR(w["naive_rate"].get<double>(), 64.7058823529412, 1e-9);
  EXPECT_EQ(w["rounds_used"], 10);

  const auto human = run_mcpilot({"analyze", f.path(), "--wps", "0,1", "--ac", "0.9"});
  EXPECT_EQ(human.exit_code, 0);
  EXPECT_NE(human.out.find("103.0 [95.2, 112.2]"), std::string::npos) << human.out;
}

TEST(CliAnalyze, WpsRateHasNoIntervalWhenTheSlopeIntervalContainsZero) {
  // R: confint(lm(T2 ~ w))["w",] = [-0.0006028193, 0.0003603951]: contains 0. The seed gives
  // the rate no interval at all then. Residuals' lag-1 -0.7263 (by hand): --ac 0.9 as above.
  const double T[] = {5.1, 4.9, 5.3, 4.8, 5.0, 5.2, 4.7, 5.1, 4.9, 5.0};
  std::string csv;
  for (int i = 0; i < 10; ++i)
    csv += std::to_string((i + 1) * 100) + "," + std::to_string(T[i]) + "\n";
  const temp_file f(csv);
  const json j = analyze_json({"analyze", f.path(), "--wps", "0,1", "--json", "--ac", "0.9"});
  EXPECT_TRUE(j["wps"]["rate_ci_high"].is_null());
  EXPECT_TRUE(j["wps"]["rate_ci_low"].is_null());
  EXPECT_TRUE(j["wps"]["rate"].is_null());  // beta = -0.000121 < 0: 1/beta is no rate
  EXPECT_EQ(j["wps"]["verdict"], "the slope's interval contains 0");
}

// ---- bad input: exit 2, a message naming where, nothing on stdout ----

void expect_input_error(const mcpilot::test::run_result& r, const std::string& message) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(message), std::string::npos) << "stderr: " << r.err;
}

TEST(CliAnalyzeBadInput, EmptyFile) {
  const temp_file f("");
  expect_input_error(run_mcpilot({"analyze", f.path()}),
                     "mcpilot: error: " + f.path() + ": no readings: the file is empty");
}

TEST(CliAnalyzeBadInput, NonNumericCell) {
  const temp_file f("x\n1\n2\nabc\n4\n");
  expect_input_error(run_mcpilot({"analyze", f.path(), "--json"}),
                     f.path() + ":4:1: field 0 \"abc\" is not a number");
}

TEST(CliAnalyzeBadInput, NanAndInf) {
  const temp_file nan("1\n2\n3\nNaN\n"), inf("1\n2\n3,\ninf\n");
  expect_input_error(run_mcpilot({"analyze", nan.path()}), nan.path() + ":4:1: field 0 \"NaN\"");
  expect_input_error(run_mcpilot({"analyze", inf.path()}), inf.path() + ":4:1: field 0 \"inf\"");
}

TEST(CliAnalyzeBadInput, RateNotPositiveNamesTheReading) {
  const temp_file f("rate\n3.5\n2.5\n\n0\n4\n");
  expect_input_error(run_mcpilot({"analyze", f.path(), "--kind", "rate"}),
                     f.path() + ":5:1: field 0: a rate must be a finite number > 0");
  const temp_file g("a,b\n1,3.5\n2,-1\n3,4\n");
  expect_input_error(run_mcpilot({"analyze", g.path(), "--kind", "rate", "--column", "1"}),
                     g.path() + ":3:3: field 1: a rate must be");
}

TEST(CliAnalyzeBadInput, ProportionNotZeroOrOne) {
  const temp_file f("0\n1\n1\n0.5\n");
  expect_input_error(run_mcpilot({"analyze", f.path(), "--kind", "proportion"}),
                     f.path() + ":4:1: field 0: a proportion's readings must be 0 or 1, got 0.5");
}

TEST(CliAnalyzeBadInput, TheRejectedReadingIsShownAsItWasRead) {
  // The value in the message reads back as the reading: 1e-9 is not shown as "0.000000", which
  // would look like an acceptable 0 among proportions, nor -1e-300 as "-0.000000".
  const temp_file f("0\n1\n1\n1e-9\n");
  expect_input_error(run_mcpilot({"analyze", f.path(), "--kind", "proportion"}),
                     f.path() + ":4:1: field 0: a proportion's readings must be 0 or 1, got 1e-09");
  const temp_file g("rate\n3.5\n-1e-300\n");
  expect_input_error(run_mcpilot({"analyze", g.path(), "--kind", "rate"}),
                     g.path() + ":3:1: field 0: a rate must be a finite number > 0, got -1e-300");
  const temp_file h("rate\n3.5\n0.1\n-0\n");
  expect_input_error(run_mcpilot({"analyze", h.path(), "--kind", "rate"}),
                     h.path() + ":4:1: field 0: a rate must be a finite number > 0, got -0");
}

TEST(CliAnalyzeBadInput, TooFewReadingsSaysHowManyAreNeeded) {
  expect_input_error(run_mcpilot({"analyze", "-"}, "x\n1\n2\n"),
                     "<stdin>: 2 readings; at least 3 are needed for an interval, and 50");
}

TEST(CliAnalyzeBadInput, UnreadableFile) {
  expect_input_error(run_mcpilot({"analyze", "/nonexistent/x.csv"}),
                     "/nonexistent/x.csv: cannot open: No such file or directory");
}

TEST(CliAnalyzeBadInput, UsageErrors) {
  const temp_file f(column_csv(small_sample));
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"analyze", f.path(), "--bogus"},
           {"analyze", f.path(), "--kind", "speed"},
           {"analyze", f.path(), "--preset", "fast"},
           {"analyze", f.path(), "--confidence", "1.5"},
           {"analyze", f.path(), "--ci-perc", "0"},
           {"analyze", f.path(), "--column", "x"},
           {"analyze", f.path(), "--column", "-1"},
           {"analyze", f.path(), "--wps", "0"},
           {"analyze", f.path(), "--wps", "0,1", "--kind", "rate"},
           {"analyze"},
       }) {
    const auto r = run_mcpilot(args);
    EXPECT_EQ(r.exit_code, 2) << args.back() << ": " << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(r.err.empty());
  }
}

// A number option says its range, open or closed, and echoes what it got: text that is not a
// number (or has something after it) quoted, a number outside the range as typed.
TEST(CliAnalyzeBadInput, ANumberOptionSaysItsRange) {
  const temp_file f(column_csv(small_sample));
  for (const auto& [args, said] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"analyze", f.path(), "--confidence", "1"}, "expects a number in (0, 1), got 1"},
           {{"analyze", f.path(), "--confidence", "0.9x"},
            "expects a number in (0, 1), got '0.9x'"},
           {{"analyze", f.path(), "--ci-perc", "-2"}, "expects a number > 0, got -2"},
           {{"bench", "--min-seconds", "-1", "--", "true"},
            "expects a number in [0, 1e+09], got -1"},
           {{"bench", "--min-seconds", "", "--", "true"}, "expects a number in [0, 1e+09], got ''"},
       }) {
    const auto r = run_mcpilot(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(said), std::string::npos) << r.err;
  }
  // The closed range holds its ends: a floor of 0 s runs (3: stopped at --max-runs, unconverged).
  const auto ends = run_mcpilot({"bench", "--min-seconds", "0", "--max-runs", "3", "--", "true"});
  EXPECT_EQ(ends.exit_code, 3) << ends.err;
}

TEST(CliAnalyzeBadInput, MedianOfARate) {
  const temp_file f("1\n2\n3\n4\n5\n6\n7\n8\n");
  expect_input_error(
      run_mcpilot({"analyze", f.path(), "--kind", "rate", "--statistic", "median"}),
      "--statistic median: the median is for ordinary readings; a rate has its own estimate (the "
      "harmonic mean)");
}

}  // namespace MCPILOT_TEST_FILE
