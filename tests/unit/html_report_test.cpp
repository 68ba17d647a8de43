// The HTML report's writer (io/html_report.hpp, io/html_page.hpp): escaping, a gnuplot SVG made
// fit to sit inline (ids prefixed so that figures never share one, its title and description
// replaced by the figure's, the root labelled for screen readers), and a page that loads
// nothing, with every table and a note in each figure's place when gnuplot is missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "html_report_support.hpp"
#include "io/html_page.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/html_report.hpp"
#include "mcpilot/io/plot.hpp"

namespace mcpilot::test {
namespace MCPILOT_TEST_FILE {

// Restores PATH when a test has emptied it.
struct path_guard {
  std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
  ~path_guard() { setenv("PATH", saved.c_str(), 1); }
};

TEST(HtmlReport, EscapesTheFiveCharactersThatEndTextOrAttributes) {
  EXPECT_EQ(html::escape("a<b>&\"c'd"), "a&lt;b&gt;&amp;&quot;c&#39;d");
  EXPECT_EQ(html::escape("±5% of 10 µs"), "±5% of 10 µs");  // UTF-8 passes through
  EXPECT_EQ(html::escape(""), "");
}

// gnuplot's SVG as its terminal writes it (declaration, fixed ids, references by xlink:href and
// url(#...)), and the same written by hand as it must sit inside a page as figure 2.
TEST(HtmlReport, InlineSvgPrefixesIdsAndLabelsTheRoot) {
  const std::string gnuplot =
      "<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"
      "<svg \n viewBox=\"0 0 10 10\"\n xmlns=\"http://www.w3.org/2000/svg\"\n>\n\n"
      "<title>Gnuplot</title>\n<desc>Produced by GNUPLOT 5.4 patchlevel 4 </desc>\n\n"
      "<g id=\"gnuplot_canvas\">\n<g id=\"gnuplot_plot_1\"></g><g id=\"gnuplot_plot_1\"></g>\n"
      "<defs><path id='gpPt0' d='M0,0'/><filter id='textbox'/></defs>\n"
      "<use xlink:href='#gpPt0' filter='url(#textbox)'/>\n"
      "<text> id='x' url(#y) a &lt; b</text>\n"
      "</g>\n</svg>\n\n";
  const std::string expected =
      "<svg role=\"img\" aria-labelledby=\"figure-2-title figure-2-desc\" \n"
      " viewBox=\"0 0 10 10\"\n xmlns=\"http://www.w3.org/2000/svg\"\n>\n\n"
      "<title id=\"figure-2-title\">Figure 2. A &lt;b&gt;</title>\n"
      "<desc id=\"figure-2-desc\">says &quot;x&quot; &amp; y</desc>\n\n"
      "<g id=\"figure-2-gnuplot_canvas\">\n"
      "<g id=\"figure-2-gnuplot_plot_1\"></g><g id=\"figure-2-gnuplot_plot_1-2\"></g>\n"
      "<defs><path id='figure-2-gpPt0' d='M0,0'/><filter id='figure-2-textbox'/></defs>\n"
      "<use xlink:href='#figure-2-gpPt0' filter='url(#figure-2-textbox)'/>\n"
      "<text> id='x' url(#y) a &lt; b</text>\n"  // text is not markup: left alone
      "</g>\n</svg>";
  EXPECT_EQ(html::inline_svg(gnuplot, "figure-2", "Figure 2. A <b>", "says \"x\" & y"), expected);
}

TEST(HtmlReport, InlineSvgRefusesWhatIsNotAPictureOrCarriesAScript) {
  EXPECT_THROW(html::inline_svg("gnuplot: no output", "f", "t", "d"), input_error);
  EXPECT_THROW(html::inline_svg("<svg><script>alert(1)</script></svg>", "f", "t", "d"),
               input_error);
  EXPECT_THROW(html::inline_svg("<svg><g id='a'", "f", "t", "d"), input_error);
}

// An svg without <title> and <desc> gets them right after its opening tag.
TEST(HtmlReport, InlineSvgAddsATitleAndDescriptionWhereThereAreNone) {
  EXPECT_EQ(html::inline_svg("<svg viewBox=\"0 0 1 1\"><g/></svg>", "f", "T", "D"),
            "<svg role=\"img\" aria-labelledby=\"f-title f-desc\" viewBox=\"0 0 1 1\">\n"
            "<title id=\"f-title\">T</title>\n<desc id=\"f-desc\">D</desc><g/></svg>");
}

html::page two_figure_page() {
  html::page pg;
  pg.title = "A <test> page";
  pg.result = {html::tone::warning, "Not converged", "a limit stopped it", {"a note"}};
  pg.verdict_tables.push_back(
      {"the intervals", {"q", "value"}, {{"x", "1.5"}}, {false, true}, true, {}});
  for (int k = 0; k < 2; ++k) {
    html::figure f;
    f.caption = "figure number " + std::to_string(k + 1);
    f.description = "a line from 0 to 1";
    f.plot.data.push_back({"d", {"x", "y"}, {{0, 0}, {1, 1}}});
    f.plot.commands = "plot $d using 1:2 with lines title 'line'\n";
    f.data.push_back({"its data", {"x", "y"}, {{"0", "0"}, {"1", "1"}}, {true, true}, true, {}});
    pg.figures.push_back(std::move(f));
  }
  pg.details.push_back({"More", {"a paragraph"}, {{"details", {"a"}, {{"b"}}, {}, true, {}}}});
  return pg;
}

report_provenance a_provenance() {
  report_provenance p;
  p.command = {"mcpilot", "run", "my config.toml", "--seed", "7"};
  p.seed = 7;
  p.config_source = "my config.toml";
  p.config_text = "[experiment]\nname = \"a<b\"\n";
  p.overrides = {"model.disks=8"};
  p.environment = {{"version", "0.1.0"}, {"cores", 2}, {"nested", {{"key", "value"}}}};
  return p;
}

// Nothing in a page may reach outside it: no script, no stylesheet or font link, no src, no
// absolute URL other than the SVG namespace.
void expect_self_contained(const std::string& page) {
  EXPECT_NE(page.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
                      "'none'; style-src 'unsafe-inline'"),
            std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(page.find("src="), std::string::npos);
  EXPECT_EQ(page.find("@import"), std::string::npos);
  std::string rest = page;
  for (const char* ns : {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"})
    for (auto at = rest.find(ns); at != std::string::npos; at = rest.find(ns)) rest.erase(at, 10);
  EXPECT_EQ(rest.find("http:"), std::string::npos);
  EXPECT_EQ(rest.find("https:"), std::string::npos);
  for (auto at = page.find("href=\""); at != std::string::npos; at = page.find("href=\"", at + 1))
    EXPECT_EQ(page[at + 6], '#') << "a link that leaves the page: " << page.substr(at, 60);
}

TEST(HtmlReport, WithoutGnuplotEveryTableIsThereAndEachFigureSaysWhyItIsMissing) {
  path_guard guard;
  setenv("PATH", "/nonexistent", 1);
  std::ostringstream out;
  const report_outcome o = html::write_page(out, two_figure_page(), a_provenance());
  const std::string page = out.str();
  EXPECT_EQ(o.figures, 2u);
  EXPECT_EQ(o.drawn, 0u);
  ASSERT_EQ(o.problems.size(), 2u);
  EXPECT_NE(o.problems[0].find("figure 1: gnuplot is not installed"), std::string::npos);
  EXPECT_EQ(count_of(page, "would be drawn here"), 2u);
  EXPECT_NE(page.find("Figure 2 would be drawn here</strong> (figure number 2)"),
            std::string::npos);
  EXPECT_NE(page.find("What it would show: a line from 0 to 1"), std::string::npos);
  // Tables: the verdict's, two figures' data, the details', the settings' none, the
  // environment's: numbered in order.
  EXPECT_EQ(count_of(page, "<table"), 5u);
  const auto caps = captions(page, "caption");
  ASSERT_EQ(caps.size(), 5u);
  EXPECT_EQ(caps[0], "Table 1. the intervals");
  EXPECT_EQ(caps[4], "Table 5. Where and how the result was produced");
  EXPECT_EQ(count_of(page, "<svg"), 0u);
  expect_self_contained(page);
  // The verdict comes first, then the figures, the details and the provenance.
  const auto verdict = page.find("id=\"verdict\""), figures = page.find("id=\"figures\""),
             details = page.find("id=\"details\""), reproduce = page.find("id=\"reproduce\"");
  EXPECT_LT(verdict, figures);
  EXPECT_LT(figures, details);
  EXPECT_LT(details, reproduce);
  EXPECT_NE(page.find("<span class=\"headline\">Not converged.</span> A limit stopped it."),
            std::string::npos);
  // The command as a shell reads it back, the config escaped, nested environment fields dotted.
  EXPECT_NE(page.find("<code>mcpilot run &#39;my config.toml&#39; --seed 7</code>"),
            std::string::npos);
  EXPECT_NE(page.find("name = &quot;a&lt;b&quot;"), std::string::npos);
  EXPECT_NE(page.find("<th scope=\"row\">nested.key</th><td>value</td>"), std::string::npos);
  EXPECT_NE(page.find("<title>A &lt;test&gt; page</title>"), std::string::npos);
}

TEST(HtmlReport, WithGnuplotEachFigureIsInlineLabelledAndIdsStayUnique) {
  if (!gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  std::ostringstream out;
  const report_outcome o = html::write_page(out, two_figure_page(), a_provenance());
  const std::string page = out.str();
  EXPECT_EQ(o.drawn, 2u) << (o.problems.empty() ? "" : o.problems.front());
  EXPECT_EQ(count_of(page, "<svg role=\"img\""), 2u);
  EXPECT_NE(page.find("aria-labelledby=\"figure-1-title figure-1-desc\""), std::string::npos);
  EXPECT_NE(page.find("<title id=\"figure-2-title\">Figure 2. figure number 2</title>"),
            std::string::npos);
  EXPECT_NE(page.find("<desc id=\"figure-1-desc\">a line from 0 to 1</desc>"), std::string::npos);
  EXPECT_EQ(page.find("<?xml"), std::string::npos);
  EXPECT_EQ(page.find("would be drawn here"), std::string::npos);
  std::multiset<std::string> ids;
  for (const char* q : {"\"", "'"}) {
    const std::string key = std::string(" id=") + q;
    for (auto at = page.find(key); at != std::string::npos; at = page.find(key, at + 1)) {
      const auto start = at + key.size();
      ids.insert(page.substr(start, page.find(q, start) - start));
    }
  }
  EXPECT_GT(ids.size(), 20u);  // gnuplot's markers, canvases, the sections, tables and figures
  for (const auto& id : ids)
    if (ids.count(id) > 1) ADD_FAILURE() << "id used more than once: " << id;
  expect_self_contained(page);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot::test
