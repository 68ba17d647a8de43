// [sweep] in experiment configs: geometric ranges (exact values worked by hand), the order of
// points in product and zip mode, the point seeds' keying, and every kind of bad input naming
// FILE:LINE:COLUMN and the key.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <variant>

#include "mcpilot/error.hpp"
#include "mcpilot/io/config.hpp"
#include "mcpilot/rng.hpp"
#include "mcpilot/sweep/plan.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;

class grid_model : public model {
 public:
  void declare(model_spec& s) const override {
    s.integer("disks", 10, "disks").at_least(1);
    s.number("scrub.interval_hours", 168, "scrub interval").positive();
    s.choice("method", "naive", {"naive", "importance"}, "method");
    s.quantity("loss");
  }
  void replicate(replication& r) const override { r.record(0, 1.0); }
};

model_registry registry() {
  model_registry m;
  m.add<grid_model>("test.grid");
  return m;
}

const std::string head = "[experiment]\nseed = 3\n[model]\nname = \"test.grid\"\n";

experiment_config parse(const std::string& sweep, const config_overrides& o = {}) {
  return parse_config(head + sweep, "grid.toml", registry(), o);
}

std::string error_of(const std::string& sweep, const config_overrides& o = {}) {
  try {
    parse(sweep, o);
  } catch (const input_error& e) {
    return e.what();
  }
  return "";
}

std::int64_t integer(const param_value& v) {
  return std::get<std::int64_t>(v);
}

TEST(SweepPlan, GeometricIntegersFromTheIssueExample) {
  const auto cfg = parse("[sweep]\n\"model.disks\" = { geometric = [4, 64], factor = 2 }\n");
  ASSERT_TRUE(cfg.sweep);
  const auto& values = cfg.sweep->axes.at(0).values;
  ASSERT_EQ(values.size(), 5u);
  const std::int64_t expected[] = {4, 8, 16, 32, 64};
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(integer(values[i]), expected[i]);
  EXPECT_TRUE(cfg.sweep->axes[0].geometric);
}

TEST(SweepPlan, SquareRootOfTwoRoundedToIntegersReachesTwoToTheTwenty) {
  // 2 * sqrt(2)^j for j = 0..38: 2, 2.83, 4, 5.66, 8, 11.3, 16, 22.6, 32, ... 2^20. Rounded:
  // 2, 3, 4, 6, 8, 11, 16, 23, 32, 45, 64 (no repeats, as the spacing exceeds 1 from the start).
  const auto v = geometric_values(2, 1048576, std::sqrt(2.0), true, false, true);
  ASSERT_EQ(v.size(), 39u);
  const std::int64_t first[] = {2, 3, 4, 6, 8, 11, 16, 23, 32, 45, 64};
  for (std::size_t i = 0; i < 11; ++i) EXPECT_EQ(integer(v[i]), first[i]) << i;
  EXPECT_EQ(integer(v.back()), 1048576);
}

TEST(SweepPlan, RoundingDropsRepeatsAndNonIntegerFactorsGiveNumbers) {
  // 1, 1.2, 1.44, 1.728, 2.07, 2.49 -> 1, 1, 1, 2, 2, 2: repeats dropped.
  const auto r = geometric_values(1, 2.5, 1.2, true, false, true);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(integer(r[0]), 1);
  EXPECT_EQ(integer(r[1]), 2);
  const auto d = geometric_values(0.5, 4, 2, false, true, false);
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(std::get<double>(d[3]), 4.0);
}

TEST(SweepPlan, ProductNestsInWrittenOrderLastKeyFastest) {
  // Written b before a: toml++ sorts keys, the plan must not.
  const auto cfg = parse(
      "[sweep]\n\"model.method\" = [\"naive\", \"importance\"]\n"
      "\"model.disks\" = [4, 8, 16]\n");
  const auto& plan = *cfg.sweep;
  ASSERT_EQ(plan.size(), 6u);
  EXPECT_EQ(plan.axes[0].key, "model.method");
  const auto p4 = plan.point(4);  // (importance, 8)
  EXPECT_EQ(std::get<std::string>(p4[0]), "importance");
  EXPECT_EQ(integer(p4[1]), 8);
  EXPECT_EQ(plan.coordinates(5), (std::vector<std::size_t>{1, 2}));
}

TEST(SweepPlan, ZipTakesTheKthValueOfEveryKey) {
  const auto cfg = parse(
      "[sweep]\nmode = \"zip\"\n\"model.disks\" = [4, 8, 16]\n"
      "\"model.scrub.interval_hours\" = [24, 168.5, 720]\n");
  const auto& plan = *cfg.sweep;
  ASSERT_EQ(plan.size(), 3u);
  const auto p = plan.point(1);
  EXPECT_EQ(integer(p[0]), 8);
  EXPECT_EQ(std::get<double>(p[1]), 168.5);
}

TEST(SweepPlan, UnquotedDottedKeysAndExperimentFieldsAreAccepted) {
  const auto cfg = parse(
      "[sweep]\nmodel.disks = [4, 8]\nexperiment.ci_perc = [0.1, 0.2]\n"
      "quantity.loss.ci_perc = [0.1]\n");
  ASSERT_EQ(cfg.sweep->axes.size(), 3u);
  EXPECT_EQ(cfg.sweep->axes[0].key, "model.disks");
  EXPECT_EQ(cfg.sweep->axes[1].key, "experiment.ci_perc");
}

TEST(SweepPlan, PointSeedIsThePhiloxWordKeyedBySeedAndPoint) {
  // The contract (rng.hpp): the first word of Philox4x64-10 keyed (seed, 2^62 + k).
  philox_stream s(20261130, (std::uint64_t{1} << 62) | 7);
  EXPECT_EQ(point_seed(20261130, 7), s());
  EXPECT_NE(point_seed(20261130, 7), point_seed(20261130, 8));
  EXPECT_NE(point_seed(20261130, 7), point_seed(20261131, 7));
}

TEST(SweepPlan, TomlTextReadsBackAsTheSameType) {
  EXPECT_EQ(toml_text(param_value(std::int64_t{24})), "24");
  EXPECT_EQ(toml_text(param_value(24.0)), "24.0");
  EXPECT_EQ(toml_text(param_value(0.1)), "0.1");
  EXPECT_EQ(toml_text(param_value(std::string("a\"b"))), "\"a\\\"b\"");
  EXPECT_EQ(toml_text(param_value(true)), "true");
}

// --- bad input: FILE:LINE:COLUMN, [sweep], the key ----------------------------------------------

TEST(SweepConfig, KeyThatIsNotAParameter) {
  const auto e = error_of("[sweep]\n\"model.diskz\" = [1, 2]\n");
  EXPECT_NE(e.find("grid.toml:6:1: [sweep] model.diskz: not a parameter of test.grid"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("model.disks"), std::string::npos) << "lists the known ones: " << e;
  const auto f = error_of("[sweep]\n\"disks\" = [1, 2]\n");
  EXPECT_NE(f.find("grid.toml:6:1: [sweep] disks: not a parameter"), std::string::npos) << f;
  const auto g = error_of("[sweep]\n\"experiment.seed\" = [1, 2]\n");
  EXPECT_NE(g.find("[sweep] experiment.seed: each point's seed is derived"), std::string::npos)
      << g;
}

TEST(SweepConfig, EmptyList) {
  const auto e = error_of("[sweep]\n\"model.disks\" = []\n");
  EXPECT_NE(e.find("grid.toml:6:1: [sweep] model.disks: empty list"), std::string::npos) << e;
}

TEST(SweepConfig, GeometricFactorAtMostOne) {
  for (const char* f : {"1", "0.5", "-2"}) {
    const auto e = error_of(std::string("[sweep]\n\"model.disks\" = { geometric = [4, 64], ") +
                            "factor = " + f + " }\n");
    EXPECT_NE(e.find("grid.toml:6:"), std::string::npos) << e;
    EXPECT_NE(e.find("[sweep] model.disks.factor: must be > 1"), std::string::npos) << e;
  }
}

TEST(SweepConfig, GeometricWrongOrderAndNonPositiveStart) {
  const auto e = error_of("[sweep]\n\"model.disks\" = { geometric = [64, 4], factor = 2 }\n");
  EXPECT_NE(e.find("grid.toml:6:"), std::string::npos) << e;
  EXPECT_NE(e.find("[sweep] model.disks.geometric: wrong order: lo 64.0 > hi 4.0"),
            std::string::npos)
      << e;
  const auto z = error_of("[sweep]\n\"model.disks\" = { geometric = [0, 4], factor = 2 }\n");
  EXPECT_NE(z.find("lo must be > 0"), std::string::npos) << z;
  const auto r =
      error_of("[sweep]\n\"model.disks\" = { geometric = [1, 4], factor = 2, round = \"up\" }\n");
  EXPECT_NE(r.find("[sweep] model.disks.round: the only rounding is \"integer\""),
            std::string::npos)
      << r;
}

TEST(SweepConfig, NonIntegerRangeForAnIntegerParameter) {
  const auto e = error_of("[sweep]\n\"model.disks\" = { geometric = [4, 64], factor = 1.5 }\n");
  EXPECT_NE(e.find("grid.toml:6:1: [sweep] model.disks: an integer parameter"), std::string::npos)
      << e;
  EXPECT_NE(e.find("round = \"integer\""), std::string::npos) << e;
  EXPECT_EQ(error_of("[sweep]\n\"model.disks\" = { geometric = [4, 64], factor = 1.5, "
                     "round = \"integer\" }\n"),
            "");
}

TEST(SweepConfig, UnknownMode) {
  const auto e = error_of("[sweep]\nmode = \"diagonal\"\n\"model.disks\" = [4]\n");
  EXPECT_NE(e.find("grid.toml:6:1: [sweep] mode: unknown mode \"diagonal\""), std::string::npos)
      << e;
}

TEST(SweepConfig, ZipOfDifferentLengths) {
  const auto e = error_of(
      "[sweep]\nmode = \"zip\"\n\"model.disks\" = [4, 8, 16]\n"
      "\"model.scrub.interval_hours\" = [24, 168]\n");
  EXPECT_NE(e.find("grid.toml:8:1: [sweep] model.scrub.interval_hours: zip needs lists of the "
                   "same length"),
            std::string::npos)
      << e;
}

TEST(SweepConfig, SetOfASweptKeyIsRefused) {
  config_overrides o;
  o.sets = {"model.disks=8"};
  const auto e = error_of("[sweep]\n\"model.disks\" = [4, 8]\n", o);
  EXPECT_NE(e.find("--set model.disks: the key is swept (grid.toml:6:1)"), std::string::npos) << e;
}

TEST(SweepConfig, APointsValuesTravelTheSetPathWithTheirOrigin) {
  config_overrides o;
  o.point = {{"model.disks=0", "grid.toml:6:1: [sweep] model.disks = 0, point 2"}};
  const auto e = error_of("[sweep]\n\"model.disks\" = [4, 0]\n", o);
  EXPECT_NE(e.find("grid.toml:6:1: [sweep] model.disks = 0, point 2: [model] disks"),
            std::string::npos)
      << e;
}

// The shortest way to shrink a sweep from the command line: a --set of the axis itself, whose key
// is quoted because it holds a dot. TOML's own dotted-key rules apply.
TEST(SweepConfig, SetOfAQuotedAxisKeyReplacesTheAxis) {
  config_overrides o;
  o.sets = {"sweep.\"model.disks\" = { geometric = [4, 16], factor = 2 }"};
  const auto cfg = parse("[sweep]\n\"model.disks\" = [1, 2, 3]\n", o);
  ASSERT_TRUE(cfg.sweep);
  const auto& values = cfg.sweep->axes.at(0).values;
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(integer(values[0]), 4);
  EXPECT_EQ(integer(values[2]), 16);

  o.sets = {"sweep.\"model.disks=[4]"};
  EXPECT_NE(error_of("[sweep]\n\"model.disks\" = [1]\n", o).find("not a TOML key"),
            std::string::npos);
  // Found by the config fuzzer: a "key" that TOML reads as a comment, or as two keys, is refused
  // as an input error, not walked as an empty path.
  for (const char* bad : {"#\"x=1", "\"a\"\n\"b\"=1", "\"a\" # c=1"}) {
    o.sets = {bad};
    EXPECT_NE(error_of("[sweep]\n\"model.disks\" = [1]\n", o).find("not a TOML key"),
              std::string::npos)
        << bad;
  }
}

}  // namespace MCPILOT_TEST_FILE
