#include "sorting_model.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <variant>

#include "counts.hpp"
#include "early_stop.hpp"
#include "keys.hpp"
#include "mcpilot/parameters.hpp"

namespace mcpilot::sorting {

namespace {

// Order-independent fingerprints of a multiset of keys: a sort must keep them. Together with the
// key-for-key comparison of the session's first sort against std::sort, a sort that loses or
// invents keys fails the check with overwhelming probability.
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

// The placed copies a layout times, or none: with layout = fixed, for a sort that calls itself
// (it has none), and where the pollable copy is timed (f(n) >= 2^24; n = 0 for a reference,
// which is always timed as written).
const placed_sorts* placed_for(const algorithm& a, std::size_t n, code_layout layout) {
  if (layout.how == code_layout::kind::fixed || !a.placed) return nullptr;
  if (a.pollable_sort && order_value(a.f, static_cast<double>(n)) >= pollable_from_f)
    return nullptr;
  return a.placed;
}

// One session's buffers and the three phases of a reading.
class sort_workload final : public workload {
 public:
  sort_workload(const algorithm& a, std::size_t n, std::string family, bool fresh, bool counts,
                shell_gaps_kind gaps, const algorithm* reference, code_layout layout)
      : algorithm_(a),
        paired_with_(reference),
        layout_(layout),
        n_(n),
        family_(std::move(family)),
        fresh_(fresh),
        counts_(counts),
        gaps_(gaps),
        // Where one sort may take long, the copy that polls for a stop request (sorts.hpp); below,
        // the sort exactly as written.
        sort_(a.pollable_sort && order_value(a.f, static_cast<double>(n)) >= pollable_from_f
                  ? a.pollable_sort
                  : a.sort),
        copies_(placed_for(a, n, layout)),
        // The reference moves only with the candidate: a ratio of a placed sort over one as
        // linked would judge one build's placement after all.
        reference_copies_(reference && copies_ ? placed_for(*reference, 0, layout) : nullptr) {}

  void prepare(measurement_batch& b) override {
    const std::size_t count = b.size();
    current_ = pick(copies_, sort_, b);
    keys_.resize(count * n_);
    scratch_.resize(scratch_size(n_));
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
    if (counts_ || !compared_)
      reference_.assign(keys_.begin(), keys_.begin() + static_cast<std::ptrdiff_t>(n_));
  }

  void timed(std::size_t count) override {
    // With a reference, the batch's own duration on the clock the reference is timed with; two
    // clock reads beside a reading of >= 2 ms.
    const auto start = paired_with_ ? clock::now() : clock::time_point{};
    for (std::size_t i = 0; i < count; ++i) {
      current_(slot(i), scratch_);
      keep_alive(keys_.data());
    }
    if (paired_with_) candidate_ = clock::now() - start;
  }

  void check(measurement_batch& b) override {
    // Counts come from the instrumented copy, run here on the first sort's input (still in
    // reference_), never from the timed code.
    if (counts_) {
      std::vector<key> input = reference_;
      const operation_counts c = count_operations(algorithm_.name, gaps_, input);
      b.record("comparisons", static_cast<double>(c.comparisons));
      b.record("moves", static_cast<double>(c.moves));
    }
    // The first batch's first sort is compared with std::sort key for key; every sort of every
    // batch is checked to be in order and to hold the keys it was given (order-independent
    // fingerprints). Together they catch a sort that does not sort, loses or invents keys, at a
    // cost linear in n: a reference sort of every reading would cost as much as the sort timed,
    // and at n = 2^23 it doubled the study's time.
    if (!compared_) {
      std::sort(reference_.begin(), reference_.end());
      if (!std::equal(reference_.begin(), reference_.end(), keys_.begin()))
        fail(0, "its output differs from std::sort's");
      compared_ = true;
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
      const auto s = slot(i);
      if (!std::is_sorted(s.begin(), s.end())) fail(i, "its output is not in order");
      if (!(fingerprint_of(s) == fingerprints_[i])) fail(i, "its output holds other keys");
    }
    if (paired_with_) time_reference(b);
  }

 private:
  using clock = std::chrono::steady_clock;

  // The reference sort on as many fresh keys, written just before (as the candidate's were),
  // timed right after the candidate: a shift of the machine's speed between readings moves both
  // durations, and their ratio keeps only what differs between the two sorts.
  void time_reference(measurement_batch& b) {
    const std::size_t count = b.size();
    const sort_function reference = pick(reference_copies_, paired_with_->sort, b);
    reference_keys_.resize(count * n_);
    for (std::size_t i = 0; i < count; ++i) {
      const std::span<key> slot(reference_keys_.data() + i * n_, n_);
      if (fresh_)
        fill_keys(family_, b.rng(), slot);
      else
        std::copy(same_.begin(), same_.end(), slot.begin());
    }
    const auto start = clock::now();
    for (std::size_t i = 0; i < count; ++i) {
      reference({reference_keys_.data() + i * n_, n_}, scratch_);
      keep_alive(reference_keys_.data());
    }
    const auto took = clock::now() - start;
    if (n_ > 0 && !std::is_sorted(reference_keys_.begin(), reference_keys_.begin() + n_))
      throw std::runtime_error("the reference sort " + std::string(paired_with_->name) +
                               " did not sort " + std::to_string(n_) + " keys");
    if (took.count() > 0)
      b.record("ratio_to_reference", std::chrono::duration<double>(candidate_).count() /
                                         std::chrono::duration<double>(took).count());
  }

  std::span<key> slot(std::size_t i) { return {keys_.data() + i * n_, n_}; }

  // The copy a reading times: the pinned one, or one drawn from the reading's own stream, so that
  // the choice depends on the seed alone.
  sort_function pick(const placed_sorts* copies, sort_function linked, measurement_batch& b) const {
    if (!copies) return linked;
    if (layout_.how == code_layout::kind::pinned) return (*copies)[layout_.copy];
    return (*copies)[placed_copy_of(b.rng()())];
  }

  [[noreturn]] void fail(std::size_t i, const std::string& why) const {
    throw std::runtime_error("sort " + std::string(algorithm_.name) + " failed on " +
                             std::to_string(n_) + " " + family_ + " keys (sort " +
                             std::to_string(i) + " of the batch): " + why);
  }

  const algorithm& algorithm_;
  const algorithm* paired_with_;  // timed in every reading beside the candidate; or none
  code_layout layout_;
  clock::duration candidate_{};
  std::size_t n_;
  std::string family_;
  bool fresh_;
  bool counts_;
  shell_gaps_kind gaps_;
  sort_function sort_;
  const placed_sorts* copies_;            // null: the sort as linked is timed
  const placed_sorts* reference_copies_;  // the same for the reference
  sort_function current_ = nullptr;       // this reading's copy
  bool compared_ = false;
  std::vector<key> keys_, scratch_, reference_, same_, reference_keys_;
  std::vector<fingerprint> fingerprints_;
};

}  // namespace

void sorting_model::declare(model_spec& s) const {
  s.describe("Time one sort of n 32-bit keys (measurement mode): ns per sort and per f(n)");
  s.choice("algorithm", "quick", algorithm_names(), "the sort to time");
  // Below 2^32 - 2: the quicksorts keep pending subarrays as 32-bit index pairs.
  s.integer("n", 181, "keys per sort (0 and 1 are valid, trivial sorts)")
      .at_least(0)
      .at_most(4294967293.0);
  s.choice("keys", "uniform", key_families(), "key family: inputs that take different paths");
  s.boolean("fresh_keys", true,
            "each sort of a batch on fresh keys; false repeats one key set, which the branch "
            "predictor learns");
  s.integer("batch", 0,
            "sorts per reading; 0 = calibrate to >= experiment.min_reading_ms (default 2 ms) and "
            ">= 1,000x the clock's resolution")
      .in_range(0, 1e9);
  s.boolean("counts", false,
            "also count comparisons and moves of the first sort of each reading, in an "
            "instrumented copy run outside the timed region (every algorithm)");
  s.choice("gaps", "pratt", shell_gap_names(),
           "Shell sort's gaps: pratt (every 2^p 3^q below n, the study's) or ciura (1, 4, 10, "
           "23, 57, 132, 301, 701, then x 2.25); other sorts ignore it");
  // The early-stop rule's two settings (early_stop.hpp), so that the rule itself can be studied
  // on real runs: a run with stop_sizes = 0 times every sort at every size, and any rule can then
  // be replayed on its table (scripts/sorting-stop-rules.py).
  s.integer("stop_sizes", stop_rule{}.consecutive,
            "in a sweep over n: a quadratic sort or Shell sort is not run at larger n once it is "
            "clearly slower than its reference (stop_reference) at this many consecutive sizes; "
            "0 = never stop")
      .in_range(0, 100);
  s.number("stop_margin", stop_rule{}.margin,
           "how clearly, at each of those sizes: the lower end of the interval of its time over "
           "the reference's above 1 + stop_margin (with stop_reference = none: its lower end "
           "above the slowest n log n sort's upper end times 1 + stop_margin)")
      .in_range(0, 10);
  s.choice("layout", "fixed", code_layout_names(),
           "which copy of the sort (and of its reference) a reading times: fixed = the one the "
           "linker placed; random = one of 16 copies at addresses of their own, drawn per reading "
           "(a verdict no build's code placement decides); copy-i = copy i "
           "throughout. Sorts that call themselves, and the pollable copy at f(n) >= 2^24, are "
           "timed as linked");
  std::vector<std::string> references = {"none"};
  for (const auto& name : algorithm_names())
    if (reference_sort(name)) references.push_back(name);
  s.choice("stop_reference", "quick-queue", references,
           "in a sweep over n with the stop rule: the n log n sort a quadratic sort or Shell sort "
           "is timed beside in every reading, the rule judging the ratio of their times; none = "
           "judge separately timed sessions against the slowest n log n sort at that n");
  if (counts_) {
    s.quantity("comparisons")
        .with_unit("per sort")
        .optional()
        .describe("key comparisons of one sort (instrumented copy, untimed)");
    s.quantity("moves")
        .with_unit("per sort")
        .optional()
        .describe("moves of one sort as the algorithm's copy counts them (docs/models/sorting.md)");
  }
  if (paired_with_)
    s.quantity("ratio_to_reference")
        .with_unit("x")
        .optional()
        .describe("its time over " + std::string(paired_with_->name) +
                  "'s on as many fresh keys, timed right after it in the same reading (untimed "
                  "for ns_per_sort): what the stop rule judges");
  measurement_spec& m = s.measurement("sort");
  m.fixed_batch(static_cast<std::uint64_t>(batch_));
  if (algorithm_) {
    const double f = order_value(algorithm_->f, static_cast<double>(n_));
    if (f > 0) m.order(std::string(order_name(algorithm_->f)), f);
  }
}

double sorting_model::bytes_needed(std::int64_t n, std::int64_t batch, bool paired) {
  const double keys = static_cast<double>(n) * sizeof(key);
  return keys * static_cast<double>(std::max<std::int64_t>(batch, 1)) * (paired ? 2 : 1) +
         static_cast<double>(scratch_size(static_cast<std::size_t>(n))) * sizeof(key) + keys;
}

void sorting_model::configure(const parameters& p) {
  gaps_ = shell_gaps_by_name(p.string("gaps"));
  const algorithm* named = find_algorithm(p.string("algorithm"));
  if (!named) throw parameter_error("algorithm", "unknown algorithm");
  algorithm_ = &with_gaps(*named, gaps_);
  n_ = p.integer("n");
  keys_ = p.string("keys");
  fresh_keys_ = p.boolean("fresh_keys");
  batch_ = p.integer("batch");
  counts_ = p.boolean("counts");
  layout_ = code_layout_by_name(p.string("layout"));
  stop_ = {static_cast<int>(p.integer("stop_sizes")), p.number("stop_margin")};
  stop_reference_ = p.string("stop_reference");
  paired_with_ = stop_.consecutive > 0 && algorithm_->stops_early && stop_reference_ != "none"
                     ? find_algorithm(stop_reference_)
                     : nullptr;
  // Refused before anything is allocated (a session that would swap measures the disk), as a
  // resource error, so that a sweep with such a size is refused before its first point.
  const bool paired = paired_with_ != nullptr;
  const double need = bytes_needed(n_, batch_, paired);
  const double have = physical_memory_bytes();
  if (have > 0 && need > have / 2)
    throw parameter_resource_error(
        batch_ > 1 && bytes_needed(n_, 0, paired) <= have / 2 ? "batch" : "n",
        "n = " + std::to_string(n_) +
            (batch_ > 1 ? " with batch = " + std::to_string(batch_) : "") + " needs " + gib(need) +
            " (the batch's keys, a scratch array and a reference copy" +
            (paired ? std::string(", and the reference sort's keys") : std::string()) +
            ", 4 bytes a key), more than half of this machine's " + gib(have));
}

std::unique_ptr<workload> sorting_model::open_workload() const {
  return std::make_unique<sort_workload>(*algorithm_, static_cast<std::size_t>(n_), keys_,
                                         fresh_keys_, counts_, gaps_, paired_with_, layout_);
}

namespace {

// Comparisons of binary insertion sort's search (the loop of sorts_quadratic.cpp) summed over the
// i + 1 places a key may go among i sorted keys: the search halves [0, i) at mid = i / 2 with one
// comparison, and goes on in the i / 2 places left of mid (i / 2 + 1 places) or the i - i / 2 - 1
// keys right of it. S(0) = 0; S(i) = (i + 1) + S(i / 2) + S(i - i / 2 - 1). O(n) for all i <= n.
std::vector<double> binary_search_sums(std::size_t n) {
  std::vector<double> sum(n + 1, 0.0);
  for (std::size_t i = 1; i <= n; ++i)
    sum[i] = static_cast<double>(i + 1) + sum[i / 2] + sum[i - i / 2 - 1];
  return sum;
}

// Merge sort's moves: 2n at the top level and the same below, a function of n alone. The halves of
// n differ by at most one, so each level has at most two sizes: O(log n) with the memo.
double merge_moves(std::int64_t n, std::map<std::int64_t, double>& memo) {
  if (n < 2) return 0;
  if (const auto it = memo.find(n); it != memo.end()) return it->second;
  const double m =
      2.0 * static_cast<double>(n) + merge_moves(n / 2, memo) + merge_moves(n - n / 2, memo);
  memo[n] = m;
  return m;
}

}  // namespace

// Knuth, TAOCP vol. 3, 5.1.1 and 5.2.1: over random permutations of n distinct keys the
// inversions average n(n-1)/4; insertion sort shifts once per inversion and compares
// n(n-1)/4 + n - H_n times on average; bubble and shaker sort swap once per inversion, and binary
// insertion shifts once per inversion; with every place equally likely for the i-th key, binary
// insertion's search compares S(i)/(i + 1) times on average. Whatever the keys: selection sort
// compares n(n-1)/2 times and (as counted here) swaps n - 1 times; merge sort moves 2n keys per
// level; radix sort writes 4n keys and compares none. Uniform 32-bit keys are distinct with
// probability about 1 - n^2 / 2^33.
std::map<std::string, double> sorting_model::analytic() const {
  if (!counts_ || !algorithm_ || n_ < 1) return {};
  const double n = static_cast<double>(n_);
  const std::string name(algorithm_->name);
  if (name == "selection") return {{"comparisons", n * (n - 1) / 2}, {"moves", n - 1}};
  if (name == "merge") {
    std::map<std::int64_t, double> memo;
    return {{"moves", merge_moves(n_, memo)}};
  }
  if (name == "radix") return {{"comparisons", 0}, {"moves", n_ < 2 ? 0 : 4 * n}};
  if (keys_ != "uniform" || !fresh_keys_) return {};
  const double inversions = n * (n - 1) / 4;
  if (name == "insertion") {
    double harmonic = 0;
    for (std::int64_t k = 1; k <= n_; ++k) harmonic += 1.0 / static_cast<double>(k);
    return {{"comparisons", inversions + n - harmonic}, {"moves", inversions}};
  }
  if (name == "bubble" || name == "shaker") return {{"moves", inversions}};
  if (name == "binary-insertion") {
    const auto sums = binary_search_sums(static_cast<std::size_t>(n_));
    double comparisons = 0;
    for (std::int64_t i = 1; i < n_; ++i) comparisons += sums[i] / static_cast<double>(i + 1);
    return {{"comparisons", comparisons}, {"moves", inversions}};
  }
  return {};
}

resource_estimate sorting_model::estimate() const {
  resource_estimate e;
  if (!algorithm_) return e;
  e.bytes = bytes_needed(n_, batch_, paired_with_ != nullptr);
  // A calibrated reading lasts at least 2 ms, or one sort when that is longer; making and checking
  // the keys adds about 6 ns a key.
  const double sort_seconds = algorithm_->typical_ns_per_f * 1e-9 *
                              std::max(1.0, order_value(algorithm_->f, static_cast<double>(n_)));
  const double batch =
      batch_ > 0 ? static_cast<double>(batch_) : std::max(1.0, 2e-3 / sort_seconds);
  // Paired timing adds the reference's sorts on as many keys.
  const double reference_seconds =
      paired_with_ ? paired_with_->typical_ns_per_f * 1e-9 *
                         std::max(1.0, order_value(paired_with_->f, static_cast<double>(n_)))
                   : 0;
  e.seconds_per_reading = batch * (sort_seconds + reference_seconds +
                                   (paired_with_ ? 12e-9 : 6e-9) * static_cast<double>(n_));
  e.basis =
      "keys, scratch and reference copy at 4 bytes a key; each sort at the constant measured on "
      "the development VM (docs/models/sorting.md), readings of at least 2 ms";
  return e;
}

std::vector<stop_axis_rule> sorting_model::stop_axis_rules() const {
  if (stop_.consecutive == 0) return {};
  // Every point the sweep configures has the same stop_reference: the model it asks for its rule
  // may be configured at any of them, under the rule or not.
  const std::string reference = stop_reference_ == "none" ? std::string() : stop_reference_;
  auto rule = [settings = stop_, reference](
                  const axis_point& next,
                  std::span<const axis_point> done) -> std::optional<std::string> {
    const auto algorithm = next.text("model.algorithm");
    const auto n = next.number("model.n");
    if (!algorithm || !n || !under_rule(*algorithm)) return std::nullopt;
    early_stop_tracker tracker(settings);
    for (const auto& p : done) {
      const auto pa = p.text("model.algorithm");
      const auto pn = p.number("model.n");
      const axis_point::estimate* q = p.quantity("ns_per_sort");
      if (!pa || !pn || !q) continue;
      timing_point t{*pa, static_cast<std::int64_t>(*pn), q->mean, q->ci_low, q->ci_high, {}, {}};
      if (const axis_point::estimate* r = p.quantity("ratio_to_reference");
          r && !reference.empty()) {
        t.reference = reference;
        t.ratio_low = r->ci_low;
      }
      tracker.add(t);
    }
    if (tracker.should_run(*algorithm, static_cast<std::int64_t>(*n))) return std::nullopt;
    return tracker.explain(*algorithm);
  };
  auto applies = [](const axis_point& p) {
    const auto algorithm = p.text("model.algorithm");
    return algorithm && under_rule(*algorithm);
  };
  return {{"model.n", rule, applies}};
}

std::vector<model_fact> sorting_model::model_facts() const {
  if (!algorithm_) return {};
  std::vector<model_fact> facts = {
      {"algorithm", std::string(algorithm_->name), std::string(algorithm_->description)},
      {"order", std::string(order_name(algorithm_->f)), "f(n), for ns_per_f = c"},
      {"f(n)", order_value(algorithm_->f, static_cast<double>(n_)), ""},
      {"keys", keys_, fresh_keys_ ? "fresh keys for every sort" : "one key set, repeated"},
  };
  if (algorithm_->name == "shell")
    facts.push_back({"gaps", shell_gap_names()[gaps_ == shell_gaps_kind::pratt ? 0 : 1],
                     "Shell sort's gap sequence"});
  if (algorithm_->pollable_sort &&
      order_value(algorithm_->f, static_cast<double>(n_)) >= pollable_from_f)
    facts.push_back(
        {"timed copy", std::string("pollable"),
         "f(n) >= 2^24: the copy that stops within a pass when the session is asked to"});
  if (layout_.how != code_layout::kind::fixed) {
    const bool placed = placed_for(*algorithm_, static_cast<std::size_t>(n_), layout_) != nullptr;
    const std::string name = code_layout_name(layout_);
    std::string how;
    if (!placed)
      how = "asked for " + name +
            (algorithm_->placed ? ", but the pollable copy is timed (f(n) >= 2^24)"
                                : ", but a sort that calls itself has no placed copies") +
            ": timed as linked";
    else if (layout_.how == code_layout::kind::random)
      how =
          "each reading times one of 16 copies of the sort at addresses of their own, drawn "
          "from the reading's stream";
    else
      how = "copy " + std::to_string(layout_.copy) +
            " of 16 in every reading, at an address of its own";
    if (placed && paired_with_)
      how += "; its reference " + std::string(paired_with_->name) +
             (paired_with_->placed ? " likewise" : " as linked (it calls itself)");
    facts.push_back({"layout", placed ? name : std::string("fixed"), how});
  }
  return facts;
}

}  // namespace mcpilot::sorting
