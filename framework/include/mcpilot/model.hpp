#pragma once
// The model SDK: what a user writes. A model is one small class:
//
//   class pi_model : public mcpilot::model {
//    public:
//     void declare(mcpilot::model_spec& s) const override {
//       s.describe("Estimate pi by throwing darts at the unit square");
//       s.integer("darts", 1000, "darts thrown per replication").at_least(1);
//       s.quantity("pi").describe("4 x the fraction of darts inside the quarter circle");
//     }
//     void configure(const mcpilot::parameters& p) override { darts_ = p.integer("darts"); }
//     void replicate(mcpilot::replication& r) const override {
//       ...draw with r.rng()...; r.record("pi", 4.0 * inside / darts_);
//     }
//    private:
//     std::int64_t darts_ = 0;
//   };
//
// Replication style (the default): replicate() is called once per replication index, from any
// thread, with that index's own random stream, and records one reading per quantity. It must not
// modify the model (it is const): keep per-replication state on the stack.
//
// Stream style (steady state): declare s.stream_style() and implement open_stream(). Each stream
// is a long run advanced in rounds; its readings are autocorrelated and may start with a warm-up.
// Streams run in parallel with each other; one stream is only ever advanced by one thread at a
// time.
//
// Measurement style (timing real code): declare s.measurement("sort") and implement
// open_workload(). The session then runs one thread pinned to one core, calibrates the clock, and
// takes readings in time order, each timing a batch of operations: prepare() makes the inputs
// (untimed), timed() runs them (the only code between the two clock reads), check() validates the
// results (untimed). Each reading becomes ns_per_<operation> (and ns_per_f when the model gives
// its order f(n)), plus one quantity per hardware counter the experiment asks for. Readings are a
// single stream: warm-up is removed by change-points, subsessions are sized from the
// autocorrelation. See docs/writing-a-model.md, "Measurement mode".

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "mcpilot/measure/keep_alive.hpp"
#include "mcpilot/measure/timed_stop.hpp"
#include "mcpilot/parameters.hpp"
#include "mcpilot/quantity.hpp"
#include "mcpilot/rng.hpp"
#include "mcpilot/stop_axis.hpp"

namespace mcpilot {

// What s.measurement() declares: the operation a reading times, its order f at the configured
// parameters (for the constant c in T = c f(n)), and a fixed batch size (0: calibrate).
struct measurement_spec {
  std::string operation;  // names the quantities: ns_per_<operation>, <counter>_per_<operation>
  std::string f_name;     // "n log2 n"; empty when the model gives no order
  double f = 0;           // f at the configured parameters; <= 0: no per-f quantities
  std::uint64_t batch = 0;

  // The operation's order: adds ns_per_f (and <counter>_per_f) when f > 0.
  measurement_spec& order(std::string name, double value) {
    f_name = std::move(name);
    f = value;
    return *this;
  }
  measurement_spec& fixed_batch(std::uint64_t b) {
    batch = b;
    return *this;
  }
  bool per_f() const { return !f_name.empty() && f > 0; }
};

class model_spec {
 public:
  model_spec& describe(std::string text) {
    description_ = std::move(text);
    return *this;
  }
  model_spec& stream_style() {
    stream_style_ = true;
    return *this;
  }

  // Measurement style (implies one stream, run on one pinned thread). The time quantities are
  // declared by the framework when the session is set up, after the model's own.
  measurement_spec& measurement(std::string operation = "op") {
    measurement_ = measurement_spec{};
    measurement_->operation = std::move(operation);
    return *measurement_;
  }

  parameter_spec& number(std::string name, double def, std::string description);
  parameter_spec& optional_number(std::string name, std::string description);
  parameter_spec& integer(std::string name, std::int64_t def, std::string description);
  parameter_spec& boolean(std::string name, bool def, std::string description);
  parameter_spec& string(std::string name, std::string def, std::string description);
  parameter_spec& choice(std::string name, std::string def, std::vector<std::string> choices,
                         std::string description);

  quantity_spec& quantity(std::string name, quantity_kind kind = quantity_kind::ordinary);
  quantity_spec& rate(std::string name) { return quantity(std::move(name), quantity_kind::rate); }
  quantity_spec& proportion(std::string name) {
    return quantity(std::move(name), quantity_kind::proportion);
  }
  // A function of the means of other quantities (a ratio estimator, say); its interval comes from
  // the delta method on the joint batch means of its inputs.
  quantity_spec& derived(std::string name, std::vector<std::string> inputs, derived_function g);

  const std::string& description() const { return description_; }
  bool is_stream_style() const { return stream_style_ || measurement_.has_value(); }
  bool is_measurement() const { return measurement_.has_value(); }
  const std::optional<measurement_spec>& measurement_declaration() const { return measurement_; }
  const std::deque<parameter_spec>& parameter_specs() const { return parameters_; }
  const std::deque<quantity_spec>& quantities() const { return quantities_; }
  std::deque<quantity_spec>& quantities() { return quantities_; }
  const parameter_spec* find_parameter(std::string_view name) const;
  // Index of a quantity by name, or -1.
  int quantity_index(std::string_view name) const;

  // A quantity the model estimates under other settings but not under these, and why: a config
  // that asks for it is refused with the reason rather than as an unknown name.
  model_spec& not_estimated(std::string name, std::string why) {
    not_estimated_.emplace_back(std::move(name), std::move(why));
    return *this;
  }
  // Why `name` is not estimated here, or nullptr (declared, or never a quantity of the model).
  const std::string* why_not_estimated(std::string_view name) const {
    for (const auto& [n, why] : not_estimated_)
      if (n == name) return &why;
    return nullptr;
  }

 private:
  parameter_spec& add(parameter_spec p);
  std::string description_;
  bool stream_style_ = false;
  std::optional<measurement_spec> measurement_;
  // deques: the fluent references handed out stay valid as more are declared.
  std::deque<parameter_spec> parameters_;
  std::deque<quantity_spec> quantities_;
  std::vector<std::pair<std::string, std::string>> not_estimated_;
};

// What one replication sees: its index, its random stream, and where its readings go.
class replication {
 public:
  // With `stop` (the session's limit flag), rng() throws task_cancelled once the session is asked
  // to stop, and the replication is dropped as unfinished (task_cancelled.hpp).
  replication(const model_spec& spec, std::uint64_t seed, std::uint64_t index,
              std::span<double> readings, const std::atomic<bool>* stop = nullptr)
      : spec_(spec), rng_(seed, index), index_(index), readings_(readings) {
    rng_.stop_on(stop);
  }

  std::uint64_t index() const { return index_; }
  philox_stream& rng() { return rng_; }
  void record(std::size_t quantity, double value);
  void record(std::string_view name, double value);

 private:
  const model_spec& spec_;
  philox_stream rng_;
  std::uint64_t index_;
  std::span<double> readings_;
};

// What one round of one stream sees. Readings are appended per quantity.
class stream_round {
 public:
  stream_round(const model_spec& spec, philox_stream& rng, std::uint64_t stream,
               std::vector<std::vector<double>>& out, const std::atomic<bool>* stop = nullptr)
      : spec_(spec), rng_(rng), stream_(stream), out_(out), stop_(stop) {}

  std::uint64_t stream() const { return stream_; }
  philox_stream& rng() { return rng_; }
  void record(std::size_t quantity, double value);
  void record(std::string_view name, double value);
  // Whether the session has been asked to stop (max_seconds, an interrupt): a stream whose
  // readings are slow may return from advance() early, with fewer readings than asked; the
  // session keeps what every stream has.
  bool stop_requested() const { return stop_ && stop_->load(std::memory_order_relaxed); }
  const std::atomic<bool>* stop_flag() const { return stop_; }

 private:
  const model_spec& spec_;
  philox_stream& rng_;
  std::uint64_t stream_;
  std::vector<std::vector<double>>& out_;
  const std::atomic<bool>* stop_;
};

// What prepare() and check() of one batch see: the batch size, the session's random stream (for
// fresh inputs), and where the model's own quantities go (counts, say). timed() sees none of it.
class measurement_batch {
 public:
  measurement_batch(const model_spec& spec, philox_stream& rng, std::size_t size,
                    std::vector<std::vector<double>>& out)
      : spec_(spec), rng_(rng), size_(size), out_(out) {}

  std::size_t size() const { return size_; }
  philox_stream& rng() { return rng_; }
  void record(std::string_view name, double value);

 private:
  const model_spec& spec_;
  philox_stream& rng_;
  std::size_t size_;
  std::vector<std::vector<double>>& out_;
};

// A measurement model's state during a session: the inputs and outputs of the current batch.
class workload {
 public:
  virtual ~workload() = default;
  // Untimed: make the inputs of b.size() operations (fresh keys, say).
  virtual void prepare(measurement_batch& b) = 0;
  // Timed: run the `count` operations prepared, and nothing else. Pass what they compute to
  // mcpilot::keep_alive() so that the compiler cannot drop the work.
  virtual void timed(std::size_t count) = 0;
  // Untimed: validate the results of timed(); throw to end the session (a sort that does not
  // sort). May record the model's own quantities.
  virtual void check(measurement_batch& b) = 0;
};

class stream {
 public:
  virtual ~stream() = default;
  // Run on for `count` more readings of each quantity. Advancing by a and then by b must give the
  // same readings as advancing by a + b: the session advances a round in pieces, so that a time
  // limit or an interrupt can stop it between pieces.
  virtual void advance(stream_round& round, std::size_t count) = 0;
  // Checkpoints (run --checkpoint): the stream's own state as bytes (its random stream is saved by
  // the session), and back into a freshly opened stream. A stream that returns nullopt, the
  // default, cannot be checkpointed: a session of such a model refuses --checkpoint at the start.
  virtual std::optional<std::string> save() const { return std::nullopt; }
  virtual void restore(std::string_view state) { (void)state; }
};

// A static, exact fact of a configuration (a design's v, b, r, k and lambda; a layout's bin counts
// and overhead). Shown under the title of the table and under `model_facts` in the JSON, beside the
// estimates. It is not a quantity: it has no interval and is never estimated.
struct model_fact {
  using value_type = std::variant<bool, std::int64_t, double, std::string,
                                  std::vector<std::int64_t>, std::vector<double>>;
  std::string name;
  value_type value;
  std::string description;  // optional: a few words for the table
};

// What one session at the configured parameters needs, estimated before it starts: checked against
// the memory this process may use, and summed over a sweep's points into the duration printed
// before the sweep starts.
struct resource_estimate {
  double bytes = 0;                // the session's own data at its peak; 0: not estimated
  double seconds_per_reading = 0;  // a rough figure for one replication or reading; 0: unknown
  std::string basis;               // how the figures were estimated, a few words
};

class model {
 public:
  virtual ~model() = default;
  // Called on a new instance to learn the parameters, and again after configure(), so that the
  // quantities may depend on the configuration (the parameters must not).
  virtual void declare(model_spec& spec) const = 0;
  // Receives validated values; throw parameter_error for a constraint across fields.
  virtual void configure(const parameters& p) { (void)p; }
  virtual void replicate(replication& r) const;                            // replication style
  virtual std::unique_ptr<stream> open_stream(std::uint64_t index) const;  // stream style
  virtual std::unique_ptr<workload> open_workload() const;                 // measurement style
  // Exact values known for the configured parameters (by quantity name), printed beside the
  // estimates with whether the interval covers them. Empty when none is known.
  virtual std::map<std::string, double> analytic() const { return {}; }
  // Exact facts of the configured parameters, in the order they should be shown. Empty by default.
  virtual std::vector<model_fact> model_facts() const { return {}; }
  // Rules that stop a sweep early along one axis from the results of points already run
  // (stop_axis.hpp, docs/sweeps.md). Asked once per sweep, of the model configured with the
  // file's own values. None by default.
  virtual std::vector<stop_axis_rule> stop_axis_rules() const;
  // The memory and time one session at the configured parameters needs (resource_estimate).
  // Nothing estimated by default.
  virtual resource_estimate estimate() const { return {}; }
};

}  // namespace mcpilot
