// Does the order of a paired reading bias `ratio_to_reference` (models/sorting)? The sorting
// model times a candidate's batch, then checks it, then writes and times the reference's batch,
// always in that order. Timing a sort against itself in the same steps shows what the harness
// alone gives: an unbiased ratio would read 1. Three variants of the same readings:
//   candidate first   the model's order;
//   alternating       the reference first on odd readings, written and timed before the
//                     candidate's batch: does the order matter?
//   one loop          the model's order, both halves timed by one function, so that they run the
//                     same instructions at the same address: does the timing loop's placement
//                     matter (docs/models/sorting.md, "Code placement: one loop, two speeds")?
// Each row gives the mean of the ratios (what the model reports) and their geometric mean (the
// mean of the log ratios, free of the Jensen term, about CV^2, that lifts the mean of a ratio
// of two noisy durations above 1) (docs/models/sorting.md, "The order inside a paired reading").
//
//   perf_paired_order [READINGS]     default 2000 per row
//
// Each row: one sort against itself at one n, a batch of at least 2 ms (as the model calibrates),
// READINGS readings; the intervals are mcpilot's own (the normal preset's confidence, batch
// means, no warm-up removal). The variants alternate row by row, so that a slow change of the
// machine falls on all three.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "mcpilot/measure/keep_alive.hpp"
#include "mcpilot/rng.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/precision.hpp"
#include "sorting/keys.hpp"
#include "sorting/sorts.hpp"

namespace {

using namespace mcpilot;
using namespace mcpilot::sorting;
using clock_type = std::chrono::steady_clock;

// What the model computes over every slot before and after the sort: one read pass.
std::uint64_t pass(std::span<const key> a) {
  std::uint64_t s = 0;
  for (key k : a) s += static_cast<std::uint64_t>(k) * 0x9E3779B97F4A7C15ull;
  return s;
}

// One batch of sorts, timed: the loop every shared-loop reading runs for both halves, so that the
// two halves run the same instructions at the same address.
[[gnu::noinline]] double timed_batch(const algorithm& a, std::span<key> keys, std::size_t n,
                                     std::size_t count, std::span<key> scratch) {
  const auto t0 = clock_type::now();
  for (std::size_t i = 0; i < count; ++i) {
    a.sort(keys.subspan(i * n, n), scratch);
    keep_alive(keys.data());
  }
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

class paired {
 public:
  paired(const algorithm& a, std::size_t n, std::size_t count, bool shared)
      : a_(a),
        n_(n),
        count_(count),
        shared_(shared),
        keys_(n * count),
        ref_(n * count),
        scratch_(scratch_size(n)),
        rng_(20261206, n) {}

  // One reading: the ratio of the candidate's batch to the reference's (both `a`).
  double reading(bool reference_first) {
    fill(keys_);
    sink_ ^= pass(keys_);
    double reference = 0;
    if (reference_first) reference = time_reference();
    double candidate = 0;
    if (shared_) {
      candidate = timed_batch(a_, keys_, n_, count_, scratch_);
    } else {
      // The model's two loops, each at its own address: the copy is what is measured.
      const auto t0 = clock_type::now();
      for (std::size_t i = 0; i < count_; ++i) {
        a_.sort(slot(keys_, i), scratch_);
        keep_alive(keys_.data());
      }
      candidate = std::chrono::duration<double>(clock_type::now() - t0).count();
    }
    for (std::size_t i = 0; i < count_; ++i)
      sink_ ^= std::is_sorted(slot(keys_, i).begin(), slot(keys_, i).end());
    sink_ ^= pass(keys_);
    if (!reference_first) reference = time_reference();
    return candidate / reference;
  }
  std::uint64_t sink() const { return sink_; }

 private:
  std::span<key> slot(std::vector<key>& v, std::size_t i) { return {v.data() + i * n_, n_}; }
  void fill(std::vector<key>& v) {
    for (std::size_t i = 0; i < count_; ++i) fill_keys("uniform", rng_, slot(v, i));
  }
  double time_reference() {
    fill(ref_);
    if (shared_) return timed_batch(a_, ref_, n_, count_, scratch_);
    const auto t0 = clock_type::now();
    for (std::size_t i = 0; i < count_; ++i) {
      a_.sort(slot(ref_, i), scratch_);
      keep_alive(ref_.data());
    }
    return std::chrono::duration<double>(clock_type::now() - t0).count();
  }

  const algorithm& a_;
  std::size_t n_, count_;
  bool shared_;
  std::vector<key> keys_, ref_, scratch_;
  philox_stream rng_;
  std::uint64_t sink_ = 0;
};

// Sorts per batch for at least 2 ms, as the model's calibration asks.
std::size_t batch_for(const algorithm& a, std::size_t n) {
  for (std::size_t count = 1;; count *= 2) {
    std::vector<key> keys(n * count), scratch(scratch_size(n));
    philox_stream rng(1, n);
    for (std::size_t i = 0; i < count; ++i) fill_keys("uniform", rng, {keys.data() + i * n, n});
    if (timed_batch(a, keys, n, count, scratch) >= 2e-3) return count;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t readings = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 2000;
  std::printf("| sort | n | batch | order | readings | mean of the ratios | geometric mean |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  std::uint64_t sink = 0;
  for (const char* name : {"insertion", "shaker", "quick-queue"})
    for (const std::size_t n : {8, 64, 512}) {
      const algorithm& a = *find_algorithm(name);
      const std::size_t count = batch_for(a, n);
      for (const int variant : {0, 1, 2}) {
        const bool alternate = variant == 1, shared = variant == 2;
        paired p(a, n, count, shared);
        std::vector<double> r;
        for (std::size_t i = 0; i < readings; ++i) r.push_back(p.reading(alternate && i % 2 == 1));
        sink ^= p.sink();
        analysis_options o;
        o.requirements = *preset("normal");
        o.remove_warmup = false;
        const analysis s = analyze(r, o);
        const bool holds = s.ci_low && s.ci_high && *s.ci_low <= 1 && 1 <= *s.ci_high;
        // The geometric mean: the mean of the log ratios, whose expectation is 0 when the two
        // halves are exchangeable, where the mean of the ratios is 1 + about CV^2 (Jensen).
        std::vector<double> logs;
        for (const double v : r) logs.push_back(std::log(v));
        const analysis g = analyze(logs, o);
        std::printf("| %s | %zu | %zu | %s | %zu | %.4f [%.4f, %.4f] %s | %.4f [%.4f, %.4f] |\n",
                    name, n, count,
                    shared      ? "one loop, candidate first"
                    : alternate ? "alternating"
                                : "candidate first",
                    readings, s.mean.value_or(0), s.ci_low.value_or(0), s.ci_high.value_or(0),
                    holds ? "" : "(excludes 1)", std::exp(g.mean.value_or(0)),
                    std::exp(g.ci_low.value_or(0)), std::exp(g.ci_high.value_or(0)));
        std::fflush(stdout);
      }
    }
  return sink == 42 ? 3 : 0;  // keeps the checks' results alive
}
