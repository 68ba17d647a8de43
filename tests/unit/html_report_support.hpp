#pragma once
// One `--report FILE.html` of each kind, made by the built `mcpilot` the way a user would, for
// the report tests (html_report_cli_test.cpp) and the browser tests
// (html_report_browser_test.cpp). Each is quick: a converging storage config (importance
// sampling: a fraction of a second), its five-point sweep, the sample readings and scaling table
// under configs/samples, and bench on the helper program's N(10, 1) and N(12, 1) readings.

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "cli_test_support.hpp"

namespace mcpilot::test {

enum class report_kind { run, sweep, analyze, scaling, bench };

inline std::string to_string(report_kind k) {
  switch (k) {
    case report_kind::run:
      return "run";
    case report_kind::sweep:
      return "sweep";
    case report_kind::analyze:
      return "analyze";
    case report_kind::scaling:
      return "scaling";
    case report_kind::bench:
      return "bench";
  }
  return "?";
}

// The figures each kind's page holds: the intervals by round; the sweep's curves; the readings;
// the fits with local exponents; bench's readings of each of two commands and their ratio.
inline std::size_t expected_figures(report_kind k) {
  return k == report_kind::bench ? 3 : 1;
}

inline std::string source_path(const std::string& relative) {
  return std::string(MCPILOT_SOURCE_DIR) + "/" + relative;
}

// mcpilot ... --report PATH, plus `extra` arguments.
inline run_result make_report(report_kind k, const std::string& path,
                              const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args;
  switch (k) {
    case report_kind::run:
      args = {"run", source_path("configs/storage/raid6-exponential.toml"), "--quiet"};
      break;
    case report_kind::sweep:
      args = {"run", source_path("configs/storage/disks-sweep.toml"), "--quiet"};
      break;
    case report_kind::analyze:
      args = {"analyze", source_path("configs/samples/latency.csv")};
      break;
    case report_kind::scaling:
      args = {"scaling",  source_path("configs/samples/scaling-nlogn.csv"),
              "--models", "linear,n_log_n,quadratic",
              "--seed",   "7",
              "--unit",   "s"};
      break;
    case report_kind::bench: {
      const std::string helper = MCPILOT_BENCH_HELPER;
      args = {"bench",
              "--quiet",
              "--preset",
              "quick",
              "--output",
              "csv:x",
              "-n",
              "a",
              "-n",
              "b",
              "--max-runs",
              "400",
              helper + " normal 10 1",
              helper + " normal 12 1"};
      break;
    }
  }
  args.push_back("--report");
  args.push_back(path);
  args.insert(args.end(), extra.begin(), extra.end());
  if (k != report_kind::bench) return run_mcpilot(args);
  // The helper's draws depend only on its seed and a run counter kept in a file.
  const temp_file state("", ".state");
  setenv("BENCH_HELPER_STATE", state.path().c_str(), 1);
  setenv("BENCH_HELPER_SEED", "3", 1);
  run_result r = run_mcpilot(args);
  unsetenv("BENCH_HELPER_STATE");
  unsetenv("BENCH_HELPER_SEED");
  return r;
}

// How many times `needle` occurs in `text`.
inline std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Markup's text: the five entities the report writes decoded, as a browser's DOM holds them.
inline std::string text_of(std::string s) {
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"&#39;", "'"}, {"&quot;", "\""}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}})
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  return s;
}

// The text of every <caption> (or <figcaption>) in order, tags inside removed, entities decoded.
inline std::vector<std::string> captions(const std::string& html, const std::string& tag) {
  std::vector<std::string> out;
  const std::string open = "<" + tag + ">", close = "</" + tag + ">";
  for (auto at = html.find(open); at != std::string::npos; at = html.find(open, at + 1)) {
    const auto end = html.find(close, at);
    if (end == std::string::npos) break;
    std::string text;
    bool in_tag = false;
    for (char c : html.substr(at + open.size(), end - at - open.size())) {
      if (c == '<') in_tag = true;
      if (!in_tag) text += c;
      if (c == '>') in_tag = false;
    }
    out.push_back(text_of(text));
  }
  return out;
}

}  // namespace mcpilot::test
