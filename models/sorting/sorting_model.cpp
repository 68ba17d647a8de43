#include "sorting_model.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <variant>

#include "counts.hpp"
#include "early_stop.hpp"
#include "keys.hpp"
#include "mcpilot/parameters.hpp"
#include "mcpilot/sweep/run.hpp"

namespace mcpilot::sorting {

namespace {

// Order-independent fingerprints of a multiset of keys: a sort must keep them. Together with the
// exact comparison of one array per batch against std::sort, a sort that loses or invents keys
// fails the check with overwhelming probability.
struct fingerprint {
  std::uint64_t sum = 0, squares = 0, xored = 0;
  bool operator==(const fingerprint&) const = default;
};

fingerprint fingerprint_of(std::span<const key> a) {
  fingerprint f;
  for (key k : a) {
    f.sum += k;
    f.squares += static_cast<std::uint64_t>(k) * k;
    f.xored ^= static_cast<std::uint64_t>(k) * 0x9E3779B97F4A7C15ull;
  }
  return f;
}

double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? static_cast<double>(pages) * static_cast<double>(size) : 0;
}

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g GiB", bytes / (1024.0 * 1024 * 1024));
  return buf;
}

using counted_sort = operation_counts (*)(std::span<key>);

// The instrumented copy of a sort, or nullptr when it has none.
counted_sort counted_version(std::string_view name) {
  if (name == "insertion") return counted_insertion_sort;
  if (name == "bubble") return counted_bubble_sort;
  if (name == "selection") return counted_selection_sort;
  if (name == "binary-insertion") return counted_binary_insertion_sort;
  if (name == "merge") return counted_merge_sort;
  return nullptr;
}

// One session's buffers and the three phases of a reading.
class sort_workload final : public workload {
 public:
  sort_workload(const algorithm& a, std::size_t n, std::string family, bool fresh,
                counted_sort counted)
      : algorithm_(a), n_(n), family_(std::move(family)), fresh_(fresh), counted_(counted) {}

  void prepare(measurement_batch& b) override {
    const std::size_t count = b.size();
    keys_.resize(count * n_);
    scratch_.resize(n_);
    fingerprints_.resize(count);
    if (fresh_) {
      for (std::size_t i = 0; i < count; ++i) fill_keys(family_, b.rng(), slot(i));
    } else {
      // One set of keys for the whole session, copied into every slot: the branch predictor
      // sees the same branches sort after sort and learns them.
      if (same_.size() != n_) {
        same_.resize(n_);
        fill_keys(family_, b.rng(), same_);
      }
      for (std::size_t i = 0; i < count; ++i)
        std::copy(same_.begin(), same_.end(), slot(i).begin());
    }
    for (std::size_t i = 0; i < count; ++i) fingerprints_[i] = fingerprint_of(slot(i));
    reference_.assign(keys_.begin(), keys_.begin() + static_cast<std::ptrdiff_t>(n_));
  }

  void timed(std::size_t count) override {
    for (std::size_t i = 0; i < count; ++i) {
      algorithm_.sort(slot(i), scratch_);
      keep_alive(keys_.data());
    }
  }

  void check(measurement_batch& b) override {
    // Counts come from the instrumented copy, run here on the first sort's input (still in
    // reference_), never from the timed code.
    if (counted_) {
      std::vector<key> input = reference_;
      const operation_counts c = counted_(input);
      b.record("comparisons", static_cast<double>(c.comparisons));
      b.record("moves", static_cast<double>(c.moves));
    }
    std::sort(reference_.begin(), reference_.end());
    if (!std::equal(reference_.begin(), reference_.end(), keys_.begin()))
      fail(0, "its output differs from std::sort's");
    for (std::size_t i = 0; i < b.size(); ++i) {
      const auto s = slot(i);
      if (!std::is_sorted(s.begin(), s.end())) fail(i, "its output is not in order");
      if (!(fingerprint_of(s) == fingerprints_[i])) fail(i, "its output holds other keys");
    }
  }

 private:
  std::span<key> slot(std::size_t i) { return {keys_.data() + i * n_, n_}; }

  [[noreturn]] void fail(std::size_t i, const std::string& why) const {
    throw std::runtime_error("sort " + std::string(algorithm_.name) + " failed on " +
                             std::to_string(n_) + " " + family_ + " keys (sort " +
                             std::to_string(i) + " of the batch): " + why);
  }

  const algorithm& algorithm_;
  std::size_t n_;
  std::string family_;
  bool fresh_;
  counted_sort counted_;
  std::vector<key> keys_, scratch_, reference_, same_;
  std::vector<fingerprint> fingerprints_;
};

}  // namespace

void sorting_model::declare(model_spec& s) const {
  s.describe("Time one sort of n 32-bit keys (measurement mode): ns per sort and per f(n)");
  s.choice("algorithm", "quick", algorithm_names(), "the sort to time");
  s.integer("n", 181, "keys per sort (0 and 1 are valid, trivial sorts)").at_least(0);
  s.choice("keys", "uniform", key_families(), "key family: inputs that take different paths");
  s.boolean("fresh_keys", true,
            "each sort of a batch on fresh keys; false repeats one key set, which the branch "
            "predictor learns");
  s.integer("batch", 0,
            "sorts per reading; 0 = calibrate to >= experiment.min_reading_ms (default 2 ms) and "
            ">= 1,000x the clock's resolution")
      .at_least(0);
  s.boolean("counts", false,
            "also count comparisons and moves of the first sort of each reading, in an "
            "instrumented copy run outside the timed region (insertion, bubble, selection, "
            "binary-insertion, merge)");
  if (counts_) {
    s.quantity("comparisons")
        .with_unit("per sort")
        .optional()
        .describe("key comparisons of one sort (instrumented copy, untimed)");
    s.quantity("moves")
        .with_unit("per sort")
        .optional()
        .describe("shifts (insertion sorts) or swaps (bubble, selection) of one sort; 0 for merge");
  }
  measurement_spec& m = s.measurement("sort");
  m.fixed_batch(static_cast<std::uint64_t>(batch_));
  if (algorithm_) {
    const double f = order_value(algorithm_->f, static_cast<double>(n_));
    if (f > 0) m.order(std::string(order_name(algorithm_->f)), f);
  }
}

double sorting_model::bytes_needed(std::int64_t n, std::int64_t batch) {
  const double keys = static_cast<double>(n) * sizeof(key);
  return keys * static_cast<double>(std::max<std::int64_t>(batch, 1)) + 2 * keys;
}

void sorting_model::configure(const parameters& p) {
  algorithm_ = find_algorithm(p.string("algorithm"));
  if (!algorithm_) throw parameter_error("algorithm", "unknown algorithm");
  n_ = p.integer("n");
  keys_ = p.string("keys");
  fresh_keys_ = p.boolean("fresh_keys");
  batch_ = p.integer("batch");
  counts_ = p.boolean("counts");
  if (counts_ && !counted_version(algorithm_->name))
    throw parameter_error(
        "counts",
        "counts = true needs an instrumented sort: insertion, bubble, "
        "selection, binary-insertion or merge, not " +
            std::string(algorithm_->name));  // Refused before anything is allocated: a session that
                                             // would swap measures the disk.
  const double need = bytes_needed(n_, batch_);
  const double have = physical_memory_bytes();
  if (have > 0 && need > have / 2)
    throw parameter_error(batch_ > 1 && bytes_needed(n_, 0) <= have / 2 ? "batch" : "n",
                          "n = " + std::to_string(n_) +
                              (batch_ > 1 ? " with batch = " + std::to_string(batch_) : "") +
                              " needs " + gib(need) +
                              " (the batch's keys, a scratch array and a reference copy, 4 bytes "
                              "a key), more than half of this machine's " +
                              gib(have));
}

std::unique_ptr<workload> sorting_model::open_workload() const {
  return std::make_unique<sort_workload>(*algorithm_, static_cast<std::size_t>(n_), keys_,
                                         fresh_keys_,
                                         counts_ ? counted_version(algorithm_->name) : nullptr);
}

// Knuth, TAOCP vol. 3, 5.1.1 and 5.2.1: over random permutations of n distinct keys the
// inversions average n(n-1)/4; insertion sort shifts once per inversion and compares
// n(n-1)/4 + n - H_n times on average; bubble sort swaps once per inversion; selection sort
// compares n(n-1)/2 times and (as counted here) swaps n-1 times on every input. Uniform 32-bit
// keys are distinct with probability about 1 - n^2 / 2^33.
std::map<std::string, double> sorting_model::analytic() const {
  if (!counts_ || !algorithm_ || n_ < 1) return {};
  const double n = static_cast<double>(n_);
  const double inversions = n * (n - 1) / 4;
  const std::string name(algorithm_->name);
  if (name == "selection") return {{"comparisons", n * (n - 1) / 2}, {"moves", n - 1}};
  if (keys_ != "uniform" || !fresh_keys_) return {};
  if (name == "insertion") {
    double harmonic = 0;
    for (std::int64_t k = 1; k <= n_; ++k) harmonic += 1.0 / static_cast<double>(k);
    return {{"comparisons", inversions + n - harmonic}, {"moves", inversions}};
  }
  if (name == "bubble" || name == "binary-insertion") return {{"moves", inversions}};
  return {};
}

std::vector<stop_axis_rule> sorting_model::stop_axis_rules() const {
  auto rule = [](const sweep_point& next,
                 std::span<const sweep_point> done) -> std::optional<std::string> {
    const param_value* a = next.value("model.algorithm");
    const auto n = next.number("model.n");
    if (!a || !n || !std::holds_alternative<std::string>(*a)) return std::nullopt;
    const std::string& algorithm = std::get<std::string>(*a);
    if (!under_rule(algorithm)) return std::nullopt;
    early_stop_tracker tracker;
    for (const auto& p : done) {
      const param_value* pa = p.value("model.algorithm");
      const auto pn = p.number("model.n");
      const quantity_result* q = p.quantity("ns_per_sort");
      if (!pa || !pn || !q || !std::holds_alternative<std::string>(*pa)) continue;
      tracker.add({std::get<std::string>(*pa), static_cast<std::int64_t>(*pn), q->stats.mean,
                   q->stats.ci_low, q->stats.ci_high});
    }
    if (tracker.should_run(algorithm, static_cast<std::int64_t>(*n))) return std::nullopt;
    return algorithm + " stopped at n = " + std::to_string(tracker.stopped_at().at(algorithm)) +
           ": the lower end of its interval is above the upper end of the slowest n log n "
           "sort's there";
  };
  return {{"model.n", rule}};
}

std::vector<model_fact> sorting_model::model_facts() const {
  if (!algorithm_) return {};
  return {
      {"algorithm", std::string(algorithm_->name), std::string(algorithm_->description)},
      {"order", std::string(order_name(algorithm_->f)), "f(n), for ns_per_f = c"},
      {"f(n)", order_value(algorithm_->f, static_cast<double>(n_)), ""},
      {"keys", keys_, fresh_keys_ ? "fresh keys for every sort" : "one key set, repeated"},
  };
}

}  // namespace mcpilot::sorting
