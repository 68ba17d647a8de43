// `mcpilot run` of a config with [sweep], in process, with small test models: the results table
// (CSV header and rows, JSON points[], the human table), `--point K` reproducing a point's numbers,
// thread-count independence, a failing point (bad value, throwing replication, limit) that leaves
// the sweep going with the worst exit code, Ctrl-C, --progress, and stop-axis rules (a model's,
// through the CLI; a program's, through run_sweep in zip mode).
#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>

#include <cmath>
#include <csignal>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/registry.hpp"
#include "mcpilot/sweep/run.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;

// Readings ~ Normal(mean, sd * mean); replication `fail_at` throws, `interrupt_at` raises SIGINT.
class scaled_normal : public model {
 public:
  void declare(model_spec& s) const override {
    s.number("mean", 10, "mean of the readings").positive();
    s.number("cv", 0.1, "standard deviation over mean").at_least(0);
    s.integer("fail_at", -1, "replication that throws (-1: none)");
    s.integer("interrupt_at", -1, "replication that raises SIGINT (-1: none)");
    s.quantity("x").with_unit("s");
  }
  void configure(const parameters& p) override {
    mean_ = p.number("mean");
    cv_ = p.number("cv");
    fail_at_ = p.integer("fail_at");
    interrupt_at_ = p.integer("interrupt_at");
  }
  void replicate(replication& r) const override {
    const auto i = static_cast<std::int64_t>(r.index());
    if (i == fail_at_) throw std::runtime_error("disk array on fire");
    if (i == interrupt_at_) std::raise(SIGINT);
    boost::random::normal_distribution<double> d(mean_, cv_ * mean_);
    r.record(0, d(r.rng()));
  }
  std::map<std::string, double> analytic() const override { return {{"x", mean_}}; }

 private:
  double mean_ = 0, cv_ = 0;
  std::int64_t fail_at_ = -1, interrupt_at_ = -1;
};

// A sort's time: n log2 n for "nlogn", n^2 / 4 for "quadratic" (equal at n = 16), with 5% noise.
// Its rule, the sorting issue's: stop "quadratic" along model.n once its interval at the previous n
// lies wholly above the "nlogn" interval at that n.
class sort_model : public model {
 public:
  void declare(model_spec& s) const override {
    s.integer("n", 16, "elements").at_least(2);
    s.choice("algorithm", "nlogn", {"nlogn", "quadratic"}, "cost law");
    s.quantity("time").with_unit("ops");
  }
  void configure(const parameters& p) override {
    // A constraint across fields, named at the field that is not swept.
    if (p.string("algorithm") == "quadratic" && p.integer("n") > 4096)
      throw parameter_error("algorithm", "quadratic sorts stop at n = 4096");
    const double n = static_cast<double>(p.integer("n"));
    cost_ = p.string("algorithm") == "nlogn" ? n * std::log2(n) : n * n / 4;
  }
  void replicate(replication& r) const override {
    boost::random::normal_distribution<double> d(cost_, 0.05 * cost_);
    r.record(0, d(r.rng()));
  }
  std::vector<stop_axis_rule> stop_axis_rules() const override {
    auto rule = [](const axis_point& next,
                   std::span<const axis_point> done) -> std::optional<std::string> {
      if (next.text("model.algorithm") != "quadratic") return std::nullopt;
      // The latest quadratic point below this n, and the nlogn point at the same n.
      const axis_point* slow = nullptr;
      for (const auto& p : done)
        if (p.quantity("time") && p.text("model.algorithm") == "quadratic" &&
            *p.number("model.n") < *next.number("model.n"))
          slow = &p;
      if (!slow) return std::nullopt;
      for (const auto& p : done) {
        if (p.text("model.algorithm") != "nlogn" ||
            p.number("model.n") != slow->number("model.n") || !p.quantity("time"))
          continue;
        const axis_point::estimate& a = *slow->quantity("time");
        const axis_point::estimate& b = *p.quantity("time");
        if (a.ci_low && b.ci_high && *a.ci_low > *b.ci_high)
          return "quadratic's interval at n = " +
                 std::to_string(static_cast<long long>(*slow->number("model.n"))) +
                 " lies above nlogn's";
      }
      return std::nullopt;
    };
    return {{"model.n", rule, {}}};
  }

 private:
  double cost_ = 0;
};

const model_registry& registry() {
  static const model_registry r = [] {
    model_registry m;
    m.add<scaled_normal>("test.scaled");
    m.add<sort_model>("test.sort");
    return m;
  }();
  return r;
}

struct outcome {
  int code = -1;
  std::string out, err;
};

outcome run_cli(std::vector<std::string> args) {
  auto r = test::run_in_process(registry(), std::move(args));
  return {r.exit_code, std::move(r.out), std::move(r.err)};
}

std::string temp(const std::string& name) {
  return test::temp_path("cli_sweep_" + name);
}

std::string write_file(const std::string& name, const std::string& text) {
  return test::write_text(temp(name), text);
}

std::string read_file(const std::string& path) {
  return test::slurp(path);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// cv 0.1 and a 2% whole width: about (2 * 1.96 * 0.1 / 0.02)^2 = 384 readings per point.
std::string scaled_config(const std::string& sweep, const std::string& extra_model = "") {
  return "[experiment]\nname = \"grid\"\nseed = 11\nthreads = 2\nci_perc = 0.02\n"
         "[model]\nname = \"test.scaled\"\n" +
         extra_model + "[sweep]\n" + sweep;
}

TEST(CliSweep, CsvJsonAndTableHaveARowPerPoint) {
  const auto cfg = write_file("basic.toml", scaled_config("\"model.mean\" = [5, 10, 20]\n"));
  const auto csv = temp("basic.csv"), json = temp("basic.json");
  const auto o = run_cli({"run", cfg, "--table", csv, "--json", json});
  ASSERT_EQ(o.code, exit_ok) << o.err << o.out;
  const auto rows = lines_of(read_file(csv));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0],
            "point,model.mean,quantity,mean,ci_low,ci_high,ci_width_rel,readings,converged,"
            "stopped_because,analytic");
  EXPECT_EQ(rows[1].rfind("0,5,x,", 0), 0u) << rows[1];
  EXPECT_NE(rows[2].find(",true,converged,10"), std::string::npos) << rows[2];

  const auto j = nlohmann::json::parse(read_file(json));
  ASSERT_EQ(j["points"].size(), 3u);
  EXPECT_EQ(j["sweep"]["keys"][0], "model.mean");
  EXPECT_EQ(j["exit_code"], 0);
  for (std::size_t k = 0; k < 3; ++k) {
    const auto& p = j["points"][k];
    EXPECT_EQ(p["point"], k);
    EXPECT_EQ(p["seed"], point_seed(11, k));
    EXPECT_EQ(p["status"], "ran");
    const auto& q = p["quantities"][0];
    const double mean = p["values"]["model.mean"].get<double>();
    EXPECT_EQ(q["analytic"], mean);
    // Readings ~ N(mean, (mean/10)^2): the estimate within 5 standard errors of the exact mean.
    EXPECT_NEAR(q["mean"].get<double>(), mean, 5 * 0.1 * mean / std::sqrt(q["n"].get<double>()));
    EXPECT_LE(q["ci_width_rel"].get<double>(), 0.02);
  }
  EXPECT_NE(o.out.find("sweep of 3 points (product of model.mean (3))"), std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("x (s)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("3 ran (3 converged), 0 failed, 0 skipped; "), std::string::npos) << o.out;
}

TEST(CliSweep, PointRerunAloneGivesTheSameNumbersAndThreadsDoNotMatter) {
  const auto cfg = write_file(
      "rerun.toml", scaled_config("\"model.mean\" = [5, 10]\n\"model.cv\" = [0.05, 0.1]\n"));
  const auto all = temp("all.csv"), one_thread = temp("one.csv"), alone = temp("alone.csv");
  ASSERT_EQ(run_cli({"run", cfg, "--table", all}).code, exit_ok);
  ASSERT_EQ(run_cli({"run", cfg, "--table", one_thread, "--threads", "1"}).code, exit_ok);
  EXPECT_EQ(read_file(all), read_file(one_thread));
  const auto o = run_cli({"run", cfg, "--point", "2", "--table", alone, "--threads", "1"});
  ASSERT_EQ(o.code, exit_ok) << o.err;
  EXPECT_NE(o.out.find("point 2 of a sweep of 4 points: model.mean = 10, model.cv = 0.05"),
            std::string::npos)
      << o.out;
  const auto rows = lines_of(read_file(all)), single = lines_of(read_file(alone));
  ASSERT_EQ(single.size(), 2u);
  EXPECT_EQ(single[1], rows[3]);  // point 2's row, byte for byte
  EXPECT_EQ(single[1].rfind("2,10,0.05,x,", 0), 0u) << single[1];
  EXPECT_EQ(run_cli({"run", cfg, "--point", "4"}).code, exit_input);
}

TEST(CliSweep, AFailingPointIsReportedAndTheSweepGoesOn) {
  // cv = -1 is out of range (>= 0): point 1 fails, naming the key, the value and the point.
  const auto cfg = write_file("fail.toml", scaled_config("\"model.cv\" = [0.1, -1, 0.05]\n"));
  const auto csv = temp("fail.csv"), json = temp("fail.json");
  const auto o = run_cli({"run", cfg, "--table", csv, "--json", json});
  EXPECT_EQ(o.code, exit_input) << o.err;
  EXPECT_NE(o.out.find(cfg + ":9:1: [sweep] model.cv = -1, point 1: [model] cv must be >= 0"),
            std::string::npos)
      << o.out;
  const auto j = nlohmann::json::parse(read_file(json));
  EXPECT_EQ(j["points"][0]["status"], "ran");
  EXPECT_EQ(j["points"][1]["status"], "failed");
  EXPECT_EQ(j["points"][2]["status"], "ran");
  EXPECT_EQ(j["points"][2]["converged"], true);
  const auto rows = lines_of(read_file(csv));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[2].rfind("1,-1,x,,,,,,,\"failed: ", 0), 0u) << rows[2];
}

TEST(CliSweep, WorstOutcomeWinsErrorOverLimit) {
  // Point 0 hits max_replications (exit 3), point 1 has a throwing replication (exit 2): 2 wins.
  const auto cfg =
      write_file("worst.toml",
                 scaled_config("mode = \"zip\"\n\"experiment.max_replications\" = [150, 100000]\n"
                               "\"model.fail_at\" = [-1, 120]\n"));
  const auto json = temp("worst.json");
  const auto o = run_cli({"run", cfg, "--json", json});
  EXPECT_EQ(o.code, exit_input) << o.err;
  const auto j = nlohmann::json::parse(read_file(json));
  EXPECT_EQ(j["points"][0]["stopped_because"], "max_replications");
  EXPECT_EQ(j["points"][1]["stopped_because"], "error");
  EXPECT_NE(o.out.find("point 1: error: replication 120"), std::string::npos) << o.out;
  const auto limit_only =
      write_file("limit.toml", scaled_config("\"experiment.max_replications\" = [150, 100000]\n"));
  EXPECT_EQ(run_cli({"run", limit_only}).code, exit_limit);
}

TEST(CliSweep, InterruptWritesWhatWasMeasuredAndExits130) {
  const auto cfg =
      // Point 1 asks for +-0.05%, which its interrupted second round cannot reach, so that it is
      // reported interrupted whatever the round's size.
      write_file("int.toml",
                 scaled_config("mode = \"zip\"\n\"model.interrupt_at\" = [-1, 150, -1]\n"
                               "\"experiment.ci_perc\" = [0.02, 0.001, 0.02]\n"));
  const auto csv = temp("int.csv");
  const auto o = run_cli({"run", cfg, "--table", csv});
  EXPECT_EQ(o.code, exit_interrupted) << o.err;
  const auto rows = lines_of(read_file(csv));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_NE(rows[1].find(",converged,"), std::string::npos) << rows[1];
  EXPECT_NE(rows[2].find(",interrupted,"), std::string::npos) << rows[2];
  EXPECT_NE(rows[3].find("not run: "), std::string::npos) << rows[3];
  EXPECT_NE(o.out.find("1 not run (interrupted)"), std::string::npos) << o.out;
}

TEST(CliSweep, ProgressNamesThePointAndTheRound) {
  const auto cfg = write_file("prog.toml", scaled_config("\"model.mean\" = [5, 10]\n"));
  const auto o = run_cli({"run", cfg, "--progress"});
  ASSERT_EQ(o.code, exit_ok);
  EXPECT_NE(o.err.find("point 1 (2 of 2: model.mean = 10): starting"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("point 1 (2 of 2): round 1: "), std::string::npos) << o.err;
  EXPECT_EQ(run_cli({"run", cfg, "--progress", "--quiet"}).err.find("round"), std::string::npos);
}

TEST(CliSweep, StopAxisRuleSkipsTheRestOfTheAxisWithItsReason) {
  // n = 4, 16, 64, 256, 1024 (outer), algorithm inner. At n = 64 quadratic costs 1024 against
  // nlogn's 384: 2.7 times, with intervals of +-2.5%, so they cannot overlap; the rule then skips
  // quadratic at 256 and 1024. At n = 16 the costs are equal (64), so it runs on at 64.
  const auto cfg =
      write_file("sort.toml",
                 "[experiment]\nseed = 2\nci_perc = 0.05\n[model]\nname = \"test.sort\"\n[sweep]\n"
                 "\"model.n\" = { geometric = [4, 1024], factor = 4 }\n"
                 "\"model.algorithm\" = [\"nlogn\", \"quadratic\"]\n");
  const auto json = temp("sort.json"), csv = temp("sort.csv");
  const auto o = run_cli({"run", cfg, "--json", json, "--table", csv});
  ASSERT_EQ(o.code, exit_ok) << o.err << o.out;
  const auto j = nlohmann::json::parse(read_file(json));
  ASSERT_EQ(j["points"].size(), 10u);
  for (std::size_t k = 0; k < 10; ++k) {
    const bool skip = k == 7 || k == 9;
    EXPECT_EQ(j["points"][k]["status"], skip ? "skipped" : "ran") << k;
  }
  EXPECT_EQ(j["points"][7]["reason"],
            "stopped along model.n: quadratic's interval at n = 64 lies above nlogn's");
  EXPECT_NE(o.out.find("point 9: skipped: stopped along model.n"), std::string::npos) << o.out;
  EXPECT_NE(read_file(csv).find("9,1024,quadratic,time,,,,,,,skipped: stopped along model.n"),
            std::string::npos);
  // --point 9 runs it anyway: a rule needs the points before it.
  EXPECT_EQ(run_cli({"run", cfg, "--point", "9"}).code, exit_ok);
}

TEST(CliSweep, ARejectedCombinationNamesThePointsValues) {
  const auto cfg =
      write_file("combo.toml",
                 "[experiment]\nseed = 2\nci_perc = 0.05\n[model]\nname = \"test.sort\"\n"
                 "algorithm = \"quadratic\"\n[sweep]\n\"model.n\" = [1024, 8192]\n");
  const auto o = run_cli({"run", cfg});
  EXPECT_EQ(o.code, exit_input);
  EXPECT_NE(o.out.find("point 1: failed: at model.n = 8192: " + cfg +
                       ":6:13: [model] algorithm: quadratic sorts stop at n = 4096"),
            std::string::npos)
      << o.out;
}

TEST(CliSweep, BadSweepIsAnInputErrorBeforeAnythingRuns) {
  const auto cfg = write_file("badkey.toml", scaled_config("\"model.meen\" = [5, 10]\n"));
  const auto csv = temp("badkey.csv");
  const auto o = run_cli({"run", cfg, "--table", csv});
  EXPECT_EQ(o.code, exit_input);
  EXPECT_NE(o.err.find(cfg + ":9:1: [sweep] model.meen: not a parameter of test.scaled"),
            std::string::npos)
      << o.err;
  EXPECT_EQ(o.out, "");
  // --table needs a sweep; --raw of a sweep needs --point (one session).
  const auto plain =
      write_file("plain.toml", "[experiment]\nseed = 1\n[model]\nname = \"test.scaled\"\n");
  EXPECT_EQ(run_cli({"run", plain, "--table", csv}).code, exit_input);
  const auto good = write_file("good.toml", scaled_config("\"model.mean\" = [5]\n"));
  const auto raw = temp("good_raw.csv");
  EXPECT_EQ(run_cli({"run", good, "--raw", raw}).code, exit_input);
  EXPECT_EQ(run_cli({"run", good, "--point", "0", "--raw", raw}).code, exit_ok);
  EXPECT_EQ(read_file(raw).rfind("replication,quantity,value\n0,x,", 0), 0u);
  // Output paths are checked before anything runs: a missing folder, two outputs on one file.
  const auto missing = run_cli({"run", good, "--table", "/nonexistent-folder/t.csv"});
  EXPECT_EQ(missing.code, exit_input);
  EXPECT_EQ(missing.out, "");
  EXPECT_EQ(run_cli({"run", good, "--table", csv, "--json", csv}).code, exit_input);
}

TEST(SweepApi, AProgramsRuleInZipModeStopsTheRestOfTheSweep) {
  // Through the library: a rule from sweep_options, and zip mode, where all keys move together,
  // so one stop skips every later point. The rule stops once a mean above 15 has been seen.
  const std::string text = scaled_config(
      "mode = \"zip\"\n\"model.mean\" = [5, 20, 40, 80]\n\"model.cv\" = [0.1, 0.1, 0.1, 0.1]\n");
  const experiment_config base = parse_config(text, "zip.toml", registry());
  sweep_options options;
  options.rules.push_back(
      {"model.mean",
       [](const axis_point&, std::span<const axis_point> done) -> std::optional<std::string> {
         for (const auto& p : done)
           if (const auto* q = p.quantity("x"); q && q->mean && *q->mean > 15)
             return "a mean above 15 at model.mean = " + to_string(*p.value("model.mean"));
         return std::nullopt;
       },
       {}});
  options.rules.push_back({"model.not_swept",
                           [](const axis_point&, std::span<const axis_point>) {
                             return std::optional<std::string>("never asked");
                           },
                           {}});
  const sweep_result r = run_sweep(base, text, registry(), {}, options);
  ASSERT_EQ(r.points.size(), 4u);
  EXPECT_EQ(r.points[0].status, point_status::ran);
  EXPECT_EQ(r.points[1].status, point_status::ran);
  EXPECT_EQ(r.points[2].status, point_status::skipped);
  EXPECT_EQ(r.points[2].reason, "stopped along model.mean: a mean above 15 at model.mean = 20");
  EXPECT_EQ(r.points[3].status, point_status::skipped);
  EXPECT_EQ(r.points[3].reason, r.points[2].reason);
  EXPECT_EQ(r.exit_code(), exit_ok);
}

TEST(SweepApi, EachPointThatRanIsHandedOnWithThePointsSoFar) {
  // The hook that keeps --table up to date: called after each point whose session ran (not after
  // a skipped one), with every point so far, each already final.
  const std::string text = scaled_config(
      "mode = \"zip\"\n\"model.mean\" = [5, 20, 40]\n\"model.cv\" = [0.1, 0.1, 0.1]\n");
  const experiment_config base = parse_config(text, "so_far.toml", registry());
  sweep_options options;
  options.rules.push_back(
      {"model.mean",
       [](const axis_point&, std::span<const axis_point> done) -> std::optional<std::string> {
         if (done.size() >= 2) return "two points are enough";
         return std::nullopt;
       },
       {}});
  std::vector<std::size_t> sizes;
  std::vector<std::optional<double>> last_means;
  options.on_point_done = [&](const sweep_result& so_far) {
    sizes.push_back(so_far.points.size());
    const quantity_result* q = so_far.points.back().quantity("x");
    last_means.push_back(q ? q->stats.mean : std::nullopt);
  };
  const sweep_result r = run_sweep(base, text, registry(), {}, options);
  ASSERT_EQ(r.points.size(), 3u);
  EXPECT_EQ(r.points[2].status, point_status::skipped);
  EXPECT_EQ(sizes, (std::vector<std::size_t>{1, 2}));
  ASSERT_EQ(last_means.size(), 2u);
  EXPECT_EQ(last_means[0], r.points[0].quantity("x")->stats.mean);
  EXPECT_EQ(last_means[1], r.points[1].quantity("x")->stats.mean);
}

}  // namespace MCPILOT_TEST_FILE
