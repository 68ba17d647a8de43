// What `mcpilot run` writes, checked on engines fed by hand: the JSON fields of the design, the
// raw readings CSV reading back bit-identical (and recomputing the same interval), the table, the
// progress line and the environment record.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "mcpilot/engine.hpp"
#include "mcpilot/io/environment.hpp"
#include "mcpilot/io/progress.hpp"
#include "mcpilot/io/session_output.hpp"
#include "mcpilot/stats/analysis.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;

model_spec two_quantities(bool stream_style = false) {
  model_spec s;
  if (stream_style) s.stream_style();
  s.quantity("wait").with_unit("s");
  s.proportion("late").optional();
  if (!stream_style)
    s.derived("ratio", {"wait", "late"}, [](std::span<const double> m) { return m[0] / m[1]; });
  return s;
}

engine_options options() {
  engine_options o;
  o.session_precision = *preset("normal");
  o.streams = 2;
  return o;
}

// A finished replication-style session over n rows of Normal(10, 1) and Bernoulli(0.3).
session_result replication_session(std::size_t n) {
  static const model_spec spec = two_quantities();
  auto e = std::make_shared<engine>(spec, options());
  std::mt19937_64 g(42);
  boost::random::normal_distribution<double> d(10.0, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    const double row[3] = {d(g), (g() % 10) < 3 ? 1.0 : 0.0, 0.0};
    e->add_replication(row);
  }
  e->evaluate();
  session_result r;
  r.quantities = e->results();
  r.replications = e->replications();
  r.rounds = 1;
  r.threads = 2;
  r.stopped_because = stop_reason::max_replications;
  r.start = std::chrono::system_clock::now();
  r.end = r.start + std::chrono::milliseconds(1500);
  r.readings = e;
  return r;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The words are the JSON and CSV contract of docs/cli.md and docs/bench.md: code compares the
// enum, so a renamed word would pass every other test and break every script that reads them.
TEST(StopReason, WordsAndExplanationsAreTheDocumentedOnes) {
  const std::pair<stop_reason, const char*> words[] = {
      {stop_reason::converged, "converged"},
      {stop_reason::unreachable, "unreachable"},
      {stop_reason::max_replications, "max_replications"},
      {stop_reason::max_runs, "max_runs"},
      {stop_reason::max_seconds, "max_seconds"},
      {stop_reason::interrupted, "interrupted"},
      {stop_reason::error, "error"}};
  std::vector<std::string_view> explained;
  for (const auto& [r, w] : words) {
    EXPECT_EQ(to_string(r), w);
    std::ostringstream out;
    out << r;
    EXPECT_EQ(out.str(), w);
    EXPECT_FALSE(explain(r).empty()) << w;
    explained.push_back(explain(r));
  }
  std::sort(explained.begin(), explained.end());
  EXPECT_EQ(std::unique(explained.begin(), explained.end()), explained.end())
      << "two reasons explained alike";
}

TEST(SessionOutput, JsonHasTheDesignFields) {
  const auto r = replication_session(400);
  session_metadata m;
  m.seed = 17;
  m.config = {{"experiment", {{"seed", 17}}}};
  m.environment = {{"version", "x"}};
  m.analytic = {{"wait", 10.0}};
  const auto j = to_json(r, m);
  for (const char* key : {"quantities", "replications", "rounds", "seed", "threads", "config",
                          "environment", "stopped_because", "error", "converged", "style"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["replications"], 400);
  EXPECT_EQ(j["seed"], 17);
  EXPECT_EQ(j["threads"], 2);
  EXPECT_EQ(j["style"], "replication");
  EXPECT_TRUE(j["streams"].is_null());
  EXPECT_EQ(j["stopped_because"], "max_replications");
  EXPECT_TRUE(j["error"].is_null());
  EXPECT_EQ(j["config"]["experiment"]["seed"], 17);
  ASSERT_EQ(j["quantities"].size(), 3u);
  const auto& w = j["quantities"][0];
  for (const char* key : {"n",
                          "mean",
                          "ci_low",
                          "ci_high",
                          "ci_width",
                          "ci_width_rel",
                          "subsession_size",
                          "subsession_count",
                          "autocorrelation",
                          "subsession_autocorrelation",
                          "required_samples",
                          "converged",
                          "kind",
                          "confidence",
                          "warmup",
                          "name",
                          "unit",
                          "required",
                          "derived",
                          "analytic",
                          "requirements"})
    EXPECT_TRUE(w.contains(key)) << key;
  EXPECT_EQ(w["name"], "wait");
  EXPECT_EQ(w["unit"], "s");
  EXPECT_EQ(w["required"], true);
  EXPECT_EQ(w["derived"], false);
  EXPECT_EQ(w["analytic"], 10.0);
  EXPECT_EQ(w["analytic_covered"], *covers(r.quantities[0].stats, 10.0));
  EXPECT_EQ(w["n"], 400);
  EXPECT_EQ(w["mean"].get<double>(), *r.quantities[0].stats.mean);
  EXPECT_EQ(w["requirements"]["ci_perc"], 0.10);
  EXPECT_EQ(j["quantities"][1]["kind"], "proportion");
  EXPECT_EQ(j["quantities"][1]["required"], false);
  EXPECT_TRUE(j["quantities"][1]["analytic"].is_null());
  EXPECT_TRUE(j["quantities"][1]["analytic_covered"].is_null());
  EXPECT_EQ(j["quantities"][2]["derived"], true);
  // converged means every required one converged; with sd/mean 0.1 and 400 readings "wait" has.
  EXPECT_EQ(j["converged"], r.all_required_converged());

  session_result failed = replication_session(10);
  failed.error = "replication 10 (seed 17) failed: boom";
  failed.stopped_because = stop_reason::error;
  EXPECT_EQ(to_json(failed, m)["error"], *failed.error);
}

TEST(SessionOutput, RawReplicationReadingsReadBackExactly) {
  const auto r = replication_session(50);
  std::ostringstream out;
  write_raw_readings(out, r, two_quantities());
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 1u + 2 * 50);  // the derived quantity has no readings of its own
  EXPECT_EQ(lines[0], "replication,quantity,value");
  for (std::size_t i = 0; i < 50; ++i) {
    for (std::size_t q = 0; q < 2; ++q) {
      const std::string& line = lines[1 + 2 * i + q];
      const auto c1 = line.find(','), c2 = line.find(',', c1 + 1);
      EXPECT_EQ(line.substr(0, c1), std::to_string(i));
      EXPECT_EQ(line.substr(c1 + 1, c2 - c1 - 1), q == 0 ? "wait" : "late");
      EXPECT_EQ(std::stod(line.substr(c2 + 1)), r.readings->readings(q)[i]) << line;
    }
  }
}

TEST(SessionOutput, RawReadingsRecomputeTheSameInterval) {
  // What docs/cli.md tells a user to do: take one quantity's values and analyze them with the
  // session's requirements (replications are independent: no warm-up removal).
  const auto r = replication_session(400);
  std::ostringstream out;
  write_raw_readings(out, r, two_quantities());
  std::vector<double> wait;
  for (const auto& line : lines_of(out.str())) {
    const auto c1 = line.find(','), c2 = line.find(',', c1 + 1);
    if (line.substr(c1 + 1, c2 - c1 - 1) == "wait") wait.push_back(std::stod(line.substr(c2 + 1)));
  }
  analysis_options o;
  o.requirements = *preset("normal");
  o.requirements.interval = r.quantities[0].requirements.interval;  // what the session used
  o.remove_warmup = false;
  const analysis a = analyze(wait, o);
  EXPECT_EQ(*a.mean, *r.quantities[0].stats.mean);
  EXPECT_EQ(*a.ci_low, *r.quantities[0].stats.ci_low);
  EXPECT_EQ(*a.ci_high, *r.quantities[0].stats.ci_high);
}

TEST(SessionOutput, RawStreamReadingsNameStreamAndIndex) {
  const model_spec spec = two_quantities(true);
  auto e = std::make_shared<engine>(spec, options());
  const std::vector<double> s0 = {1.5, 2.5, 3.5}, s1 = {4.25, 5.25, 6.25};
  const std::vector<double> l0 = {0, 1, 0}, l1 = {1, 1, 0};
  e->add_stream_readings(0, 0, s0);
  e->add_stream_readings(0, 1, l0);
  e->add_stream_readings(1, 0, s1);
  e->add_stream_readings(1, 1, l1);
  session_result r;
  r.readings = e;
  std::ostringstream out;
  write_raw_readings(out, r, spec);
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 13u);
  EXPECT_EQ(lines[0], "stream,index,quantity,value");
  EXPECT_EQ(lines[1], "0,0,wait,1.5");
  EXPECT_EQ(lines[3], "0,2,wait,3.5");
  EXPECT_EQ(lines[4], "0,0,late,0");
  EXPECT_EQ(lines[8], "1,1,wait,5.25");
  EXPECT_EQ(lines[12], "1,2,late,0");
}

TEST(SessionOutput, TableShowsEveryQuantityAndWhyItStopped) {
  const auto r = replication_session(400);
  std::ostringstream out;
  write_session_table(out, r, {"exp", "m", "normal", 17});
  const std::string t = out.str();
  EXPECT_EQ(t.rfind("exp: model m, seed 17, preset normal, 2 threads", 0), 0u) << t;
  for (const char* s : {"quantity", "mean", "interval", "±%", "readings", "subsession", "converged",
                        "wait (s)", "late", "ratio", "(optional)", "stopped: max_replications",
                        "after 400 replications in 1 round"})
    EXPECT_NE(t.find(s), std::string::npos) << s << "\n" << t;
  // The "wait" row shows its readings count and interval brackets.
  const auto lines = lines_of(t);
  const auto row = std::find_if(lines.begin(), lines.end(),
                                [](const std::string& l) { return l.rfind("wait", 0) == 0; });
  ASSERT_NE(row, lines.end());
  EXPECT_NE(row->find("400"), std::string::npos) << *row;
  EXPECT_NE(row->find('['), std::string::npos) << *row;
}

TEST(SessionOutput, CoversIsTheClosedIntervalWithAnUnboundedUpperEnd) {
  analysis a;
  EXPECT_FALSE(covers(a, 1.0).has_value());  // no interval
  a.ci_low = 1.0;
  a.ci_high = 2.0;
  EXPECT_TRUE(*covers(a, 1.0));
  EXPECT_TRUE(*covers(a, 2.0));
  EXPECT_FALSE(*covers(a, 2.5));
  EXPECT_FALSE(*covers(a, 0.5));
  a.ci_high.reset();  // a rate whose upper end is unbounded
  EXPECT_TRUE(*covers(a, 1e300));
}

TEST(SessionOutput, TableShowsExactValuesWhenTheModelKnowsThem) {
  const auto r = replication_session(400);
  std::ostringstream out;
  write_session_table(out, r, {"exp", "m", "normal", 17, {{"wait", 10.0}}});
  const auto lines = lines_of(out.str());
  const auto header = std::find_if(
      lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("quantity", 0) == 0; });
  ASSERT_NE(header, lines.end());
  EXPECT_NE(header->find("exact"), std::string::npos) << *header;
  EXPECT_NE(header->find("covered"), std::string::npos) << *header;
  const auto row = std::find_if(lines.begin(), lines.end(),
                                [](const std::string& l) { return l.rfind("wait", 0) == 0; });
  ASSERT_NE(row, lines.end());
  const bool in = *covers(r.quantities[0].stats, 10.0);
  const std::string last = row->substr(row->find_last_of(' ') + 1);  // the "covered" cell
  EXPECT_EQ(last, in ? "yes" : "no") << *row;
  // Without exact values the columns are not there.
  std::ostringstream plain;
  write_session_table(plain, r, {"exp", "m", "normal", 17});
  EXPECT_EQ(plain.str().find("covered"), std::string::npos);
}

TEST(SessionOutput, ProgressLineShowsWidthAgainstTargetAndWhatRemains) {
  const auto r = replication_session(60);  // too few for a 10% width on the proportion
  session_progress p;
  p.round = 2;
  p.replications = 60;
  p.elapsed_seconds = 0.5;
  p.quantities = &r.quantities;
  p.next_round = 100;
  const std::string line = progress_line(p);
  EXPECT_EQ(line.rfind("round 2: 60 replications, ", 0), 0u) << line;
  EXPECT_NE(line.find("| wait "), std::string::npos) << line;
  EXPECT_NE(line.find("(target 10%)"), std::string::npos) << line;
  EXPECT_NE(line.find("next round 100"), std::string::npos) << line;
  // Stream style counts readings, and its rounds are per stream.
  p.streams = 4;
  const std::string streams = progress_line(p);
  EXPECT_EQ(streams.rfind("round 2: 60 readings in 4 streams, ", 0), 0u) << streams;
  EXPECT_NE(streams.find("next round 100 per stream"), std::string::npos) << streams;
}

TEST(SessionOutput, ProgressLineShowsTheBoundOfAProportionWithNoEvents) {
  quantity_result q;
  q.name = "loss";
  q.kind = quantity_kind::proportion;
  q.requirements = *preset("normal");
  analysis_options o;
  o.kind = quantity_kind::proportion;
  o.requirements = q.requirements;
  q.stats = analyze(std::vector<double>(100, 0.0), o);
  const std::vector<quantity_result> qs{q};
  session_progress p;
  p.round = 1;
  p.replications = 100;
  p.quantities = &qs;
  const std::string line = progress_line(p);
  // R: binom.test(0, 100, alternative = "less")$conf.int[2] = 0.02951305
  EXPECT_NE(line.find("loss no events, p <= 0.02951"), std::string::npos) << line;
  EXPECT_NE(line.find("more"), std::string::npos) << line;
}

// A drifting stream: 300 readings at 10, 300 at 20, 300 at 30, with noise, so that no phase holds
// half. Its interval is of the latest phase, which may already be narrow enough, and the line must
// say that the drift, not a count of readings, keeps the session going.
TEST(SessionOutput, ProgressLineSaysWhenOnlyTheLatestPhaseHasAnInterval) {
  std::mt19937_64 gen(7);
  boost::random::normal_distribution<double> noise(0, 0.5);
  std::vector<double> x;
  for (const double level : {10.0, 20.0, 30.0})
    for (int i = 0; i < 300; ++i) x.push_back(level + noise(gen));
  quantity_result q;
  q.name = "t";
  q.required = true;
  q.requirements = *preset("normal");
  analysis_options o;
  o.requirements = q.requirements;
  q.stats = analyze(x, o);
  ASSERT_TRUE(q.stats.phase.latest) << q.stats.status;
  ASSERT_FALSE(q.stats.converged);
  const std::vector<quantity_result> qs{q};
  session_progress p;
  p.round = 3;
  p.replications = x.size();
  p.quantities = &qs;
  const std::string line = progress_line(p);
  EXPECT_NE(line.find("drifting: latest phase only (readings 600-900)"), std::string::npos) << line;
  EXPECT_EQ(line.find("more"), std::string::npos) << line;
}

TEST(SessionOutput, EnvironmentRecordsBuildMachineAndTimes) {
  const auto start = std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));
  const auto end = start + std::chrono::milliseconds(2500);
  const auto j = environment_json(start, end, 7, 2);
  // 1'700'000'000 s after the epoch: `date -u -d @1700000000` = Tue Nov 14 22:13:20 UTC 2023.
  EXPECT_EQ(j["start"], "2023-11-14T22:13:20.000Z");
  EXPECT_EQ(j["end"], "2023-11-14T22:13:22.500Z");
  EXPECT_EQ(j["elapsed_seconds"], 2.5);
  EXPECT_EQ(j["seed"], 7);
  EXPECT_EQ(j["threads"], 2);
  for (const char* key : {"version", "git_commit", "compiler", "cxx_flags", "build_type", "os",
                          "cpu_model", "cores", "hostname"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_TRUE(std::regex_match(j["version"].get<std::string>(), std::regex(R"(\d+\.\d+\.\d+)")));
  EXPECT_GT(j["cores"].get<unsigned>(), 0u);
  EXPECT_FALSE(j["hostname"].get<std::string>().empty());
}

TEST(SessionOutput, ModelFactsAreShownUnderTheTitleAndInTheJson) {
  const auto r = replication_session(200);
  const std::vector<model_fact> facts = {{"v", std::int64_t{13}, "devices"},
                                         {"balanced", true, ""},
                                         {"overhead", 1.5039, ""},
                                         {"bins", std::vector<std::int64_t>{257, 256, 257}, ""},
                                         {"layout", std::string("rozofs-2-3"), ""}};
  std::ostringstream out;
  write_session_table(out, r, {"exp", "m", "normal", 17, {}, facts});
  const auto lines = lines_of(out.str());
  ASSERT_GE(lines.size(), 7u);
  // Directly under the title, before the quantity table.
  EXPECT_EQ(lines[1], "  v = 13  (devices)");
  EXPECT_EQ(lines[2], "  balanced = yes");
  EXPECT_EQ(lines[3], "  overhead = 1.5039");
  EXPECT_EQ(lines[4], "  bins = [257, 256, 257]");
  EXPECT_EQ(lines[5], "  layout = rozofs-2-3");

  session_metadata meta;
  meta.facts = facts;
  const auto j = to_json(r, meta);
  ASSERT_TRUE(j.contains("model_facts"));
  const auto& f = j["model_facts"];
  EXPECT_EQ(f["v"], 13);
  EXPECT_EQ(f["balanced"], true);
  EXPECT_DOUBLE_EQ(f["overhead"].get<double>(), 1.5039);
  EXPECT_EQ(f["bins"], nlohmann::ordered_json({257, 256, 257}));
  EXPECT_EQ(f["layout"], "rozofs-2-3");
  // Declaration order is kept, and a model without facts gets an empty object, not null.
  EXPECT_EQ(f.begin().key(), "v");
  EXPECT_TRUE(to_json(r, session_metadata{})["model_facts"].is_object());
  EXPECT_TRUE(to_json(r, session_metadata{})["model_facts"].empty());
}

}  // namespace MCPILOT_TEST_FILE
