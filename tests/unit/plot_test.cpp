// The gnuplot driver (io/plot): the script it writes, its quoting, and the picture written
// atomically (a failed plot leaves an old picture in place and no temporary files behind).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "mcpilot/error.hpp"
#include "mcpilot/io/plot.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;
namespace fs = std::filesystem;

plot_request two_points(const std::string& output) {
  plot_request r;
  r.output = output;
  r.data.push_back({"points", {"x", "y"}, {{1, 2}, {3, std::nan("")}}});
  r.commands = "set title " + gnuplot_quote("a \"quoted\" title") +
               "\nplot $points using 1:2 with linespoints title 'readings'\n";
  return r;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

fs::path fresh_dir(const char* name) {
  const fs::path d = fs::temp_directory_path() / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Restores PATH when a test has emptied it.
struct path_guard {
  std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
  ~path_guard() { setenv("PATH", saved.c_str(), 1); }
};

TEST(Plot, ScriptSetsTheTerminalThenTheDataThenTheCommands) {
  const std::string s = gnuplot_script(two_points("out.svg"), "tmp.svg");
  EXPECT_EQ(s.rfind("set terminal svg size 960,640", 0), 0u) << s;
  EXPECT_NE(s.find("set output \"tmp.svg\"\n"), std::string::npos);
  const auto data = s.find("$points << EOD\n# x y\n1 2\n3 NaN\nEOD\n");
  const auto plot = s.find("plot $points");
  ASSERT_NE(data, std::string::npos) << s;
  EXPECT_LT(data, plot);
  EXPECT_NE(s.find("set title \"a \\\"quoted\\\" title\""), std::string::npos);
  EXPECT_EQ(s.substr(s.size() - 13), "unset output\n");
  plot_request png = two_points("out.png");
  png.format = plot_format::png;
  EXPECT_EQ(gnuplot_script(png, "x").rfind("set terminal pngcairo", 0), 0u);
}

TEST(Plot, QuoteEscapesBackslashQuoteAndNewline) {
  EXPECT_EQ(gnuplot_quote("a\\b\"c\nd"), "\"a\\\\b\\\"c\\nd\"");
}

TEST(Plot, FormatNamesAreSvgAndPng) {
  EXPECT_EQ(parse_plot_format("svg"), plot_format::svg);
  EXPECT_EQ(parse_plot_format("png"), plot_format::png);
  EXPECT_THROW(parse_plot_format("pdf"), input_error);
}

TEST(Plot, MissingGnuplotNamesThePackageAndLeavesTheOldPicture) {
  const fs::path dir = fresh_dir("mcpilot_plot_missing");
  const fs::path out = dir / "p.svg";
  std::ofstream(out) << "old";
  path_guard guard;
  setenv("PATH", "/nonexistent", 1);
  EXPECT_FALSE(gnuplot_available());
  try {
    render_plot(two_points(out.string()));
    FAIL() << "no error without gnuplot";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("gnuplot-nox"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read(out), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
}

TEST(Plot, RendersAWellFormedSvgHoldingTheSeries) {
  if (!gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  const fs::path dir = fresh_dir("mcpilot_plot_render");
  const fs::path out = dir / "p.svg";
  render_plot(two_points(out.string()));
  const std::string svg = read(out);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("readings"), std::string::npos);  // the legend entry
  EXPECT_NE(svg.find("quoted"), std::string::npos);    // the title
  // Only the picture is left: no script, error log or temporary picture.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
}

TEST(Plot, GnuplotErrorsAreReportedAndLeaveTheOldPicture) {
  if (!gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  const fs::path dir = fresh_dir("mcpilot_plot_error");
  const fs::path out = dir / "p.svg";
  std::ofstream(out) << "old";
  plot_request r = two_points(out.string());
  r.commands = "plot $nosuchblock using 1:2\n";
  try {
    render_plot(r);
    FAIL() << "no error for a bad script";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("gnuplot failed"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read(out), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
}

}  // namespace MCPILOT_TEST_FILE
