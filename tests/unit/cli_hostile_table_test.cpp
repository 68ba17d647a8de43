// Every hostile input of the hardening rounds (issue 15, issue 36) as one row: the command, the
// exit code, a fragment of what it says, and what must hold of every file afterwards (the inputs
// unchanged, a JSON output that parses, a device still a device, a FIFO's reader fed). Quick on
// purpose: it runs in the ASan/UBSan build (scripts/test.sh --sanitize).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_support.hpp"

namespace MCPILOT_TEST_FILE {

namespace fs = std::filesystem;
using mcpilot::test::run_mcpilot;
using mcpilot::test::run_result;
using mcpilot::test::slurp;
using mcpilot::test::write_text;

// A session that converges in well under a second: RAID-5 of 3 disks, naive simulation.
const std::string quick_config = R"([experiment]
name = "hostile"
seed = 7
preset = "quick"
max_seconds = 20

[model]
name = "storage.group"
disks = 3
tolerance = 1
lifetime = { distribution = "exponential", mean_hours = 100 }
repair = { distribution = "exponential", mean_hours = 1 }
)";

const std::string sweep_config = quick_config + "\n[sweep]\n\"model.disks\" = [3, 4]\n";

std::string mojette(const std::string& fields) {
  return "[experiment]\nmax_seconds = 20\n[model]\nname = \"mojette.layout\"\n" + fields;
}
std::string placement(const std::string& fields) {
  return "[experiment]\nmax_seconds = 20\n[model]\nname = \"placement.design\"\n" + fields;
}

// The files every row starts from, in a folder of its own; the inputs must end as they began.
struct fixture {
  fs::path dir;
  std::vector<std::pair<std::string, std::string>> inputs;  // path, text

  explicit fixture(const std::string& name) : dir(mcpilot::test::temp_path("hostile-" + name)) {
    fs::remove_all(dir);
    fs::create_directories(dir / "sub");
    add("cfg.toml", quick_config);
    add("sweep.toml", sweep_config);
    fs::create_symlink(dir / "cfg.toml", dir / "cfg-link.toml");
    fs::create_hard_link(dir / "cfg.toml", dir / "cfg-hard.toml");
  }
  ~fixture() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string add(const std::string& name, const std::string& text) {
    const std::string path = (dir / name).string();
    write_text(path, text);
    inputs.emplace_back(path, text);
    return path;
  }
  std::string at(const std::string& name) const { return (dir / name).string(); }
};

struct hostile_case {
  std::string what;  // the issue and item it comes from
  std::function<std::vector<std::string>(fixture&)> args;
  int exit_code;
  std::string fragment;  // in stderr, or in stdout when stderr lacks it
  std::function<void(const fixture&, const run_result&)> after = nullptr;
};

std::vector<std::string> run_cfg(fixture& f, std::vector<std::string> more) {
  more.insert(more.begin(), {"run", f.at("cfg.toml"), "--quiet"});
  return more;
}

void expect_json_file(const std::string& path) {
  EXPECT_TRUE(nlohmann::json::accept(slurp(path))) << path;
}

void expect_char_device(const std::string& path) {
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0) << path;
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << path << " is no longer a device";
}

const std::vector<hostile_case>& cases() {
  static const std::vector<hostile_case> all = {
      // Issue 15 (round 2), kept here so that every round's inputs run in one place.
      {"15: confidence 1",
       [](fixture& f) {
         return run_cfg(f, {"--set", "experiment.confidence=1"});
       },
       2, "confidence"},
      {"15: analyze /dev/zero",
       [](fixture&) -> std::vector<std::string> {
         return {"analyze", "/dev/zero"};
       },
       2, "/dev/zero:1:1: a NUL byte"},
      {"15: run --seed -1",
       [](fixture& f) {
         return run_cfg(f, {"--seed", "-1"});
       },
       2, "--seed"},
      {"15: run --threads -2",
       [](fixture& f) {
         return run_cfg(f, {"--threads", "-2"});
       },
       2, "--threads"},
      {"15: unknown command", [](fixture&) -> std::vector<std::string> { return {"frobnicate"}; },
       2, "unknown command 'frobnicate'"},
      {"15: run a folder",
       [](fixture& f) -> std::vector<std::string> {
         return {"run", f.dir.string()};
       },
       2, "it is a directory"},
      {"15: --json empty",
       [](fixture& f) {
         return run_cfg(f, {"--json", ""});
       },
       2, "--json"},
      // 36.1: an integer that enters arithmetic is range-checked at load, the field named.
      {"36.1: mojette rows 2^62",
       [](fixture& f) -> std::vector<std::string> {
         return {"run", f.add("m.toml", mojette("layout = \"custom\"\nprojections = [[1, 1], [-1, "
                                                "1]]\nrows = 4611686018427387904\n"))};
       },
       2, "rows"},
      {"36.1: placement devices 2^40",
       [](fixture& f) -> std::vector<std::string> {
         return {"run", f.add("p.toml", placement("design = \"random\"\ndevices = "
                                                  "1099511627776\ngroup_size = 3\n"))};
       },
       2, "devices"},
      // 36.3: an output that is an input, however it is spelled.
      {"36.3: --json the config",
       [](fixture& f) {
         return run_cfg(f, {"--json", f.at("cfg.toml")});
       },
       2, "is the config"},
      {"36.3: --raw ./config",
       [](fixture& f) {
         return run_cfg(f, {"--raw", f.dir.string() + "/./cfg.toml"});
       },
       2, "is the config"},
      {"36.3: --json sub/../config",
       [](fixture& f) {
         return run_cfg(f, {"--json", f.dir.string() + "/sub/../cfg.toml"});
       },
       2, "is the config"},
      {"36.3: --checkpoint a symlink to the config",
       [](fixture& f) {
         return run_cfg(f, {"--checkpoint", f.at("cfg-link.toml")});
       },
       2, "is the config"},
      {"36.3: --report a hard link to the config",
       [](fixture& f) {
         return run_cfg(f, {"--report", f.at("cfg-hard.toml")});
       },
       2, "is the config"},
      {"36.3: --table the sweep's config",
       [](fixture& f) -> std::vector<std::string> {
         return {"run", f.at("sweep.toml"), "--table", f.at("sweep.toml")};
       },
       2, "is the config"},
      {"36.3: ./x and x",
       [](fixture& f) {
         return run_cfg(f, {"--json", "hostile-x.json", "--raw", "./hostile-x.json"});
       },
       2, "name the same file",
       [](const fixture&, const run_result&) { EXPECT_FALSE(fs::exists("hostile-x.json")); }},
      // 36.4: devices written in place, links followed, '-' for stdout.
      {"36.4: --json /dev/null",
       [](fixture& f) {
         return run_cfg(f, {"--json", "/dev/null"});
       },
       0, "stopped: converged",
       [](const fixture&, const run_result&) { expect_char_device("/dev/null"); }},
      {"36.4: --json /dev/full",
       [](fixture& f) {
         return run_cfg(f, {"--json", "/dev/full"});
       },
       2, "No space left on device",
       [](const fixture&, const run_result&) { expect_char_device("/dev/full"); }},
      {"36.4: --json through a dangling symlink",
       [](fixture& f) {
         fs::create_symlink(f.at("target.json"), f.at("link.json"));
         return run_cfg(f, {"--json", f.at("link.json")});
       },
       0, "stopped: converged",
       [](const fixture& f, const run_result&) {
         EXPECT_TRUE(fs::is_symlink(f.at("link.json")));
         expect_json_file(f.at("target.json"));
       }},
      {"36.4: --raw -",
       [](fixture& f) {
         return run_cfg(f, {"--raw", "-"});
       },
       0, "mttdl_hours",
       [](const fixture& f, const run_result& r) {
         EXPECT_EQ(r.out.rfind("replication,", 0), 0u) << r.out.substr(0, 200);
         EXPECT_FALSE(fs::exists(f.dir / "-"));
       }},
      {"36.4: --table -",
       [](fixture& f) -> std::vector<std::string> {
         return {"run", f.at("sweep.toml"), "--quiet", "--table", "-"};
       },
       0, "point",
       [](const fixture&, const run_result& r) {
         EXPECT_NE(r.out.find("model.disks"), std::string::npos) << r.out.substr(0, 200);
         EXPECT_FALSE(fs::exists("-"));
       }},
      {"36.4: --json - --raw -",
       [](fixture& f) {
         return run_cfg(f, {"--json", "-", "--raw", "-"});
       },
       2, "both name standard output"},
      // 36.5: inputs that never end, folders, memory a config cannot have.
      {"36.5: --resume /dev/zero",
       [](fixture&) -> std::vector<std::string> {
         return {"run", "--resume", "/dev/zero"};
       },
       2, "not a regular file"},
      {"36.8: --resume a folder",
       [](fixture& f) -> std::vector<std::string> {
         return {"run", "--resume", f.dir.string()};
       },
       2, "it is a directory"},
      {"36.5: run /dev/zero",
       [](fixture&) -> std::vector<std::string> {
         return {"run", "/dev/zero"};
       },
       2, "not a regular file"},
      {"36.5: blocks_file /dev/zero",
       [](fixture& f) -> std::vector<std::string> {
         return {"run",
                 f.add("b.toml", placement("design = \"file\"\nblocks_file = \"/dev/zero\"\n"))};
       },
       2, "blocks_file"},
      {"36.8: blocks_file a folder",
       [](fixture& f) -> std::vector<std::string> {
         return {"run", f.add("b.toml", placement("design = \"file\"\nblocks_file = \"" +
                                                  f.dir.string() + "\"\n"))};
       },
       2, "it is a directory"},
      {"36.5: mojette 1 GiB blocks verified on 4096 threads",
       [](fixture& f) {
         return std::vector<std::string>{
             "run", f.add("m.toml", mojette("block_bytes = 1073741824\nverify = true\n")),
             "--threads", "4096"};
       },
       2, "more than this process may use"},
      {"36.5: scaling --bootstrap 10^8",
       [](fixture& f) -> std::vector<std::string> {
         return {"scaling", f.add("s.csv", "n,time\n1,1\n2,2\n"), "--bootstrap", "100000000"};
       },
       2, "--bootstrap"},
      // 36.7: numbers that wrapped into unsigned options.
      {"36.7: scaling --seed -1",
       [](fixture& f) -> std::vector<std::string> {
         return {"scaling", f.add("s.csv", "n,time\n1,1\n2,2\n"), "--seed", "-1"};
       },
       2, "--seed"},
      {"36.7: run --point -1",
       [](fixture& f) -> std::vector<std::string> {
         return {"run", f.at("sweep.toml"), "--point", "-1"};
       },
       2, "--point"},
      {"36.7: run --threads 2^31-1",
       [](fixture& f) {
         return run_cfg(f, {"--threads", "2147483647"});
       },
       2, "--threads"},
      {"36.7: --checkpoint-every nan",
       [](fixture& f) {
         return run_cfg(f, {"--checkpoint", f.at("c.ckpt"), "--checkpoint-every", "nan"});
       },
       2, "--checkpoint-every"},
      {"36.7: experiment.threads 2^31-1",
       [](fixture& f) {
         return run_cfg(f, {"--set", "experiment.threads=2147483647"});
       },
       2, "threads"},
      // 36.8: wrong input, not an internal error.
      {"36.8: pg2 order 2^32+1",
       [](fixture& f) -> std::vector<std::string> {
         return {"run", f.add("p.toml", placement("design = \"pg2\"\norder = 4294967297\n"))};
       },
       2, "order"},
      {"36.8: bench --output csv:a,a",
       [](fixture&) -> std::vector<std::string> {
         return {"bench", "--quiet", "--output", "csv:a,a", "--", "true"};
       },
       2, "column 'a' is named twice"},
      {"36.8: bench --output csv:wall_time",
       [](fixture&) -> std::vector<std::string> {
         return {"bench", "--quiet", "--output", "csv:wall_time", "--", "true"};
       },
       2, "is the name of bench's own measurement"},
      {"36.8: --point K --checkpoint F",
       [](fixture& f) -> std::vector<std::string> {
         return {"run", f.at("sweep.toml"), "--point", "0", "--checkpoint", f.at("c.ckpt")};
       },
       2, "its point 0 (--point) cannot be checkpointed"},
      // 36.9: the ends of the range.
      {"36.9: mean_hours 1.7e308",
       [](fixture& f) {
         return run_cfg(f, {"--set", "model.lifetime.mean_hours=1.7e308"});
       },
       2, "mean_hours"},
      {"36.9: a mission of 3e13 failures",
       [](fixture& f) {
         return run_cfg(f, {"--set", "model.mission_hours=1e15"});
       },
       2, "mission_hours: one replication would simulate about 3e+13 disk failures"},
      // Each once ran one replication without end (ConfigExtremes' hangs): 2^63 h of disk life
      // under naive simulation, which follows a group to its loss; events at 2^63 per hour; a
      // lognormal rebuild whose draws are all 0.
      {"36.9: a disk life of 2^63 h, naive",
       [](fixture& f) {
         return run_cfg(f, {"--set", "model.lifetime.mean_hours=9223372036854775807"});
       },
       2, "disk failures before one"},
      {"36.9: latent defects at 2^63 per hour",
       [](fixture& f) {
         return run_cfg(f, {"--set", "model.latent.rate_per_hour=9.2e18"});
       },
       2, "latent.rate_per_hour = 9.2e+18 puts about"},
      {"36.9: a subnormal mission",
       [](fixture& f) {
         return run_cfg(f, {"--set", "model.mission_hours=5e-324"});
       },
       2, "too short to count per year"},
      {"36.9: a lognormal rebuild of sigma 1e10",
       [](fixture& f) {
         return run_cfg(f, {"--set", "model.repair.distribution=\"lognormal\"", "--set",
                            "model.repair.shape=1e10"});
       },
       2, "nearly every draw would be 0"},
      {"36.9: a subnormal rebuild bandwidth",
       [](fixture& f) -> std::vector<std::string> {
         return {"run",
                 f.add("p.toml",
                       placement(
                           "design = \"copyset\"\ndevices = 9\ngroup_size = 3\nscatter_width = 4\n"
                           "scenario = \"lifetime\"\nmission_hours = 1000\n"
                           "rebuild = { device_bytes = 1e12, "
                           "bandwidth_bytes_per_hour = 5e-324 }\n")),
                 "--quiet"};
       },
       2, "would take more hours than a double holds"},
      // 36.5: one replication that would simulate for hours (about 2e10 failures before the
      // loss): max_seconds = 1 ends it at its next random draw. Before, the session waited for it.
      {"36.5: max_seconds inside one replication of hours",
       [](fixture& f) -> std::vector<std::string> {
         return {"run",
                 f.add("p.toml",
                       "[experiment]\nmax_seconds = 1\n[model]\n"
                       "name = \"placement.design\"\ndesign = \"copyset\"\n"
                       "devices = 9\ngroup_size = 3\nscatter_width = 4\nscenario = \"lifetime\"\n"
                       "mission_hours = 1000\nlifetime.mean_hours = 1e8\n"),
                 "--json", f.at("long.json")};
       },
       3, "no replication finished before the session was stopped",
       [](const fixture& f, const run_result&) { expect_json_file(f.at("long.json")); }},
  };
  return all;
}

TEST(HostileTable, EveryRowExitsAsExpectedAndLeavesItsFilesWhole) {
  for (const hostile_case& c : cases()) {
    SCOPED_TRACE(c.what);
    fixture f(std::to_string(&c - cases().data()));
    const std::vector<std::string> args = c.args(f);
    const run_result r = run_mcpilot(args);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_TRUE(r.err.find(c.fragment) != std::string::npos ||
                r.out.find(c.fragment) != std::string::npos)
        << "wanted '" << c.fragment << "' in:\n"
        << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    for (const auto& [path, text] : f.inputs) EXPECT_EQ(slurp(path), text) << path;
    EXPECT_TRUE(fs::is_symlink(f.at("cfg-link.toml")));
    if (c.after) c.after(f, r);
  }
}

// 36.4: a FIFO that a reader waits on is written, not replaced by a regular file.
TEST(HostileTable, FifoReaderGetsTheJson) {
  fixture f("fifo");
  const std::string fifo = f.at("out.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = slurp(fifo); });
  const run_result r = run_mcpilot({"run", f.at("cfg.toml"), "--quiet", "--json", fifo});
  // Should mcpilot fail before opening the FIFO, this open ends the reader's wait.
  if (const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK); fd >= 0) ::close(fd);
  reader.join();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_TRUE(nlohmann::json::accept(received)) << received.substr(0, 200);
}

}  // namespace MCPILOT_TEST_FILE
