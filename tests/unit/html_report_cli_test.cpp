// `--report FILE.html` on every command that has it (run, a sweep and one of its points, analyze,
// scaling, bench): the page is written, its verdict is the command's (the same intervals and
// exact values as the table on stdout), its figures are there (or, without gnuplot, a note in
// each one's place, a warning, and the exit code unchanged), and what cannot be reported is
// refused with exit 2 before any work.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "html_report_support.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/io/plot.hpp"

namespace mcpilot::test {
namespace MCPILOT_TEST_FILE {

struct path_guard {
  std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
  ~path_guard() { setenv("PATH", saved.c_str(), 1); }
};

std::string report_path(const std::string& name) {
  return temp_path("html_report_cli_" + name + ".html");
}

// The table on stdout and the page agree: each interval the table prints is in the page.
void expect_same_intervals(const std::string& table, const std::string& page,
                           const std::vector<std::string>& intervals) {
  for (const auto& i : intervals) {
    EXPECT_NE(table.find(i), std::string::npos) << "the table lacks " << i << "\n" << table;
    EXPECT_NE(page.find(i), std::string::npos) << "the page lacks " << i;
  }
}

TEST(HtmlReportCli, RunWritesTheVerdictTheExactValuesAndTheRounds) {
  const auto path = report_path("run");
  const run_result r = make_report(report_kind::run, path);
  ASSERT_EQ(r.exit_code, exit_ok) << r.err;
  const std::string page = slurp(path);
  EXPECT_NE(page.find("<span class=\"headline\">Converged.</span>"), std::string::npos);
  // mttdl_hours, loss_in_mission and durability_nines (its transform) have exact values (the
  // Markov chain), shown and covered at this seed, as the table on stdout says.
  expect_same_intervals(r.out, page, {"[2.28e+12, 2.52e+12]", "2.41e+12", "[3.40e-08, 3.66e-08]"});
  EXPECT_NE(page.find("3 of these intervals cover it"), std::string::npos);
  EXPECT_EQ(count_of(page, "<figure id="), expected_figures(report_kind::run));
  EXPECT_NE(page.find("mttdl_hours after each round"), std::string::npos);
  EXPECT_NE(page.find("--report"), std::string::npos) << "the command to reproduce it";
  EXPECT_NE(page.find("seed = 20261130"), std::string::npos) << "the config as read";
  EXPECT_NE(page.find("<code>20261130</code>"), std::string::npos) << "the seed";
  EXPECT_NE(page.find("git_commit"), std::string::npos) << "the environment";
}

TEST(HtmlReportCli, SweepAndOneOfItsPoints) {
  const auto path = report_path("sweep");
  const run_result r = make_report(report_kind::sweep, path);
  ASSERT_EQ(r.exit_code, exit_ok) << r.err;
  const std::string page = slurp(path);
  EXPECT_NE(page.find("Every point converged.</span> 5 points: 5 ran (5 converged)"),
            std::string::npos);
  // The table says which of the five MTTDL intervals miss the exact value; the page says it too.
  expect_same_intervals(r.out, page,
                        {"7.65e+13 [7.27e+13, 8.03e+13]", "6.59e+09 [6.27e+09, 6.91e+09]"});
  EXPECT_NE(page.find("intervals shown beside an exact value cover it"), std::string::npos);
  EXPECT_EQ(count_of(page, "<figure id="), 1u);

  const auto point = report_path("point");
  const run_result p = make_report(report_kind::sweep, point, {"--point", "2"});
  ASSERT_EQ(p.exit_code, exit_ok) << p.err;
  const std::string one = slurp(point);
  EXPECT_NE(one.find("point 2: model.disks = 16"), std::string::npos);
  EXPECT_NE(one.find("after each round"), std::string::npos);
  EXPECT_NE(one.find("point 2&#39;s own, drawn from the sweep&#39;s seed 20261130"),
            std::string::npos);
}

TEST(HtmlReportCli, AnalyzeShowsTheRemovedWarmUpAndItsChangePoint) {
  const auto path = report_path("analyze");
  const run_result r = make_report(report_kind::analyze, path);
  ASSERT_EQ(r.exit_code, exit_ok) << r.err;
  const std::string page = slurp(path);
  EXPECT_NE(page.find("Converged.</span> The 95% interval [120.2, 122.5]"), std::string::npos);
  EXPECT_NE(r.out.find("120.2"), std::string::npos) << r.out;
  // The sample's first 148 readings are its warm-up (docs/cli-analysis.md shows the same file).
  EXPECT_NE(page.find("<th scope=\"row\">warm-up removed</th><td>0 to 147 (lines 2 to 149)"),
            std::string::npos);
  EXPECT_EQ(count_of(page, "<figure id="), 1u);
  EXPECT_NE(page.find("column (0-based)"), std::string::npos);

  const run_result wps = run_mcpilot({"analyze", source_path("configs/samples/latency.csv"),
                                      "--wps", "0,1", "--report", report_path("wps")});
  EXPECT_EQ(wps.exit_code, exit_input);
  EXPECT_NE(wps.err.find("--report"), std::string::npos) << wps.err;
}

TEST(HtmlReportCli, ScalingShowsTheLabelTheCandidatesAndTheLocalExponents) {
  const auto path = report_path("scaling");
  const run_result r = make_report(report_kind::scaling, path);
  ASSERT_EQ(r.exit_code, exit_ok) << r.err;
  const std::string page = slurp(path);
  EXPECT_NE(page.find("Compatible over the observed range.</span> Empirically compatible with "
                      "n log n over n = 128 to 65,536"),
            std::string::npos);
  EXPECT_NE(page.find("n_log_n (best)"), std::string::npos);
  EXPECT_NE(page.find("local exponent"), std::string::npos);
  EXPECT_NE(page.find("<code>7</code>"), std::string::npos) << "the resampling seed";
}

TEST(HtmlReportCli, BenchShowsEachCommandsReadingsAndTheRatio) {
  const auto path = report_path("bench");
  const run_result r = make_report(report_kind::bench, path);
  ASSERT_EQ(r.exit_code, exit_ok) << r.out << r.err;
  const std::string page = slurp(path);
  EXPECT_NE(page.find("<span class=\"headline\">Converged.</span>"), std::string::npos);
  EXPECT_EQ(count_of(page, "<figure id="), expected_figures(report_kind::bench));
  EXPECT_NE(page.find("<th scope=\"row\">b / a</th>"), std::string::npos);
  EXPECT_NE(page.find("the order in which the commands&#39; runs are interleaved"),
            std::string::npos);
  // The ratio the table prints is the page's.
  const auto at = r.out.find("b / a  ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string ratio = r.out.substr(at + 7, r.out.find(" x,", at) - at - 7);
  EXPECT_NE(page.find(ratio + " x"), std::string::npos) << ratio;

  const run_result scan = run_mcpilot({"bench", "--parameter-scan", "n", "1", "2", "--report",
                                       report_path("scan"), "--", "true", "{n}"});
  EXPECT_EQ(scan.exit_code, exit_input);
  EXPECT_NE(scan.err.find("--report are not available"), std::string::npos) << scan.err;
}

// Without gnuplot the page has every table and says where each figure would be; the command
// warns and keeps its exit code (the report's figures are optional, as gnuplot is).
TEST(HtmlReportCli, WithoutGnuplotThePageIsCompleteButForItsFigures) {
  const auto with = report_path("with-gnuplot"), without = report_path("without-gnuplot");
  ASSERT_EQ(make_report(report_kind::analyze, with).exit_code, exit_ok);
  run_result r;
  {
    path_guard guard;
    setenv("PATH", testing::TempDir().c_str(), 1);  // no gnuplot there
    r = make_report(report_kind::analyze, without);
  }
  EXPECT_EQ(r.exit_code, exit_ok) << r.err;
  EXPECT_NE(r.err.find("warning: --report " + without + ": 1 of 1 figure not drawn"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("gnuplot-nox"), std::string::npos) << r.err;
  const std::string page = slurp(without);
  EXPECT_NE(page.find("Figure 1 would be drawn here"), std::string::npos);
  EXPECT_NE(page.find("gnuplot is not installed"), std::string::npos);
  EXPECT_EQ(count_of(page, "<svg"), 0u);
  if (gnuplot_available())
    EXPECT_EQ(captions(page, "caption"), captions(slurp(with), "caption"))
        << "every table of the page drawn with gnuplot";
}

TEST(HtmlReportCli, AnUnwritablePathIsRefusedBeforeAnyWork) {
  const run_result r =
      run_mcpilot({"run", source_path("configs/storage/raid6-exponential.toml"), "--quiet",
                   "--report", temp_path("no-such-folder/report.html")});
  EXPECT_EQ(r.exit_code, exit_input);
  EXPECT_NE(r.err.find("--report"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("stopped:"), std::string::npos) << "no session ran";
  const run_result same =
      run_mcpilot({"run", source_path("configs/storage/raid6-exponential.toml"), "--quiet",
                   "--report", report_path("same"), "--json", report_path("same")});
  EXPECT_EQ(same.exit_code, exit_input);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot::test
