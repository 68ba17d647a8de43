// `mcpilot run --plot`: the picture of one session (intervals by round, target band, exact value)
// and of a sweep (each quantity against the swept value). The SVG must be well formed (every
// element closed, in order) and hold the expected series, named in its legend. Without gnuplot on
// PATH: exit 2 naming the package, everything else still written.
#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/io/plot.hpp"
#include "mcpilot/registry.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;

class plotted_normal : public model {
 public:
  void declare(model_spec& s) const override {
    s.number("mean", 10, "mean of the readings").positive();
    s.quantity("x").with_unit("s");
  }
  void configure(const parameters& p) override { mean_ = p.number("mean"); }
  void replicate(replication& r) const override {
    boost::random::normal_distribution<double> d(mean_, 0.1 * mean_);
    r.record(0, d(r.rng()));
  }
  std::map<std::string, double> analytic() const override { return {{"x", mean_}}; }

 private:
  double mean_ = 0;
};

int run_cli(std::vector<std::string> args, std::string* err = nullptr) {
  static const model_registry models = [] {
    model_registry m;
    m.add<plotted_normal>("test.plotted");
    return m;
  }();
  const auto r = test::run_in_process(models, std::move(args));
  if (err) *err = r.err;
  return r.exit_code;
}

std::string temp(const std::string& name) {
  return test::temp_path("run_plot_" + name);
}

std::string write_file(const std::string& name, const std::string& text) {
  return test::write_text(temp(name), text);
}

std::string read_file(const std::string& path) {
  return test::slurp(path);
}

// A minimal XML check: every element opened is closed, in order, and the root is <svg>.
// Comments, the declaration and CDATA are skipped; attribute values may hold '>'.
bool well_formed_svg(const std::string& text, std::string& why) {
  std::vector<std::string> open;
  bool saw_root = false;
  std::size_t i = 0;
  while ((i = text.find('<', i)) != std::string::npos) {
    if (text.compare(i, 4, "<!--") == 0) {
      i = text.find("-->", i);
      if (i == std::string::npos) return why = "unclosed comment", false;
      continue;
    }
    if (text.compare(i, 9, "<![CDATA[") == 0) {
      i = text.find("]]>", i);
      if (i == std::string::npos) return why = "unclosed CDATA", false;
      continue;
    }
    if (text.compare(i, 2, "<?") == 0 || text.compare(i, 2, "<!") == 0) {
      i = text.find('>', i);
      if (i == std::string::npos) return why = "unclosed declaration", false;
      continue;
    }
    // Find the tag's end outside quoted attribute values.
    std::size_t j = i + 1;
    char quote = 0;
    for (; j < text.size(); ++j) {
      const char c = text[j];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '>') {
        break;
      }
    }
    if (j >= text.size()) return why = "unclosed tag at " + std::to_string(i), false;
    const std::string tag = text.substr(i + 1, j - i - 1);
    const bool closing = !tag.empty() && tag[0] == '/';
    const bool self_closing = !tag.empty() && tag.back() == '/';
    std::string name = tag.substr(closing ? 1 : 0);
    name = name.substr(0, name.find_first_of(" \t\r\n/"));
    if (closing) {
      if (open.empty() || open.back() != name)
        return why = "</" + name + "> closes " + (open.empty() ? "nothing" : open.back()), false;
      open.pop_back();
    } else if (!self_closing) {
      if (open.empty()) {
        if (saw_root || name != "svg") return why = "root is " + name, false;
        saw_root = true;
      }
      open.push_back(name);
    }
    i = j + 1;
  }
  if (!saw_root) return why = "no <svg>", false;
  if (!open.empty()) return why = "unclosed <" + open.back() + ">", false;
  return true;
}

TEST(RunPlot, TheXmlCheckRejectsBrokenDocuments) {
  std::string why;
  EXPECT_TRUE(well_formed_svg("<?xml version=\"1.0\"?>\n<svg a=\"x>y\"><g><path/></g></svg>", why))
      << why;
  EXPECT_FALSE(well_formed_svg("<svg><g></svg>", why));
  EXPECT_FALSE(well_formed_svg("<svg><g></g>", why));
}

const std::string single_config =
    "[experiment]\nname = \"plotted\"\nseed = 4\nci_perc = 0.01\n[model]\nname = "
    "\"test.plotted\"\n";

TEST(RunPlot, SessionPlotShowsIntervalsByRoundTheBandAndTheExactValue) {
  if (!gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  const auto cfg = write_file("single.toml", single_config);
  const auto svg = temp("single.svg");
  std::string err;
  ASSERT_EQ(run_cli({"run", cfg, "--plot", svg}, &err), exit_ok) << err;
  const std::string text = read_file(svg);
  std::string why;
  EXPECT_TRUE(well_formed_svg(text, why)) << why;
  for (const char* series :
       {"95% interval after the round", "target: final mean ±", "exact 10",
        "replications so far (log scale)", "x (s)", "Interval after each round: plotted"})
    EXPECT_NE(text.find(series), std::string::npos) << series;
}

TEST(RunPlot, SweepPlotShowsEachQuantityAgainstTheSweptValue) {
  if (!gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  const auto cfg = write_file(
      "sweep.toml",
      single_config + "[sweep]\n\"model.mean\" = { geometric = [1, 1000], factor = 10 }\n");
  const auto svg = temp("sweep.svg");
  std::string err;
  ASSERT_EQ(run_cli({"run", cfg, "--plot", svg}, &err), exit_ok) << err;
  const std::string text = read_file(svg);
  std::string why;
  EXPECT_TRUE(well_formed_svg(text, why)) << why;
  for (const char* series : {"x: mean and interval", "exact", "x against model.mean",
                             "model.mean (log scale)", "x (s), log scale", "4-point sweep"})
    EXPECT_NE(text.find(series), std::string::npos) << series;
}

TEST(RunPlot, PngOnRequest) {
  if (!gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  const auto cfg = write_file("png.toml", single_config);
  const auto png = temp("single.png");
  ASSERT_EQ(run_cli({"run", cfg, "--plot", png, "--format", "png"}), exit_ok);
  EXPECT_EQ(read_file(png).substr(1, 3), "PNG");
  EXPECT_EQ(run_cli({"run", cfg, "--plot", png, "--format", "gif"}), exit_input);
}

TEST(RunPlot, WithoutGnuplotExitTwoNamingThePackageAndTheRestIsWritten) {
  const auto cfg =
      write_file("nognuplot.toml", single_config + "[sweep]\n\"model.mean\" = [5, 10]\n");
  const auto csv = temp("nognuplot.csv"), svg = temp("nognuplot.svg");
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  setenv("PATH", testing::TempDir().c_str(), 1);  // no gnuplot there
  std::string err;
  const int code = run_cli({"run", cfg, "--table", csv, "--plot", svg}, &err);
  setenv("PATH", saved.c_str(), 1);
  EXPECT_EQ(code, exit_input);
  EXPECT_NE(err.find("gnuplot-nox"), std::string::npos) << err;
  EXPECT_NE(read_file(csv).find("1,10,x,"), std::string::npos) << "the table is still written";
}

}  // namespace MCPILOT_TEST_FILE
