// `mcpilot scaling`: the JSON fields, the labels on seeded synthetic files, sweep tables, exit
// codes, every bad input named at file:line and field, and the plot (well-formed SVG holding the
// expected series).
#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_test_support.hpp"
#include "mcpilot/io/scaling_plot.hpp"
#include "mcpilot/rng.hpp"
#include "mcpilot/stats/scaling.hpp"
#include "svg_check.hpp"

namespace MCPILOT_TEST_FILE {

using mcpilot::test::run_mcpilot;
using mcpilot::test::temp_file;
using nlohmann::json;

// n,time,run_id rows: `runs` per size 2^lo .. 2^hi, truth(n) (1 + 5% z), z from Philox(seed).
template <class F>
std::string timings_csv(int lo, int hi, int runs, std::uint64_t seed, F truth) {
  mcpilot::philox_stream g(seed, 0);
  boost::random::normal_distribution<double> z;
  std::ostringstream s;
  s.precision(17);
  s << "n,time,run_id\n";
  for (int e = lo; e <= hi; ++e)
    for (int j = 0; j < runs; ++j) {
      const double n = std::ldexp(1.0, e);
      s << n << ',' << truth(n) * (1 + 0.05 * z(g)) << ',' << j + 1 << '\n';
    }
  return s.str();
}

const auto n_log_n = [](double n) { return 3e-9 * n * std::log2(n); };

json scaling_json(const std::vector<std::string>& args, const std::string& stdin_text = "") {
  const auto r = run_mcpilot(args, stdin_text);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return json::parse(r.out);
}

TEST(CliScaling, JsonHasItsFieldsAndTheKnownAnswer) {
  const temp_file f(timings_csv(7, 16, 5, 21, n_log_n));
  const json j = scaling_json(
      {"scaling", f.path(), "--json", "--models", "linear,n_log_n,quadratic", "--seed", "7"});
  for (const char* key : {"source",
                          "n_column",
                          "value_column",
                          "status",
                          "label",
                          "statement",
                          "best",
                          "exploratory",
                          "models",
                          "design_problems",
                          "warnings",
                          "notes",
                          "relative_tolerance",
                          "gate",
                          "lack_of_fit_level",
                          "nonnegative_fixed_cost",
                          "rivals",
                          "power_law_agrees",
                          "weighting",
                          "bootstrap",
                          "seed",
                          "rows",
                          "sizes",
                          "steps",
                          "normalized",
                          "candidates",
                          "selection_note"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["label"], "compatible-over-observed-range");
  EXPECT_EQ(j["best"], "n_log_n");
  EXPECT_EQ(j["statement"],
            "empirically compatible with n log n over n = 128 to 65,536 under the recorded "
            "conditions");
  EXPECT_EQ(j["exploratory"], false);
  EXPECT_EQ(j["rows"], 50);
  EXPECT_EQ(j["bootstrap"], 1000);
  EXPECT_NEAR(j["gate"].get<double>(), std::log(1.25), 1e-15);
  ASSERT_EQ(j["sizes"].size(), 10u);
  EXPECT_EQ(j["sizes"][0]["n"], 128);
  EXPECT_EQ(j["sizes"][0]["count"], 5);
  ASSERT_EQ(j["steps"].size(), 9u);
  ASSERT_EQ(j["candidates"].size(), 3u);
  for (const auto& c : j["candidates"])
    for (const char* key : {"shape", "c", "c_ci_low", "c_ci_high", "d", "d_free", "loso_error",
                            "holdout_error", "within_gate", "lack_of_fit", "passes",
                            "selected_fraction", "selected_ci_low", "selected_ci_high"})
      EXPECT_TRUE(c.contains(key)) << key;
  EXPECT_NE(j["selection_note"].get<std::string>().find("not the probability"), std::string::npos);
  // Nothing in any output claims a complexity class.
  EXPECT_EQ(j.dump().find("O("), std::string::npos);
  EXPECT_EQ(j.dump().find("prove"), std::string::npos);
}

// Issue 36: values near the ends of the double range (here 1e250 and 1e-250 times the same
// timings) are fitted divided by a power of two, an exact division, so the label, the choice and
// every ratio are those of the ordinary-range data, and the figures in the values' unit scale by
// the same factor. Before, squaring the values and their weights overflowed.
TEST(CliScaling, ValuesNearTheEndsOfTheRangeGiveTheOrdinaryRangesAnswer) {
  const auto args = [](const std::string& path) {
    return std::vector<std::string>{
        "scaling", path, "--json", "--models", "linear,n_log_n,quadratic", "--seed", "7"};
  };
  const temp_file plain(timings_csv(7, 16, 5, 21, n_log_n));
  const json base = scaling_json(args(plain.path()));
  for (const double factor : {1e250, 1e-250}) {
    SCOPED_TRACE(factor);
    const temp_file big(
        timings_csv(7, 16, 5, 21, [factor](double n) { return factor * n_log_n(n); }));
    const json j = scaling_json(args(big.path()));
    EXPECT_EQ(j["label"], base["label"]);
    EXPECT_EQ(j["best"], base["best"]);
    ASSERT_EQ(j["candidates"].size(), base["candidates"].size());
    for (std::size_t k = 0; k < base["candidates"].size(); ++k) {
      const auto &c = j["candidates"][k], &b = base["candidates"][k];
      EXPECT_EQ(c["passes"], b["passes"]);
      EXPECT_NEAR(c["c"].get<double>() / factor, b["c"].get<double>(),
                  1e-9 * std::abs(b["c"].get<double>()));
      EXPECT_NEAR(c["loso_error"].get<double>(), b["loso_error"].get<double>(), 1e-9);
    }
  }
}

// Issue 34's one-shape case: 3e-9 n log2 n, 5% noise, 5 runs, n = 1,024 .. 32,768, only n
// pre-specified. It once read "compatible with n" with d = -1.2e-5; now the fixed cost is held at
// 0 and n fails its lack-of-fit test (p < 0.001), both shown.
TEST(CliScaling, OneShapeWithANegativeFixedCostIsRefusedAndSaysWhy) {
  const temp_file f(timings_csv(10, 15, 5, 4, n_log_n));
  const json j = scaling_json({"scaling", f.path(), "--json", "--models", "linear"});
  EXPECT_NE(j["label"], "compatible-over-observed-range") << j["statement"];
  const auto& c = j["candidates"][0];
  EXPECT_EQ(c["d"], 0.0);
  ASSERT_TRUE(c["d_free"].is_number());
  EXPECT_LT(c["d_free"].get<double>(), 0);
  ASSERT_TRUE(c["lack_of_fit"].is_object());
  EXPECT_LT(c["lack_of_fit"]["p"].get<double>(), 0.001);
  EXPECT_EQ(c["passes"], false);
  const auto text = run_mcpilot({"scaling", f.path(), "--models", "linear"});
  EXPECT_NE(text.out.find("fixed cost d held at 0"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("lack of fit"), std::string::npos) << text.out;
}

TEST(CliScaling, TextReportFromStandardInputAndExploratoryLabel) {
  const auto r =
      run_mcpilot({"scaling", "-", "--bootstrap", "200"}, timings_csv(7, 16, 5, 22, n_log_n));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("scaling of <stdin>: time against n, 50 rows at 10 sizes"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("exploratory"), std::string::npos);
  EXPECT_NE(r.out.find("local exponent"), std::string::npos);
  EXPECT_NE(r.out.find("not the probability that a shape is true"), std::string::npos);
}

TEST(CliScaling, FourSizesExitZeroAsInsufficientDesign) {
  const temp_file f(timings_csv(8, 11, 5, 23, n_log_n));
  const json j = scaling_json({"scaling", f.path(), "--json", "--models", "n_log_n"});
  EXPECT_EQ(j["label"], "insufficient-design");
  EXPECT_EQ(j["design_problems"][0], "4 sizes, fewer than 6");
}

TEST(CliScaling, HeaderlessFileAndNamedColumns) {
  const temp_file plain("16,1\n32,2\n64,4.1\n");
  const json a = scaling_json({"scaling", plain.path(), "--json", "--bootstrap", "0"});
  EXPECT_EQ(a["rows"], 3);
  const temp_file named("size,ns\n16,1\n32,2\n64,4.1\n");
  const json b = scaling_json({"scaling", named.path(), "--json", "--bootstrap", "0", "--n-column",
                               "size", "--value-column", "ns"});
  EXPECT_EQ(b["sizes"].size(), 3u);
  EXPECT_EQ(b["label"], "insufficient-design");
}

std::string sweep_table(bool repeats) {
  std::ostringstream s;
  s << "point,model.n,quantity,mean,ci_low,ci_high,ci_width_rel,readings,converged,"
       "stopped_because,analytic\n";
  int point = 0;
  for (int rep = 0; rep < (repeats ? 3 : 1); ++rep)
    for (int e = 4; e <= 10; ++e) {
      const double n = std::ldexp(1.0, e), t = n * n * (1 + 0.01 * ((e + rep) % 3 - 1));
      s << point << ',' << n << ",sort_time," << t << ',' << t * 0.99 << ',' << t * 1.01
        << ",0.02,100,true,converged,\n";
      s << point++ << ',' << n << ",comparisons," << 2 * n << ',' << 2 * n << ',' << 2 * n
        << ",0,100,true,converged,\n";
    }
  s << point << ",2048,sort_time,,,,,0,false,limit,\n";  // a failed point: no mean
  return s.str();
}

TEST(CliScaling, SweepTableOneMeanPerPointIsHonestlyInsufficient) {
  const temp_file f(sweep_table(false));
  const json j = scaling_json({"scaling", f.path(), "--json", "--quantity", "sort_time",
                               "--n-column", "model.n", "--models", "n_log_n,quadratic"});
  EXPECT_EQ(j["value_column"], "mean");
  EXPECT_EQ(j["rows"], 7);
  EXPECT_EQ(j["skipped_rows"], 1);
  EXPECT_EQ(j["label"], "insufficient-design");
  bool one_sample = false;
  for (const auto& p : j["design_problems"])
    one_sample = one_sample || p.get<std::string>().find("1 sample at some size") == 0;
  EXPECT_TRUE(one_sample) << j["design_problems"].dump();
  EXPECT_NE(j["notes"].dump().find("one sweep point's mean"), std::string::npos);
}

TEST(CliScaling, SweepTableWithRepeatedPointsCountsThem) {
  const temp_file f(sweep_table(true));
  const json j = scaling_json({"scaling", f.path(), "--json", "--quantity", "sort_time",
                               "--n-column", "model.n", "--models", "n_log_n,quadratic"});
  EXPECT_EQ(j["rows"], 21);
  EXPECT_EQ(j["sizes"][0]["count"], 3);
  EXPECT_EQ(j["best"], "quadratic");
}

// ---- bad input: exit 2, file, line and field ------------------------------------------------

void expect_input_error(const std::vector<std::string>& args, const std::string& needle,
                        const std::string& stdin_text = "") {
  const auto r = run_mcpilot(args, stdin_text);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

TEST(CliScaling, BadInputIsNamedAtFileLineAndField) {
  const temp_file zero_n("n,time\n16,1\n0,2\n64,3\n");
  expect_input_error({"scaling", zero_n.path()},
                     zero_n.path() + ":3:1: field 'n' is 0; a size n must be > 0");
  const temp_file negative_t("n,time\n16,1\n32,-2\n");
  expect_input_error({"scaling", negative_t.path()},
                     negative_t.path() + ":3:4: field 'time' is -2; a value must be > 0");
  const temp_file zero_t("n,time\n16,1\n32,0\n");
  expect_input_error({"scaling", zero_t.path()}, ":3:4: field 'time' is 0");
  const temp_file one_size("n,time\n16,1\n16,2\n16,3\n");
  expect_input_error({"scaling", one_size.path()},
                     one_size.path() +
                         ":2-4: field 'n': every row has n = 16; scaling needs at "
                         "least 2 distinct sizes");
  const temp_file text("n,time\n16,fast\n");
  expect_input_error({"scaling", text.path()}, ":2:4: field 'time' \"fast\" is not a finite");
  const temp_file short_line("n,time\n16,1\n32\n");
  expect_input_error({"scaling", short_line.path()}, ":3:");
  const temp_file ok("n,time\n16,1\n32,2\n");
  expect_input_error({"scaling", ok.path(), "--models", "linear,nlogn"},
                     "--models: unknown shape 'nlogn'; the known shapes are constant, log_n, "
                     "linear, n_log_n, quadratic, cubic, power_law");
  expect_input_error({"scaling", ok.path(), "--n-column", "size"},
                     ok.path() + ":1: no column 'size' (columns: n, time)");
  expect_input_error({"scaling", ok.path(), "--relative-tolerance", "0"}, "--relative-tolerance");
  expect_input_error({"scaling", ok.path(), "--bootstrap", "-1"}, "--bootstrap");
  const temp_file sweep(sweep_table(false));
  expect_input_error({"scaling", sweep.path(), "--quantity", "latency", "--n-column", "model.n"},
                     "no row has quantity 'latency' (quantities: comparisons, sort_time)");
  // Every point of the quantity failed: the message says that none has a mean.
  const temp_file failed(
      "point,model.n,quantity,mean,ci_low,ci_high,ci_width_rel,readings,converged,"
      "stopped_because,analytic\n0,16,latency,,,,,0,false,limit,\n1,32,latency,,,,,0,false,limit,"
      "\n");
  expect_input_error({"scaling", failed.path(), "--quantity", "latency", "--n-column", "model.n"},
                     "no row has quantity 'latency' with a mean (quantities: latency)");
  expect_input_error({"scaling", "/nonexistent/x.csv"}, "/nonexistent/x.csv: cannot open");
}

TEST(CliScaling, SweepTableThatSweepsAnotherKeyIsRejected) {
  const std::string t =
      "point,model.n,model.k,quantity,mean,ci_low,ci_high,ci_width_rel,readings,converged,"
      "stopped_because,analytic\n"
      "0,16,1,t,1,1,1,0,1,true,converged,\n"
      "1,16,2,t,2,2,2,0,1,true,converged,\n"
      "2,32,1,t,3,3,3,0,1,true,converged,\n";
  const temp_file f(t);
  expect_input_error({"scaling", f.path(), "--quantity", "t", "--n-column", "model.n"},
                     f.path() + ":3:6: field 'model.k' is 2, but line 2 at the same model.n has 1");
}

// ---- plots ---------------------------------------------------------------------------------

TEST(SvgCheck, CatchesWhatItClaimsTo) {
  using mcpilot::test::svg_problem;
  EXPECT_EQ(svg_problem("<?xml version='1.0'?>\n<svg a='1'><g><text>x</text><path d='M0'/></g>"
                        "<!-- c --></svg>"),
            "");
  EXPECT_NE(svg_problem("<svg><g></svg>"), "");
  EXPECT_NE(svg_problem("<svg><g></g>"), "");
  EXPECT_NE(svg_problem("<svg></svg><svg></svg>"), "");
  EXPECT_NE(svg_problem("<html></html>"), "");
  EXPECT_TRUE(mcpilot::test::svg_has_text("<svg><text>n^2 fit</text></svg>", "n^2 fit"));
  EXPECT_FALSE(mcpilot::test::svg_has_text("<svg><text>n^2 fit (fails)</text></svg>", "n^2 fit"));
}

TEST(ScalingPlotRequest, HoldsEverySeriesWithoutGnuplot) {
  // The request is built without gnuplot, so this runs where gnuplot is missing too.
  std::vector<double> n, t;
  for (double x : {64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0})
    for (double f : {0.98, 1.0, 1.03}) {
      n.push_back(x);
      t.push_back(f * x * x);
    }
  mcpilot::scaling_options o;
  o.models = {mcpilot::scaling_shape::linear, mcpilot::scaling_shape::quadratic};
  o.bootstrap = 200;
  const auto r = mcpilot::analyze_scaling(n, t, o);
  const mcpilot::scaling_source src{"t.csv", "n", "time", "", "ms", 0, {}};
  const auto p = mcpilot::scaling_plot(r, src, "out.svg", mcpilot::plot_format::svg);
  std::vector<std::string> names;
  for (const auto& d : p.data) names.push_back(d.name);
  EXPECT_EQ(names, (std::vector<std::string>{"sizes", "fit_linear", "fit_quadratic", "steps"}));
  EXPECT_EQ(p.data[0].rows.size(), 6u);
  EXPECT_EQ(p.data[0].rows[0], (std::vector<double>{64, 64 * 64, 0.98 * 64 * 64, 1.03 * 64 * 64}));
  EXPECT_EQ(p.data[3].rows.size(), 5u);
  EXPECT_NEAR(p.data[3].rows[0][1], 2.0, 1e-12);  // medians exactly n^2: exponent 2
  for (const char* text : {"\"median (bars: min to max)\"", "\"n^2 fit (passes), best\"",
                           "\"n fit (fails)\"", "\"local exponent\"", "\"median time (ms)\"",
                           "set multiplot layout 2,1", "set logscale xy"})
    EXPECT_NE(p.commands.find(text), std::string::npos) << text;
}

bool have_gnuplot() {
  return std::system("command -v gnuplot >/dev/null 2>&1") == 0;
}

TEST(CliScaling, PlotIsWellFormedSvgWithTheExpectedSeries) {
  if (!have_gnuplot()) GTEST_SKIP() << "gnuplot-nox is not installed";
  const temp_file f(timings_csv(7, 16, 5, 21, n_log_n));
  const temp_file svg("", ".svg");
  const auto r = run_mcpilot({"scaling", f.path(), "--models", "linear,n_log_n,quadratic",
                              "--bootstrap", "200", "--plot", svg.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string s = mcpilot::test::slurp(svg.path());
  EXPECT_EQ(mcpilot::test::svg_problem(s), "");
  for (const char* title : {"median (bars: min to max)", "n fit (fails)",
                            "n log n fit (passes), best", "n^2 fit (fails)", "local exponent",
                            "median time (unit as recorded)", "local exponent (dimensionless)"})
    EXPECT_TRUE(mcpilot::test::svg_has_text(s, title)) << title;
  EXPECT_NE(s.find("mcpilot scaling: " + f.path()), std::string::npos);
}

TEST(CliScaling, PlotWithoutGnuplotNamesThePackageAndKeepsTheReport) {
  const temp_file f(timings_csv(7, 12, 3, 21, n_log_n));
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  ::setenv("PATH", "/nonexistent", 1);
  const auto r = run_mcpilot({"scaling", f.path(), "--bootstrap", "0", "--plot", "/tmp/x.svg"});
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("gnuplot-nox"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("scaling of"), std::string::npos);
}

TEST(CliAnalyzePlot, ReadingsRemovedPhasesChangePointsAndTheStableMean) {
  if (!have_gnuplot()) GTEST_SKIP() << "gnuplot-nox is not installed";
  // 80 readings falling from 20 to 10, then 400 steady at 10, then 60 at 14: a warm-up and a
  // cool-down the change-point detection removes (seeded noise, sd 1).
  mcpilot::philox_stream g(5, 0);
  boost::random::normal_distribution<double> z;
  std::ostringstream s;
  s << "latency_ms\n";
  for (int i = 0; i < 540; ++i) {
    const double base = i < 80 ? 20 - 10.0 * i / 80 : i < 480 ? 10 : 14;
    s << base + z(g) << '\n';
  }
  const temp_file f(s.str());
  const temp_file svg("", ".svg");
  const auto r = run_mcpilot({"analyze", f.path(), "--plot", svg.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string out = mcpilot::test::slurp(svg.path());
  EXPECT_EQ(mcpilot::test::svg_problem(out), "");
  const auto j = json::parse(run_mcpilot({"analyze", f.path(), "--json"}).out);
  const auto begin = j["warmup"]["removed_begin"].get<int>();
  const auto end = j["warmup"]["removed_end"].get<int>();
  ASSERT_GT(begin, 0);
  ASSERT_GT(end, 0);
  for (const std::string title :
       {std::string("readings"), "warm-up removed (" + std::to_string(begin) + " readings)",
        "cool-down removed (" + std::to_string(end) + " readings)",
        "change-points (" + std::to_string(j["warmup"]["changepoints"].size()) + ")",
        std::string("reading index (file order)"),
        std::string("reading (unit as recorded in the file)")})
    EXPECT_TRUE(mcpilot::test::svg_has_text(out, title)) << title;
  EXPECT_NE(out.find("mean of the stable phase: "), std::string::npos);
  EXPECT_NE(out.find("95% interval ["), std::string::npos);
  EXPECT_NE(out.find("mcpilot analyze: " + f.path()), std::string::npos);
}

TEST(CliAnalyzePlot, FormatNeedsPlotAndPngWorks) {
  const temp_file f("x\n1\n2\n3\n4\n5\n");
  EXPECT_EQ(run_mcpilot({"analyze", f.path(), "--format", "png"}).exit_code, 2);
  if (!have_gnuplot()) GTEST_SKIP() << "gnuplot-nox is not installed";
  const temp_file png("", ".png");
  const auto r = run_mcpilot({"analyze", f.path(), "--plot", png.path(), "--format", "png"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(mcpilot::test::slurp(png.path()).substr(1, 3), "PNG");
}

}  // namespace MCPILOT_TEST_FILE
