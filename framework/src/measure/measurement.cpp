#include "mcpilot/measure/measurement.hpp"

#include <atomic>
#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "mcpilot/error.hpp"

namespace mcpilot {

namespace {

// A process holds at most one timed region at a time: two would share caches, memory bandwidth
// and (on one pinned core) the CPU itself, and each would time the other.
std::atomic<bool> timed_region_busy{false};

class timed_region_guard {
 public:
  timed_region_guard() {
    if (timed_region_busy.exchange(true))
      throw std::logic_error("two timed batches at once: measurement sessions must not overlap");
  }
  ~timed_region_guard() { timed_region_busy.store(false); }
  timed_region_guard(const timed_region_guard&) = delete;
  timed_region_guard& operator=(const timed_region_guard&) = delete;
};

// The stop flag of the session whose timed region runs now (timed_region_should_stop), or null.
std::atomic<const std::atomic<bool>*> timed_stop_flag{nullptr};

class timed_stop_scope {
 public:
  explicit timed_stop_scope(const std::atomic<bool>* flag) { timed_stop_flag.store(flag); }
  ~timed_stop_scope() { timed_stop_flag.store(nullptr); }
  timed_stop_scope(const timed_stop_scope&) = delete;
  timed_stop_scope& operator=(const timed_stop_scope&) = delete;
};

// A calibration that never reaches the target (a timed() that does nothing) stops here.
constexpr int max_calibration_steps = 40;

struct counter_slot {
  int per_op = -1;  // quantity index, or -1 when the spec has none for it
  int per_f = -1;
};

class measurement_stream final : public stream {
 public:
  measurement_stream(std::unique_ptr<workload> w, const model_spec& spec,
                     std::shared_ptr<counter_source> counters,
                     std::shared_ptr<measurement_record> record)
      : work_(std::move(w)), spec_(spec), counters_(std::move(counters)), record_(record) {
    const measurement_spec& m = *spec.measurement_declaration();
    time_ = spec.quantity_index(time_quantity(m));
    if (time_ < 0)
      throw std::logic_error("measurement model without " + time_quantity(m) +
                             ": call declare_measurement_quantities() on its spec");
    if (m.per_f()) time_per_f_ = spec.quantity_index(time_per_f_quantity());
    if (counters_)
      for (const auto& st : counters_->status())
        if (st.available)
          slots_.push_back({spec.quantity_index(counter_quantity(st.name, m)),
                            spec.quantity_index(counter_per_f_quantity(st.name))});
    f_ = m.per_f() ? m.f : 0;
    batch_ = m.batch;
  }

  // Stops between readings once the session is asked to, and inside one whose timed() polls
  // timed_region_should_stop(): a reading may last seconds, and a limit must act within one.
  void advance(stream_round& round, std::size_t count) override {
    stop_ = round.stop_flag();
    if (batch_ == 0 && !calibrate(round.rng())) return;
    for (std::size_t i = 0; i < count && !round.stop_requested(); ++i)
      if (!reading(round)) return;
  }

 private:
  // One batch: prepare, time, check. Returns the timed nanoseconds; `own` gets the model's
  // quantities recorded by check(), `sample` the counter group's reading. nullopt when the session
  // was asked to stop during timed(): the work may be unfinished, so its time is no reading and
  // check() is not asked to judge it.
  std::optional<double> run_batch(philox_stream& rng, std::size_t size, counter_sample& sample) {
    own_.assign(spec_.quantities().size(), {});
    measurement_batch b(spec_, rng, size, own_);
    work_->prepare(b);
    double ns = 0;
    {
      timed_region_guard guard;
      timed_stop_scope stop(stop_);
      if (counters_) counters_->start();
      const auto t0 = measurement_clock::now();
      work_->timed(size);
      const auto t1 = measurement_clock::now();
      if (counters_) sample = counters_->stop();
      ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
    }
    if (stop_ && stop_->load()) return std::nullopt;
    work_->check(b);
    return ns;
  }

  // Doubles (at most 8x per step) from a batch of one until a batch lasts long enough. These
  // batches are run, timed and checked like the others but give no readings. They draw from a
  // copy of the stream, so that the readings' inputs do not depend on how many batches the
  // calibration took: with the same seed and batch, reading k sees the same inputs every time.
  // Returns false when the session was asked to stop first (the batch stays uncalibrated).
  bool calibrate(const philox_stream& stream) {
    philox_stream rng = stream;
    record_->batch_calibrated = true;
    std::uint64_t b = 1;
    counter_sample ignored;
    for (int step = 0; step < max_calibration_steps; ++step) {
      const std::optional<double> ns = run_batch(rng, b, ignored);
      if (!ns) return false;
      record_->calibration_batches.push_back(b);
      record_->calibration_ns.push_back(*ns);
      const std::uint64_t next = next_batch(b, *ns, record_->clock.min_batch_ns);
      if (next == b) break;
      b = next;
    }
    batch_ = b;
    record_->batch = b;
    return true;
  }

  // Returns false when the session was asked to stop during the timed region (nothing recorded).
  bool reading(stream_round& round) {
    counter_sample sample;
    const std::optional<double> timed = run_batch(round.rng(), batch_, sample);
    if (!timed) return false;
    const double ns = *timed;
    const double per_op = ns / static_cast<double>(batch_);
    round.record(static_cast<std::size_t>(time_), per_op);
    if (time_per_f_ >= 0) round.record(static_cast<std::size_t>(time_per_f_), per_op / f_);
    if (counters_ && !slots_.empty()) {
      const counter_values v = scale_sample(sample);
      if (!v.counted) {
        ++record_->uncounted_readings;
      } else {
        if (v.scaled) ++record_->scaled_readings;
        for (std::size_t k = 0; k < slots_.size() && k < v.values.size(); ++k) {
          const double c = v.values[k] / static_cast<double>(batch_);
          if (slots_[k].per_op >= 0) round.record(static_cast<std::size_t>(slots_[k].per_op), c);
          if (slots_[k].per_f >= 0 && f_ > 0)
            round.record(static_cast<std::size_t>(slots_[k].per_f), c / f_);
        }
      }
    }
    for (std::size_t q = 0; q < own_.size(); ++q)
      for (double x : own_[q]) round.record(q, x);
    ++record_->readings;
    return true;
  }

  std::unique_ptr<workload> work_;
  const model_spec& spec_;
  std::shared_ptr<counter_source> counters_;
  std::shared_ptr<measurement_record> record_;
  int time_ = -1, time_per_f_ = -1;
  std::vector<counter_slot> slots_;
  double f_ = 0;
  std::uint64_t batch_ = 0;
  std::vector<std::vector<double>> own_;
  const std::atomic<bool>* stop_ = nullptr;
};

}  // namespace

bool timed_region_should_stop() noexcept {
  const std::atomic<bool>* flag = timed_stop_flag.load(std::memory_order_relaxed);
  return flag && flag->load(std::memory_order_relaxed);
}

std::string time_quantity(const measurement_spec& m) {
  return "ns_per_" + m.operation;
}
std::string time_per_f_quantity() {
  return "ns_per_f";
}
std::string counter_quantity(const std::string& counter, const measurement_spec& m) {
  return counter + "_per_" + m.operation;
}
std::string counter_per_f_quantity(const std::string& counter) {
  return counter + "_per_f";
}

void declare_measurement_quantities(model_spec& spec, const std::vector<counter_status>& counters) {
  const auto& decl = spec.measurement_declaration();
  if (!decl) throw std::logic_error("declare_measurement_quantities: not a measurement model");
  const measurement_spec m = *decl;
  spec.quantity(time_quantity(m))
      .with_unit("ns")
      .describe("time of one " + m.operation + ", from batches timed between two clock reads");
  if (m.per_f())
    spec.quantity(time_per_f_quantity())
        .with_unit("ns")
        .describe("the constant c in T = c f(n): time per unit of f = " + m.f_name);
  for (const auto& c : counters) {
    if (!c.available) continue;
    const counter_definition* d = find_counter(c.name);
    const std::string unit = d ? std::string(d->unit) : "events";
    spec.quantity(counter_quantity(c.name, m))
        .with_unit(unit)
        .optional()
        .describe(c.name + " per " + m.operation + ", over exactly the timed region");
    if (m.per_f())
      spec.quantity(counter_per_f_quantity(c.name))
          .with_unit(unit)
          .optional()
          .describe(c.name + " per unit of f = " + m.f_name);
  }
}

std::vector<counter_status> probe_counters(const std::vector<std::string>& names) {
  if (names.empty()) return {};
  return open_perf_counters(names)->status();
}

nlohmann::ordered_json to_json(const measurement_record& r) {
  nlohmann::ordered_json counters = nlohmann::ordered_json::array();
  for (const auto& c : r.counters) {
    nlohmann::ordered_json j = {{"name", c.name}, {"available", c.available}};
    j["reason"] = c.available ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(c.reason);
    counters.push_back(std::move(j));
  }
  auto optional_number = [](const std::optional<double>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
  };
  return {
      {"mode", "measurement: one thread, pinned"},
      {"cpu", r.cpu.cpu},
      {"cpu_model", r.cpu.model},
      {"cpu_mhz", optional_number(r.cpu.mhz)},
      {"cpu_mhz_source", r.cpu.frequency_source},
      {"governor", r.cpu.governor},
      {"core_type", r.cpu.core_type},
      {"clock", "std::chrono::steady_clock"},
      {"clock_resolution_ns", r.clock.resolution_ns},
      {"clock_read_cost_ns", r.clock.read_cost_ns},
      {"clock_calibration_calls", r.clock.samples},
      {"min_reading_ns", r.clock.min_batch_ns},
      {"operation", r.operation},
      {"f", r.f_name.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.f_name)},
      {"f_value", r.f > 0 ? nlohmann::ordered_json(r.f) : nlohmann::ordered_json(nullptr)},
      {"batch", r.batch},
      {"batch_calibrated", r.batch_calibrated},
      {"calibration_batches", r.calibration_batches},
      {"calibration_ns", r.calibration_ns},
      {"readings", r.readings},
      {"counters", std::move(counters)},
      {"counter_readings_scaled", r.scaled_readings},
      {"counter_readings_uncounted", r.uncounted_readings},
  };
}

std::string describe(const measurement_record& r) {
  std::ostringstream os;
  os.precision(3);
  os << "  measured on CPU " << r.cpu.cpu << " (" << r.cpu.model << "), ";
  if (r.cpu.mhz)
    os << *r.cpu.mhz << " MHz";
  else
    os << "frequency not visible";
  os << ", governor " << r.cpu.governor << "; one thread, pinned\n";
  os << "  clock: steady_clock resolution " << r.clock.resolution_ns << " ns, read cost "
     << r.clock.read_cost_ns << " ns; a reading lasts >= " << r.clock.min_batch_ns / 1000
     << " us\n";
  os << "  batch: " << r.batch << " " << r.operation << (r.batch == 1 ? "" : "s") << " per reading"
     << (r.batch_calibrated ? " (calibrated)" : " (fixed by the model)");
  if (!r.f_name.empty() && r.f > 0) os << "; f = " << r.f_name << " = " << r.f;
  os << '\n';
  for (const auto& c : r.counters)
    if (!c.available) os << "  counter " << c.name << ": unavailable: " << c.reason << '\n';
  if (r.scaled_readings)
    os << "  counters multiplexed in " << r.scaled_readings << " readings: counts scaled\n";
  if (r.uncounted_readings)
    os << "  counter group did not run in " << r.uncounted_readings
       << " readings: no counts for those\n";
  return os.str();
}

measurement_session::measurement_session(const model& m, const model_spec& spec,
                                         const measurement_settings& settings,
                                         std::unique_ptr<counter_source> counters)
    : pin_(settings.cpu.value_or(-1)),
      model_(m),
      spec_(spec),
      record_(std::make_shared<measurement_record>()) {
  if (!spec.is_measurement())
    throw std::logic_error("measurement_session: the model does not declare measurement()");
  const measurement_spec& decl = *spec.measurement_declaration();
  record_->cpu = describe_cpu(pin_.cpu());
  record_->clock =
      calibrate_clock(5e6, settings.min_reading_ms.value_or(default_min_reading_ms) * 1e6);
  record_->operation = decl.operation;
  record_->f_name = decl.f_name;
  record_->f = decl.f;
  record_->batch = decl.batch;
  if (counters)
    counters_ = std::move(counters);
  else if (!settings.counters.empty())
    counters_ = open_perf_counters(settings.counters);
  if (counters_) record_->counters = counters_->status();
}

measurement_session::~measurement_session() = default;

std::unique_ptr<stream> measurement_session::open_stream() {
  return std::make_unique<measurement_stream>(model_.open_workload(), spec_, counters_, record_);
}

}  // namespace mcpilot
