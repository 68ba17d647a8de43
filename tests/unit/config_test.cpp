// Experiment configs: resolution of a full file (defaults, nested tables, presets, per-quantity
// overrides, the resolved JSON), every kind of error naming file:line:column and the field, and
// --set / --seed / --threads overrides.
#include <gtest/gtest.h>

#include <limits>

#include <fstream>
#include <string>

#include "mcpilot/error.hpp"
#include "mcpilot/io/config.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;

// Shaped like the storage model of the design's example config.
class group_model : public model {
 public:
  void declare(model_spec& s) const override {
    s.describe("a test model with every parameter type");
    s.integer("disks", 10, "disks in the group").at_least(1);
    s.integer("tolerance", 2, "failures tolerated").at_least(0);
    s.choice("lifetime.distribution", "exponential", {"exponential", "weibull"}, "lifetime law");
    s.number("lifetime.shape", 1.0, "Weibull shape").positive();
    s.number("lifetime.mean_hours", 1e6, "mean lifetime").positive();
    s.boolean("verbose", false, "chatty");
    s.string("label", "x", "a free label");
    s.optional_number("budget", "optional budget");
    s.quantity("mttdl").with_unit("h");
    s.proportion("loss").optional();
  }
  void configure(const parameters& p) override {
    if (p.integer("tolerance") >= p.integer("disks"))
      throw parameter_error("tolerance", "tolerance must be less than disks");
    disks = p.integer("disks");
  }
  void replicate(replication& r) const override {
    r.record(0, 1.0);
    r.record(1, 0.0);
  }
  std::int64_t disks = 0;
};

model_registry registry() {
  model_registry m;
  m.add<group_model>("storage.test");
  return m;
}

experiment_config parse(const std::string& text, const config_overrides& o = {}) {
  return parse_config(text, "cfg.toml", registry(), o);
}

// The message of the input_error that parsing `text` throws ("" if none is thrown).
std::string error_of(const std::string& text, const config_overrides& o = {}) {
  try {
    parse(text, o);
  } catch (const input_error& e) {
    return e.what();
  }
  return "";
}

const char* const full = R"(# the design's example, adapted
[experiment]
name = "raid-test"
seed = 20261130
preset = "strict"
ci_perc = 0.05
threads = 2
max_replications = 10_000_000
max_seconds = 60
streams = 3

[model]
name = "storage.test"
disks = 8
lifetime = { distribution = "weibull", shape = 1.12 }

[[quantity]]
name = "loss"
ci = 0.01
required = true
)";

TEST(Config, ResolvesAFullFile) {
  const auto c = parse(full);
  EXPECT_EQ(c.name, "raid-test");
  EXPECT_EQ(c.model_name, "storage.test");
  EXPECT_EQ(c.preset, "strict");
  EXPECT_EQ(c.settings.seed, 20261130u);
  EXPECT_EQ(c.settings.threads, 2u);
  EXPECT_EQ(c.settings.max_replications, 10'000'000u);
  EXPECT_EQ(c.settings.max_seconds, 60.0);
  EXPECT_EQ(c.settings.engine.streams, 3u);
  // strict preset (0.1, 0.10, 200) with ci_perc overridden, whatever the order in the file.
  const precision& p = c.settings.engine.session_precision;
  EXPECT_EQ(p.autocorrelation_limit, 0.1);
  EXPECT_EQ(p.ci_perc, 0.05);
  EXPECT_EQ(p.min_samples, 200u);
  EXPECT_EQ(p.confidence, 0.95);

  // Given, nested, and defaulted parameters.
  EXPECT_EQ(c.params.integer("disks"), 8);
  EXPECT_EQ(c.params.string("lifetime.distribution"), "weibull");
  EXPECT_EQ(c.params.number("lifetime.shape"), 1.12);
  EXPECT_EQ(c.params.number("lifetime.mean_hours"), 1e6);
  EXPECT_EQ(c.params.integer("tolerance"), 2);
  EXPECT_FALSE(c.params.boolean("verbose"));
  EXPECT_FALSE(c.params.has("budget"));
  EXPECT_EQ(static_cast<const group_model&>(*c.instance).disks, 8);  // configured

  // The [[quantity]] override lands in the spec the engine will get.
  ASSERT_EQ(c.quantity_overrides.size(), 1u);
  const auto& loss = c.spec.quantities()[1];
  EXPECT_EQ(loss.precision.ci_abs, 0.01);
  EXPECT_TRUE(loss.required);
  EXPECT_FALSE(c.spec.quantities()[0].precision.ci_abs.has_value());
}

TEST(Config, ResolvedJsonHasDefaultsFilledAndNestedParameters) {
  const auto j = parse(full).resolved;
  EXPECT_EQ(j["path"], "cfg.toml");
  EXPECT_EQ(j["experiment"]["seed"], 20261130u);
  EXPECT_EQ(j["experiment"]["preset"], "strict");
  EXPECT_EQ(j["experiment"]["ac"], 0.1);
  EXPECT_EQ(j["experiment"]["ci_perc"], 0.05);
  EXPECT_TRUE(j["experiment"]["ci"].is_null());
  EXPECT_EQ(j["experiment"]["min_samples"], 200);
  EXPECT_EQ(j["model"]["name"], "storage.test");
  EXPECT_EQ(j["model"]["disks"], 8);
  EXPECT_EQ(j["model"]["tolerance"], 2);  // a default
  EXPECT_EQ(j["model"]["lifetime"]["shape"], 1.12);
  EXPECT_EQ(j["model"]["lifetime"]["mean_hours"], 1e6);
  EXPECT_EQ(j["model"]["lifetime"]["distribution"], "weibull");
  EXPECT_TRUE(j["model"]["budget"].is_null());
  ASSERT_EQ(j["quantity"].size(), 2u);  // every quantity, with its effective precision
  EXPECT_EQ(j["quantity"][0]["name"], "mttdl");
  EXPECT_EQ(j["quantity"][0]["unit"], "h");
  EXPECT_EQ(j["quantity"][0]["ci_perc"], 0.05);
  EXPECT_TRUE(j["quantity"][0]["ci"].is_null());
  EXPECT_EQ(j["quantity"][1]["kind"], "proportion");
  EXPECT_EQ(j["quantity"][1]["ci"], 0.01);
  EXPECT_EQ(j["quantity"][1]["required"], true);
}

TEST(Config, MinimalFileTakesDefaults) {
  const auto c = parse("[model]\nname = \"storage.test\"\n");
  EXPECT_EQ(c.name, "cfg");  // the file's stem
  EXPECT_EQ(c.preset, "normal");
  EXPECT_EQ(c.settings.seed, session_settings{}.seed);
  EXPECT_EQ(c.settings.engine.session_precision.ci_perc, 0.10);
  EXPECT_EQ(c.params.integer("disks"), 10);
  EXPECT_FALSE(c.spec.quantities()[1].required);  // the model's own declaration stands
}

TEST(Config, StandardTableFormOfNestedParameters) {
  const auto c = parse(
      "[model]\nname = \"storage.test\"\n[model.lifetime]\nshape = 2.5\n"
      "distribution = \"weibull\"\n");
  EXPECT_EQ(c.params.number("lifetime.shape"), 2.5);
  const auto d = parse("[model]\nname = \"storage.test\"\nlifetime.shape = 3\n");
  EXPECT_EQ(d.params.number("lifetime.shape"), 3.0);  // an integer is taken for a number
}

TEST(Config, UnknownParameterNamesFileLineAndKnownOnes) {
  const std::string e = error_of(
      "[model]\nname = \"storage.test\"\nlifetime = { distribution = \"weibull\", shapee = 1.12 "
      "}\n");
  EXPECT_NE(e.find("cfg.toml:3:"), std::string::npos) << e;
  EXPECT_NE(e.find("[model] lifetime.shapee: unknown parameter of storage.test (known: disks, "
                   "tolerance, lifetime.distribution, lifetime.shape"),
            std::string::npos)
      << e;
}

TEST(Config, WrongTypesNameTheField) {
  EXPECT_EQ(error_of("[model]\nname = \"storage.test\"\ndisks = \"ten\"\n"),
            "cfg.toml:3:9: [model] disks: expected an integer, got a string");
  EXPECT_EQ(error_of("[model]\nname = \"storage.test\"\ndisks = 8.0\n"),
            "cfg.toml:3:9: [model] disks: expected an integer, got a floating-point number");
  EXPECT_EQ(error_of("[model]\nname = \"storage.test\"\nverbose = 1\n"),
            "cfg.toml:3:11: [model] verbose: expected true or false, got an integer");
  EXPECT_EQ(error_of("[model]\nname = \"storage.test\"\nlifetime.shape = [1]\n"),
            "cfg.toml:3:18: [model] lifetime.shape: expected a number, got an array");
  EXPECT_EQ(error_of("[experiment]\nseed = \"x\"\n[model]\nname = \"storage.test\"\n"),
            "cfg.toml:2:8: [experiment] seed: expected an integer, got a string");
  EXPECT_EQ(error_of("experiment = 3\n"),
            "cfg.toml:1:1: [experiment]: expected a table, got an integer");
}

TEST(Config, RangeErrorsComeFromTheDeclarationWithTheLine) {
  const std::string e = error_of("[model]\nname = \"storage.test\"\n\nlifetime.shape = -1\n");
  EXPECT_EQ(e.rfind("cfg.toml:4:18: [model] lifetime.shape", 0), 0u) << e;
  EXPECT_NE(e.find("> 0"), std::string::npos) << e;
  const std::string c =
      error_of("[model]\nname = \"storage.test\"\nlifetime.distribution = \"gamma\"\n");
  EXPECT_EQ(c.rfind("cfg.toml:3:25: [model] lifetime.distribution", 0), 0u) << c;
  EXPECT_NE(c.find("exponential, weibull"), std::string::npos) << c;
}

TEST(Config, ModelConfigureErrorsPointAtTheFieldOrItsDefault) {
  // tolerance given: its line.
  EXPECT_EQ(error_of("[model]\nname = \"storage.test\"\ndisks = 4\ntolerance = 5\n"),
            "cfg.toml:4:13: [model] tolerance must be less than disks");
  // tolerance left at its default 2: say so.
  const std::string e = error_of("[model]\nname = \"storage.test\"\ndisks = 2\n");
  EXPECT_EQ(e, "cfg.toml: [model] tolerance (default 2): tolerance must be less than disks");
}

TEST(Config, ExperimentErrors) {
  const std::string model = "[model]\nname = \"storage.test\"\n";
  EXPECT_EQ(error_of("[experiment]\npreset = \"fast\"\n" + model),
            "cfg.toml:2:10: [experiment] preset: unknown preset \"fast\" (known: quick, normal, "
            "strict)");
  const std::string unknown = error_of("[experiment]\nseeds = 3\n" + model);
  EXPECT_EQ(unknown.rfind("cfg.toml:2:1: [experiment] seeds: unknown key (known: name, seed,", 0),
            0u)
      << unknown;
  EXPECT_EQ(error_of("[experiment]\nconfidence = 1.5\n" + model),
            "cfg.toml:2:14: [experiment] confidence: must lie in (0, 1), got 1.5");
  EXPECT_EQ(error_of("[experiment]\nmin_samples = 1\n" + model),
            "cfg.toml:2:15: [experiment] min_samples: must lie in [2, 10^15], got 1");
  EXPECT_EQ(error_of("[experiment]\nmax_replications = 0\n" + model),
            "cfg.toml:2:20: [experiment] max_replications: must be >= 1, got 0");
  EXPECT_EQ(error_of("[experiment]\nthreads = -1\n" + model),
            "cfg.toml:2:11: [experiment] threads: must be in [0, 4096] (0 = all cores), got -1");
  const std::string section = error_of(model + "[experimnet]\nseed = 1\n");
  EXPECT_EQ(section.rfind("cfg.toml:3:2: top level experimnet: unknown section", 0), 0u) << section;
}

TEST(Config, ModelSectionErrors) {
  EXPECT_EQ(error_of("[experiment]\nseed = 1\n"),
            "cfg.toml: no [model] section (it names the model to run)");
  EXPECT_EQ(error_of("[model]\ndisks = 3\n"),
            "cfg.toml:1:1: [model] name: missing: which model to run (known: storage.test)");
  EXPECT_EQ(error_of("[model]\nname = \"storage.group\"\n"),
            "cfg.toml:2:8: [model] name: unknown model \"storage.group\" (known: storage.test)");
}

TEST(Config, QuantityErrors) {
  const std::string model = "[model]\nname = \"storage.test\"\n";
  EXPECT_EQ(error_of(model + "[[quantity]]\nname = \"mtdl\"\n"),
            "cfg.toml:4:8: [[quantity]] name: unknown quantity \"mtdl\" of storage.test (known: "
            "mttdl, loss)");
  const std::string key = error_of(model + "[[quantity]]\nname = \"loss\"\nci_pct = 0.1\n");
  EXPECT_EQ(key.rfind("cfg.toml:5:1: [[quantity]] loss ci_pct: unknown key (known: name,", 0), 0u)
      << key;
  EXPECT_EQ(error_of(model + "[[quantity]]\nname = \"loss\"\nci_perc = 0\n"),
            "cfg.toml:5:11: [[quantity]] loss ci_perc: whole interval width as a fraction of the "
            "mean must be > 0, got 0");
  EXPECT_EQ(error_of(model + "[[quantity]]\nname = \"loss\"\n[[quantity]]\nname = \"loss\"\n"),
            "cfg.toml:6:8: [[quantity]] name: \"loss\" appears twice; merge the entries");
  EXPECT_EQ(error_of("quantity = 3\n" + model),
            "cfg.toml:1:1: [[quantity]]: expected an array of tables ([[quantity]] entries), got "
            "an integer");
  const auto c = parse(model + "[[quantity]]\nname = \"mttdl\"\nrequired = false\nac = 0.5\n");
  EXPECT_FALSE(c.spec.quantities()[0].required);
  EXPECT_EQ(c.spec.quantities()[0].precision.autocorrelation_limit, 0.5);
}

TEST(Config, IntervalInExperimentAndPerQuantity) {
  const std::string model = "[model]\nname = \"storage.test\"\n";
  const auto c = parse("[experiment]\ninterval = \"pilot\"\n" + model +
                       "[[quantity]]\nname = \"loss\"\ninterval = \"adjusted\"\n");
  EXPECT_EQ(c.settings.engine.session_precision.interval, interval_method::pilot);
  EXPECT_EQ(c.spec.quantities()[1].precision.interval, interval_method::adjusted);
  EXPECT_FALSE(c.spec.quantities()[0].precision.interval);  // the session's, then the default
  EXPECT_EQ(error_of("[experiment]\ninterval = \"wide\"\n" + model),
            "cfg.toml:2:12: [experiment] interval: unknown interval \"wide\" (known: adjusted, "
            "pilot)");
}

TEST(Config, MaxSideRatioInExperimentAndPerQuantity) {
  const std::string model = "[model]\nname = \"storage.test\"\n";
  const auto c = parse("[experiment]\nmax_side_ratio = inf\n" + model +
                       "[[quantity]]\nname = \"loss\"\nmax_side_ratio = 1.5\n");
  EXPECT_EQ(c.settings.engine.session_precision.max_side_ratio,
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(c.spec.quantities()[1].precision.max_side_ratio, 1.5);
  EXPECT_EQ(c.spec.quantities()[1].precision.apply(precision{}).max_side_ratio, 1.5);
  EXPECT_FALSE(c.spec.quantities()[0].precision.max_side_ratio);
  EXPECT_EQ(parse(model).settings.engine.session_precision.max_side_ratio,
            precision{}.max_side_ratio);
  const std::string why =
      "the longest the skewness-adjusted interval's longer side may be against its shorter must be "
      "> 1 (inf: no limit), got ";
  EXPECT_EQ(error_of("[experiment]\nmax_side_ratio = 1\n" + model),
            "cfg.toml:2:18: [experiment] max_side_ratio: " + why + "1");
  EXPECT_EQ(error_of(model + "[[quantity]]\nname = \"loss\"\nmax_side_ratio = nan\n"),
            "cfg.toml:5:18: [[quantity]] loss max_side_ratio: " + why + "nan");
  EXPECT_EQ(error_of("[experiment]\nmax_side_ratio = \"wide\"\n" + model),
            "cfg.toml:2:18: [experiment] max_side_ratio: expected a number, got a string");
}

TEST(Config, TomlSyntaxErrorsNameTheLine) {
  const std::string e = error_of("[model]\nname = \"storage.test\"\ndisks = = 3\n");
  EXPECT_EQ(e.rfind("cfg.toml:3:", 0), 0u) << e;
  const std::string dup = error_of("[model]\nname = \"storage.test\"\ndisks = 3\ndisks = 4\n");
  EXPECT_EQ(dup.rfind("cfg.toml:4:", 0), 0u) << dup;
}

TEST(Config, SetParsesTomlValuesAndFallsBackToStrings) {
  config_overrides o;
  o.sets = {"model.disks=8",
            "experiment.seed=3",
            "model.lifetime.shape=1.5",
            "model.lifetime.distribution=weibull",  // not TOML: a string
            "model.label=\"a b\"",                  // TOML string
            "model.verbose = true",
            "quantity.mttdl.ci_perc=0.05",
            "experiment.preset=quick"};
  const auto c = parse(full, o);
  EXPECT_EQ(c.params.integer("disks"), 8);
  EXPECT_EQ(c.settings.seed, 3u);
  EXPECT_EQ(c.params.number("lifetime.shape"), 1.5);  // into the file's inline table
  EXPECT_EQ(c.params.string("lifetime.distribution"), "weibull");
  EXPECT_EQ(c.params.string("label"), "a b");
  EXPECT_TRUE(c.params.boolean("verbose"));
  EXPECT_EQ(c.spec.quantities()[0].precision.ci_perc, 0.05);  // a new [[quantity]] entry
  EXPECT_EQ(c.settings.engine.session_precision.autocorrelation_limit, 0.8);
  EXPECT_EQ(c.resolved["overrides"].size(), o.sets.size());

  // A string that happens to contain dots and digits is still a string where TOML fails.
  config_overrides s;
  s.sets = {"model.label=1.2.3"};
  EXPECT_EQ(parse(full, s).params.string("label"), "1.2.3");
  // On a file with no [experiment] section at all.
  config_overrides e;
  e.sets = {"experiment.seed=11"};
  EXPECT_EQ(parse("[model]\nname = \"storage.test\"\n", e).settings.seed, 11u);
}

TEST(Config, SetErrorsNameTheOverride) {
  auto with = [](std::string set) {
    config_overrides o;
    o.sets = {std::move(set)};
    return error_of(full, o);
  };
  EXPECT_EQ(
      with("model.diskz=8")
          .rfind("--set model.diskz: [model] diskz: unknown parameter of storage.test (known:", 0),
      0u)
      << with("model.diskz=8");
  EXPECT_EQ(with("model.disks=eight"),
            "--set model.disks: [model] disks: expected an integer, got a string");
  EXPECT_EQ(with("model.disks=0").rfind("--set model.disks: [model] disks must be >= 1", 0), 0u)
      << with("model.disks=0");
  EXPECT_EQ(with("experiment.preset=fast"),
            "--set experiment.preset: [experiment] preset: unknown preset \"fast\" (known: quick, "
            "normal, strict)");
  EXPECT_EQ(with("model.disks"),
            "--set model.disks: expected key=value (e.g. --set model.disks=8)");
  EXPECT_EQ(with("model..x=1"), "--set model..x: empty component in the key");
  EXPECT_EQ(with("model.disks.x=1"), "--set model.disks.x: model.disks is an integer, not a table");
  // A model's configure() rejecting a --set value names the --set.
  EXPECT_EQ(with("model.tolerance=9"),
            "--set model.tolerance: [model] tolerance must be less than disks");
}

TEST(Config, SeedAndThreadsOptionsWinOverFileAndSet) {
  config_overrides o;
  o.sets = {"experiment.seed=3", "experiment.threads=4"};
  o.seed = 99;
  o.threads = 1;
  const auto c = parse(full, o);
  EXPECT_EQ(c.settings.seed, 99u);
  EXPECT_EQ(c.settings.threads, 1u);
  EXPECT_EQ(c.resolved["experiment"]["seed"], 99u);
}

TEST(Config, LoadsFromFileAndNamesAMissingOne) {
  const std::string path = testing::TempDir() + "/config_test_load.toml";
  {
    std::ofstream out(path);
    out << full;
  }
  const auto c = load_config(path, registry());
  EXPECT_EQ(c.path, path);
  EXPECT_EQ(c.params.integer("disks"), 8);
  try {
    load_config(path + ".missing", registry());
    FAIL() << "no error for a missing file";
  } catch (const input_error& e) {
    EXPECT_EQ(std::string(e.what()),
              path + ".missing: cannot read the config file: No such file or directory");
  }
}

}  // namespace MCPILOT_TEST_FILE
