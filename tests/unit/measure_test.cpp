// Measurement mode (framework/src/measure): the clock calibration and batch rule, the counter
// scaling logic against a fake counter source, the perf software counters where the kernel allows
// them (for this thread and for a child process), pinning, and a whole session of a small
// measurement model. None of these tests judges a speed: timings are only checked to exist.

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "mcpilot/error.hpp"
#include "mcpilot/measure/clock.hpp"
#include "mcpilot/measure/counters.hpp"
#include "mcpilot/measure/measurement.hpp"
#include "mcpilot/measure/pinning.hpp"
#include "mcpilot/session.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

TEST(MeasureClock, CalibrationGivesPositiveFiguresAndTheThousandfoldTarget) {
  const clock_calibration c = calibrate_clock(1e6);
  EXPECT_GT(c.resolution_ns, 0);
  EXPECT_GT(c.read_cost_ns, 0);
  EXPECT_LT(c.read_cost_ns, 1e5);  // a clock read costs far less than 0.1 ms on any machine
  EXPECT_GT(c.samples, 100000u);
  EXPECT_DOUBLE_EQ(c.min_batch_ns, 1000 * std::max(c.resolution_ns, c.read_cost_ns));
  // experiment.min_reading_ms raises the floor, and never lowers the clock's own.
  EXPECT_DOUBLE_EQ(calibrate_clock(1e5, 2e6).min_batch_ns, 2e6);
  const clock_calibration low = calibrate_clock(1e5, 1);
  EXPECT_DOUBLE_EQ(low.min_batch_ns, 1000 * std::max(low.resolution_ns, low.read_cost_ns));
}

TEST(MeasureClock, NextBatchReachesTheTargetWithBoundedGrowth) {
  EXPECT_EQ(next_batch(100, 30000, 20000), 100u);    // long enough: keep
  EXPECT_EQ(next_batch(1, 100, 20000), 8u);          // 220 wanted, 8x cap
  EXPECT_EQ(next_batch(1000, 10000, 20000), 2200u);  // 2x the time, 10% margin
  EXPECT_EQ(next_batch(10, 0, 20000), 80u);          // a zero reading: grow by the cap
  EXPECT_EQ(next_batch(5, 19999, 20000), 6u);        // always at least one more
  EXPECT_EQ(next_batch(0, 1, 20000), 8u);            // a batch is never 0
}

TEST(MeasureCounters, ScalingRule) {
  // Running all the time: raw counts.
  auto v = scale_sample({{10, 20}, 1000, 1000});
  EXPECT_TRUE(v.counted);
  EXPECT_FALSE(v.scaled);
  EXPECT_EQ(v.values, (std::vector<double>{10, 20}));
  // Multiplexed a quarter of the time: estimates x 4, marked as scaled.
  v = scale_sample({{10, 20}, 1000, 250});
  EXPECT_TRUE(v.counted && v.scaled);
  EXPECT_EQ(v.values, (std::vector<double>{40, 80}));
  // Never scheduled: no counts at all, not zeros.
  v = scale_sample({{0, 0}, 1000, 0});
  EXPECT_FALSE(v.counted);
  EXPECT_TRUE(v.values.empty());
}

TEST(MeasureCounters, UnknownNameListsTheKnownOnes) {
  try {
    check_counter_names({"cycles", "cylces"}, "x.toml:3:1: [experiment] counters");
    FAIL() << "no error";
  } catch (const input_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("x.toml:3:1"), std::string::npos) << m;
    EXPECT_NE(m.find("\"cylces\""), std::string::npos) << m;
    for (const char* k : {"cycles", "instructions", "branch-misses", "cache-misses",
                          "L1-dcache-load-misses", "task-clock", "page-faults", "context-switches"})
      EXPECT_NE(m.find(k), std::string::npos) << k;
  }
  EXPECT_THROW(check_counter_names({"cycles", "cycles"}, "f"), input_error);
  EXPECT_NO_THROW(check_counter_names({"task-clock", "page-faults"}, "f"));
}

void spin_for(double ns) {
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() <
         ns) {
  }
}

// Spins until this thread has run `ns` on a CPU (its own CPU clock, not the wall clock): on a busy
// machine 3 ms of wall held 0.94 ms of CPU once, under ctest -j2.
void spin_on_cpu_for(double ns) {
  const auto cpu_ns = [] {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
  };
  const double t0 = cpu_ns();
  while (cpu_ns() - t0 < ns) {
  }
}

// Software counters work wherever perf_event_open is allowed (this VM: yes; a container with
// seccomp: maybe not). Where they are not, the reason must say why; they are never read as 0.
TEST(MeasureCounters, SoftwareCountersOnThisThreadOrAReason) {
  auto src = open_perf_counters({"task-clock", "page-faults", "context-switches", "cycles"});
  ASSERT_EQ(src->status().size(), 4u);
  std::size_t available = 0;
  for (const auto& s : src->status()) {
    if (s.available)
      ++available;
    else
      EXPECT_FALSE(s.reason.empty()) << s.name;
  }
  if (!src->status()[0].available) GTEST_SKIP() << "task-clock: " << src->status()[0].reason;
  src->start();
  spin_on_cpu_for(3e6);
  const counter_sample s = src->stop();
  ASSERT_EQ(s.values.size(), available);
  const counter_values v = scale_sample(s);
  ASSERT_TRUE(v.counted);
  // task-clock counts nanoseconds on the CPU: at least most of the 3 ms of CPU spun, and not
  // more than the wall time of the region allows.
  EXPECT_GT(v.values[0], 1e6);
  EXPECT_LT(v.values[0], 1e9);
}

// The same source counts a child process from exec on (inherit + enable_on_exec), the way a
// benchmark of another program will use it.
TEST(MeasureCounters, ChildProcessFromExec) {
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(go[1]);
    char c;
    if (read(go[0], &c, 1) != 1) _exit(3);
    execl("/bin/sh", "sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done", nullptr);
    _exit(4);
  }
  close(go[0]);
  auto src = open_perf_counters({"task-clock"}, {pid, true, true});
  if (write(go[1], "x", 1) != 1) ADD_FAILURE() << "pipe";
  close(go[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  if (!src->status()[0].available) GTEST_SKIP() << src->status()[0].reason;
  const counter_values v = scale_sample(src->stop());
  ASSERT_TRUE(v.counted);
  EXPECT_GT(v.values[0], 1e5);  // 20,000 shell loop iterations take well over 0.1 ms
}

TEST(MeasurePinning, OutsideTheMaskIsAnInputError) {
  const auto cpus = allowed_cpus();
  ASSERT_FALSE(cpus.empty());
  EXPECT_NO_THROW(check_cpu_allowed(cpus.front(), "cpu"));
  try {
    check_cpu_allowed(1023, "t.toml:2:1: [experiment] cpu");
    if (cpus.back() != 1023) FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("affinity mask"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("t.toml:2:1"), std::string::npos);
  }
}

TEST(MeasurePinning, PinsAndRestores) {
  const auto before = allowed_cpus();
  {
    cpu_pin pin(before.back());
    EXPECT_EQ(allowed_cpus(), std::vector<int>{before.back()});
    EXPECT_EQ(current_cpu(), before.back());
  }
  EXPECT_EQ(allowed_cpus(), before);
  const cpu_description d = describe_cpu(before.front());
  EXPECT_FALSE(d.model.empty());
  EXPECT_FALSE(d.governor.empty());
}

// --- a whole session with a small measurement model and a fake counter source ---------------

struct phase_log {
  std::vector<std::string> events;
  std::vector<std::uint64_t> first_draws;  // the first random word each prepare() drew
  std::uint64_t operations = 0;            // timed operations so far, what the fake counters count
  std::vector<int> cpus;                   // where timed() ran
};

class spin_workload final : public workload {
 public:
  explicit spin_workload(phase_log& log) : log_(log) {}
  void prepare(measurement_batch& b) override {
    prepared_ = b.size();
    log_.first_draws.push_back(b.rng()());
    log_.events.push_back("prepare");
  }
  void timed(std::size_t count) override {
    if (count != prepared_) throw std::logic_error("timed a batch that was not prepared");
    for (std::size_t i = 0; i < count; ++i) spin_for(200);
    log_.operations += count;
    log_.cpus.push_back(sched_getcpu());
    log_.events.push_back("timed");
  }
  void check(measurement_batch& b) override {
    if (b.size() != prepared_) throw std::logic_error("checked another batch");
    log_.events.push_back("check");
  }

 private:
  phase_log& log_;
  std::size_t prepared_ = 0;
};

class spin_model final : public model {
 public:
  explicit spin_model(phase_log& log) : log_(log) {}
  void declare(model_spec& s) const override { s.measurement("spin").order("n", 4); }
  std::unique_ptr<workload> open_workload() const override {
    return std::make_unique<spin_workload>(log_);
  }

 private:
  phase_log& log_;
};

// Counts 3 and 5 events per timed operation, with the group running half the time it was
// enabled, so the scaled counts are 6 and 10 per operation; a second counter is unavailable.
class fake_counters final : public counter_source {
 public:
  fake_counters(phase_log& log, bool runs) : log_(log), runs_(runs) {
    status_ = {
        {"instructions", true, {}}, {"cycles", false, "no PMU here"}, {"branch-misses", true, {}}};
  }
  const std::vector<counter_status>& status() const override { return status_; }
  void start() override { start_ = log_.operations; }
  counter_sample stop() override {
    const std::uint64_t ops = log_.operations - start_;
    return {{ops * 3, ops * 5}, 1000, runs_ ? 500u : 0u};
  }

 private:
  phase_log& log_;
  bool runs_;
  std::uint64_t start_ = 0;
  std::vector<counter_status> status_;
};

session_settings quick_settings() {
  session_settings s;
  s.seed = 5;
  s.engine.session_precision = *preset("quick");
  s.max_seconds = 20;
  s.max_replications = 400;
  return s;
}

TEST(MeasureSession, PhasesInOrderAndCountersPerOperationAndPerF) {
  phase_log log;
  spin_model m(log);
  model_spec spec;
  m.declare(spec);
  fake_counters probe(log, true);
  declare_measurement_quantities(spec, probe.status());
  // ns_per_spin, ns_per_f, then per available counter: per op and per f. No quantity for cycles.
  std::vector<std::string> names;
  for (const auto& q : spec.quantities()) names.push_back(q.name);
  EXPECT_EQ(names, (std::vector<std::string>{"ns_per_spin", "ns_per_f", "instructions_per_spin",
                                             "instructions_per_f", "branch-misses_per_spin",
                                             "branch-misses_per_f"}));
  EXPECT_FALSE(spec.quantities()[2].required);  // counters never hold a session open

  const session_settings settings = quick_settings();
  measurement_session ms(m, spec, settings.measurement, std::make_unique<fake_counters>(log, true));
  auto stream = ms.open_stream();
  std::vector<std::vector<double>> out(spec.quantities().size());
  philox_stream rng(1, stream_key(0));
  stream_round round(spec, rng, 0, out);
  stream->advance(round, 30);

  // prepare, timed, check, in that order, for calibration batches and readings alike.
  ASSERT_EQ(log.events.size() % 3, 0u);
  for (std::size_t i = 0; i < log.events.size(); i += 3)
    EXPECT_EQ(log.events[i] + log.events[i + 1] + log.events[i + 2], "preparetimedcheck");

  const auto rec = ms.record();
  EXPECT_TRUE(rec->batch_calibrated);
  EXPECT_GE(rec->batch, 1u);
  // The batch that stopped the calibration lasted at least the target.
  EXPECT_GE(rec->calibration_ns.back(), rec->clock.min_batch_ns);
  EXPECT_EQ(rec->calibration_batches.back(), rec->batch);
  EXPECT_EQ(rec->readings, 30u);
  EXPECT_EQ(rec->scaled_readings, 30u);
  ASSERT_EQ(rec->counters.size(), 3u);
  EXPECT_EQ(rec->counters[1].reason, "no PMU here");
  for (std::size_t q = 0; q < out.size(); ++q) ASSERT_EQ(out[q].size(), 30u) << names[q];
  for (std::size_t i = 0; i < 30; ++i) {
    EXPECT_GT(out[0][i], 150);  // each operation spins at least 200 ns (less a clock tick)
    EXPECT_DOUBLE_EQ(out[1][i], out[0][i] / 4);
    // Scaled by enabled / running = 2, per operation, and per f = 4.
    EXPECT_DOUBLE_EQ(out[2][i], 6);
    EXPECT_DOUBLE_EQ(out[3][i], 1.5);
    EXPECT_DOUBLE_EQ(out[4][i], 10);
    EXPECT_DOUBLE_EQ(out[5][i], 2.5);
  }
}

// Inputs depend on the seed (and batch) alone: the calibration draws from a copy of the stream, so
// the first reading's inputs are the stream's first words however many batches it tried.
TEST(MeasureSession, ReadingsInputsDoNotDependOnTheCalibration) {
  phase_log log;
  spin_model m(log);
  model_spec spec;
  m.declare(spec);
  declare_measurement_quantities(spec, {});
  measurement_session ms(m, spec, {});
  auto stream = ms.open_stream();
  std::vector<std::vector<double>> out(spec.quantities().size());
  philox_stream rng(9, stream_key(0));
  stream_round round(spec, rng, 0, out);
  stream->advance(round, 2);
  const std::size_t calibration = ms.record()->calibration_batches.size();
  ASSERT_EQ(log.first_draws.size(), calibration + 2);
  philox_stream fresh(9, stream_key(0));
  EXPECT_EQ(log.first_draws[0], fresh());  // the calibration's first batch, from the copy
  EXPECT_EQ(log.first_draws[calibration], log.first_draws[0]);  // the first reading: the same
}

TEST(MeasureSession, AGroupThatNeverRanGivesNoCountsNotZeros) {
  phase_log log;
  spin_model m(log);
  model_spec spec;
  m.declare(spec);
  fake_counters probe(log, false);
  declare_measurement_quantities(spec, probe.status());
  measurement_session ms(m, spec, {}, std::make_unique<fake_counters>(log, false));
  auto stream = ms.open_stream();
  std::vector<std::vector<double>> out(spec.quantities().size());
  philox_stream rng(1, stream_key(0));
  stream_round round(spec, rng, 0, out);
  stream->advance(round, 5);
  EXPECT_EQ(out[0].size(), 5u);
  EXPECT_TRUE(out[2].empty());
  EXPECT_EQ(ms.record()->uncounted_readings, 5u);
}

TEST(MeasureSession, RunSessionPinsOneThreadAndRecordsTheEnvironment) {
  phase_log log;
  spin_model m(log);
  model_spec spec;
  m.declare(spec);
  declare_measurement_quantities(spec, {});
  session_settings settings = quick_settings();
  settings.threads = 8;  // ignored: a measurement runs on one thread
  const auto cpus = allowed_cpus();
  settings.measurement.cpu = cpus.back();
  const session_result r = run_session(m, spec, settings);
  EXPECT_EQ(r.threads, 1u);
  ASSERT_TRUE(r.measurement);
  EXPECT_EQ(r.measurement->cpu.cpu, cpus.back());
  ASSERT_TRUE(r.readings && r.readings->stream_style());
  EXPECT_EQ(r.readings->streams(), 1u);
  for (int c : log.cpus) EXPECT_EQ(c, cpus.back());
  EXPECT_EQ(allowed_cpus(), cpus);  // unpinned afterwards
  EXPECT_GT(r.replications, 0u);
  EXPECT_EQ(r.quantities[0].name, "ns_per_spin");
  // Readings reached the engine in time order (whether this loaded machine gave them a stable
  // phase, and so a mean, is not this test's business).
  EXPECT_EQ(r.quantities[0].stats.n, r.replications);
  const std::string text = describe(*r.measurement);
  EXPECT_NE(text.find("CPU " + std::to_string(cpus.back())), std::string::npos) << text;
  EXPECT_NE(text.find("resolution"), std::string::npos) << text;
  const auto j = to_json(*r.measurement);
  EXPECT_GT(j["clock_resolution_ns"].get<double>(), 0);
  EXPECT_GT(j["clock_read_cost_ns"].get<double>(), 0);
}

TEST(MeasureSession, AFailedCheckEndsTheSessionWithAnError) {
  class bad_workload final : public workload {
   public:
    void prepare(measurement_batch&) override {}
    void timed(std::size_t) override {}
    void check(measurement_batch&) override { throw std::runtime_error("wrong output"); }
  };
  class bad_model final : public model {
   public:
    void declare(model_spec& s) const override { s.measurement("op").fixed_batch(4); }
    std::unique_ptr<workload> open_workload() const override {
      return std::make_unique<bad_workload>();
    }
  };
  bad_model m;
  model_spec spec;
  m.declare(spec);
  declare_measurement_quantities(spec, {});
  const session_result r = run_session(m, spec, quick_settings());
  EXPECT_EQ(r.stopped_because, stop_reason::error);
  ASSERT_TRUE(r.error);
  EXPECT_NE(r.error->find("wrong output"), std::string::npos);
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
