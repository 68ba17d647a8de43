// Each kind of `--report` page in a real browser: headless Chromium (Debian's package chromium,
// which scripts/install-deps.sh installs) loads the file once, and the test reads back
//  - the DOM the browser built (--dump-dom): every figure with its inline SVG labelled for screen
//    readers and its caption, every table of the file with its caption, and nothing that points
//    outside the page (no src, no link but to an anchor);
//  - the browser's own record of its network activity (--log-net-log): no request made on the
//    page's behalf. Chromium's background requests (its clock, update and account services,
//    which it attempts even with --disable-background-networking) carry the initiator "not an
//    origin"; a page's carry the page's origin ("null" for a file). The first test shows that
//    this check sees a page's requests when there are some, and that the page's policy
//    (default-src 'none') stops them.
// Without a browser the tests are skipped with a message. One browser start per page (two for
// the first test).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "html_report_support.hpp"
#include "mcpilot/io/plot.hpp"

namespace mcpilot::test {
namespace MCPILOT_TEST_FILE {

namespace fs = std::filesystem;

// MCPILOT_BROWSER, or chromium on PATH.
std::string find_browser() {
  if (const char* b = std::getenv("MCPILOT_BROWSER"); b && *b) return b;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (std::size_t at = 0; at <= dirs.size();) {
    const auto colon = std::min(dirs.find(':', at), dirs.size());
    for (const char* name : {"chromium", "chromium-browser"}) {
      const fs::path candidate = fs::path(dirs.substr(at, colon - at)) / name;
      if (!dirs.substr(at, colon - at).empty() && access(candidate.c_str(), X_OK) == 0)
        return candidate.string();
    }
    at = colon + 1;
  }
  return {};
}

struct rendered {
  std::string dom;
  std::vector<std::string> page_requests;  // URLs requested on the page's behalf
  int exit_code = -1;
  std::string err;
};

// Loads `file` in a fresh headless browser (its own empty profile), as root-safe and quiet as
// Chromium allows, and returns the DOM after load and the requests the page made.
rendered render(const std::string& browser, const std::string& file) {
  static int counter = 0;
  const std::string base =
      temp_path("browser-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  const std::string profile = base + "-profile", netlog = base + ".netlog", dom = base + ".dom",
                    err = base + ".err";
  fs::remove_all(profile);
  fs::create_directories(profile);
  std::string cmd = "timeout 120 " + shell_quote(browser) +
                    " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
                    " --disable-background-networking --disable-component-update --disable-sync"
                    " --disable-dev-shm-usage"
                    " --user-data-dir=" +
                    shell_quote(profile) + " --log-net-log=" + shell_quote(netlog) +
                    " --dump-dom " + shell_quote("file://" + fs::absolute(file).string()) + " >" +
                    shell_quote(dom) + " 2>" + shell_quote(err);
  const int status = std::system(cmd.c_str());
  rendered r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.dom = slurp(dom);
  r.err = slurp(err);
  const nlohmann::json log = nlohmann::json::parse(slurp(netlog));
  std::map<int, std::string> types;
  for (const auto& [name, id] : log["constants"]["logEventTypes"].items())
    types[id.get<int>()] = name;
  for (const auto& e : log["events"]) {
    if (types[e["type"].get<int>()] != "URL_REQUEST_START_JOB" || !e.contains("params")) continue;
    const auto& p = e["params"];
    if (!p.contains("url")) continue;
    const std::string initiator = p.value("initiator", "");
    const std::string isolation = p.value("network_isolation_key", "");
    if (initiator != "not an origin" || isolation.find("file:") != std::string::npos)
      r.page_requests.push_back(p["url"].get<std::string>());
  }
  fs::remove_all(profile);
  for (const auto& f : {netlog, dom, err}) fs::remove(f);
  return r;
}

#define REQUIRE_BROWSER(browser)                                                                 \
  const std::string browser = find_browser();                                                    \
  if (browser.empty())                                                                           \
    GTEST_SKIP() << "no browser: install the Debian package chromium (scripts/install-deps.sh) " \
                    "to render the reports, or name one in MCPILOT_BROWSER";

// A report page with an image and a style sheet from elsewhere added to it: its own
// Content-Security-Policy keeps the browser from asking for either, and without the policy the
// network log sees both requests (port 9 of this machine refuses them), so the check below can
// fail.
TEST(HtmlReportBrowser, ThePolicyBlocksRequestsThatTheNetworkLogSees) {
  REQUIRE_BROWSER(browser);
  const std::string path = temp_path("browser-control.html");
  ASSERT_EQ(make_report(report_kind::analyze, path).exit_code, 0);
  std::string page = slurp(path);
  const auto footer = page.find("</footer>");
  ASSERT_NE(footer, std::string::npos);
  page.insert(footer,
              "<img alt=\"x\" src=\"http://127.0.0.1:9/x.png\">"
              "<link rel=\"stylesheet\" href=\"http://127.0.0.1:9/s.css\">");
  const rendered guarded = render(browser, write_text(path, page));
  ASSERT_EQ(guarded.exit_code, 0) << guarded.err;
  EXPECT_TRUE(guarded.page_requests.empty()) << guarded.page_requests.front();

  const auto policy = page.find("<meta http-equiv=\"Content-Security-Policy\"");
  ASSERT_NE(policy, std::string::npos);
  page.erase(policy, page.find('>', policy) + 1 - policy);
  const rendered open = render(browser, write_text(path, page));
  ASSERT_EQ(open.exit_code, 0) << open.err;
  std::vector<std::string> asked = open.page_requests;
  std::sort(asked.begin(), asked.end());
  EXPECT_EQ(asked,
            (std::vector<std::string>{"http://127.0.0.1:9/s.css", "http://127.0.0.1:9/x.png"}));
}

void expect_renders(report_kind kind) {
  REQUIRE_BROWSER(browser);
  const std::string path = temp_path("browser-" + to_string(kind) + ".html");
  const run_result made = make_report(kind, path);
  ASSERT_EQ(made.exit_code, 0) << made.out << made.err;
  const std::string file = slurp(path);
  const rendered r = render(browser, path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_NE(r.dom.find("<main>"), std::string::npos) << r.dom.substr(0, 2000);

  EXPECT_TRUE(r.page_requests.empty()) << "the page asked for " << r.page_requests.front();
  EXPECT_NE(r.dom.find("http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"),
            std::string::npos);
  EXPECT_EQ(r.dom.find(" src="), std::string::npos);
  for (auto at = r.dom.find(" href=\""); at != std::string::npos;
       at = r.dom.find(" href=\"", at + 1))
    EXPECT_EQ(r.dom[at + 7], '#') << r.dom.substr(at, 80);

  // Every figure: inline and labelled (or, without gnuplot, the note in its place), captioned.
  const std::size_t figures = expected_figures(kind);
  EXPECT_EQ(count_of(r.dom, "<figure id="), figures);
  EXPECT_EQ(captions(r.dom, "figcaption").size(), figures);
  for (std::size_t k = 1; k <= figures; ++k) {
    const std::string id = "figure-" + std::to_string(k);
    const auto begin = r.dom.find("<figure id=\"" + id + "\">");
    ASSERT_NE(begin, std::string::npos) << id;
    const std::string fig = r.dom.substr(begin, r.dom.find("</figure>", begin) - begin);
    if (gnuplot_available()) {
      EXPECT_NE(fig.find("<svg role=\"img\" aria-labelledby=\"" + id + "-title " + id + "-desc\""),
                std::string::npos)
          << id;
      EXPECT_NE(fig.find("<title id=\"" + id + "-title\">Figure " + std::to_string(k) + ". "),
                std::string::npos);
      EXPECT_NE(fig.find("<desc id=\"" + id + "-desc\">"), std::string::npos);
      EXPECT_GT(count_of(fig, "<path"), 10u) << id << ": the picture's lines";
    } else {
      EXPECT_NE(fig.find("would be drawn here"), std::string::npos) << id;
    }
  }
  // Every table of the file, with its caption, in the browser's DOM.
  const auto in_file = captions(file, "caption"), in_dom = captions(r.dom, "caption");
  EXPECT_GE(in_file.size(), 3u);
  EXPECT_EQ(in_dom, in_file);
  EXPECT_EQ(count_of(r.dom, "<table"), in_file.size());
}

TEST(HtmlReportBrowser, RunSession) {
  expect_renders(report_kind::run);
}
TEST(HtmlReportBrowser, RunSweep) {
  expect_renders(report_kind::sweep);
}
TEST(HtmlReportBrowser, Analyze) {
  expect_renders(report_kind::analyze);
}
TEST(HtmlReportBrowser, Scaling) {
  expect_renders(report_kind::scaling);
}
TEST(HtmlReportBrowser, Bench) {
  expect_renders(report_kind::bench);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot::test
