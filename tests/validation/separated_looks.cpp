// Full-size study of `mcpilot bench --until separated`'s looks (tests/support/
// separated_looks_study.hpp): two streams of N(10, 1) and N(10 + d, 1) readings, judged as bench
// judges a pair, under the rule before (a look at alpha at every round's end) and the rule now
// (look k at 6 alpha / (pi^2 k^2), looks when the runs have doubled). For each difference: how
// often the pair is resolved before 20,480 readings each, how often the wrong way round, the
// readings each stream needed (median and 90th percentile) and the looks taken. Exits 1 when the
// rule now resolves equal streams more often than alpha allows (alpha + 4 binomial standard
// errors) or resolves a real difference the wrong way more often than alpha / 2. Then the
// level-shift case with warm-up removal on: two identical commands whose speed halves at block
// 50, compared as bench compares them now (paired blocks, one common window); exits 1 when they
// are resolved more often than alpha + 4 binomial standard errors. About a minute.
// The numbers are recorded in docs/validation.md.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <boost/random/normal_distribution.hpp>

#include "../support/separated_looks_study.hpp"
#include "mcpilot/stats/paired_comparison.hpp"

namespace {

std::uint64_t quantile(std::vector<std::uint64_t> v, double f) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(f * static_cast<double>(v.size() - 1))];
}

// Two identical commands on a machine whose speed halves at block 50 (both at 10 + N(0, 1), then
// at 5 + N(0, 1)), warm-up removal on, judged as bench judges a pair now: the paired comparison
// of the blocks, looks when the blocks have doubled (30, 60, ... up to cap), look k at
// look_level(alpha, k). Returns how many of `reps` pairs were resolved.
int shift_resolved(double alpha, int reps, std::size_t cap) {
  using namespace mcpilot;
  boost::random::normal_distribution<double> normal;
  analysis_options o;
  o.requirements.min_samples = 30;
  o.remove_warmup = true;
  int resolved = 0;
  for (int rep = 0; rep < reps; ++rep) {
    philox_stream rng(20261203, static_cast<std::uint64_t>(rep));
    std::vector<double> a, b;
    look_schedule schedule;
    for (std::size_t n = 30; n <= cap; n *= 2) {
      while (a.size() < n) {
        const double level = a.size() < 50 ? 10 : 5;
        a.push_back(level + normal(rng));
        b.push_back(level + normal(rng));
      }
      o.requirements.confidence = 1 - schedule.take(n, alpha);
      if (compare_paired(a, b, o).separated) {
        ++resolved;
        break;
      }
    }
  }
  return resolved;
}

}  // namespace

int main() {
  using namespace mcpilot::test;
  constexpr int reps = 10000;
  constexpr std::uint64_t cap = 20480;
  int failures = 0;
  for (const double alpha : {0.05, 0.10}) {
    std::printf("\nconfidence %.0f%%, %d pairs per row, at most %llu readings each\n\n",
                100 * (1 - alpha), reps, static_cast<unsigned long long>(cap));
    std::printf(
        "| difference (sd) | rule | resolved | wrong way | readings each, median | 90%% | "
        "looks |\n|---|---|---|---|---|---|---|\n");
    for (const double d : {0.0, 0.05, 0.1, 0.3, 1.0}) {
      for (const look_rule rule : {look_rule::every_round, look_rule::spent}) {
        const looks_outcome o = looks_study(rule, 10 + d, reps, alpha, cap);
        const double share = static_cast<double>(o.resolved) / reps;
        const double wrong = static_cast<double>(o.wrong_way) / reps;
        std::printf("| %.2f | %s | %.2f%% | %.2f%% | %llu | %llu | %.1f |\n", d,
                    rule == look_rule::spent ? "now" : "before", 100 * share, 100 * wrong,
                    static_cast<unsigned long long>(quantile(o.readings_at_resolution, 0.5)),
                    static_cast<unsigned long long>(quantile(o.readings_at_resolution, 0.9)),
                    o.looks);
        if (rule != look_rule::spent) continue;
        const double se = std::sqrt(alpha * (1 - alpha) / reps);
        if (d == 0 && share > alpha + 4 * se) {
          std::printf("FAIL: equal streams resolved %.2f%% > %.2f%%\n", 100 * share,
                      100 * (alpha + 4 * se));
          ++failures;
        }
        const double half = alpha / 2, se_half = std::sqrt(half * (1 - half) / reps);
        if (d > 0 && wrong > half + 4 * se_half) {
          std::printf("FAIL: resolved the wrong way %.2f%% > %.2f%%\n", 100 * wrong,
                      100 * (half + 4 * se_half));
          ++failures;
        }
      }
    }
  }
  // The level-shift case with warm-up removal on (docs/bench.md, "Comparing commands").
  std::printf(
      "\nidentical commands, level shift 10 -> 5 at block 50, warm-up removal on, paired\n\n"
      "| confidence | pairs | resolved (false) | gate |\n|---|---|---|---|\n");
  for (const double alpha : {0.05, 0.10}) {
    constexpr int shift_reps = 2000;
    const int r = shift_resolved(alpha, shift_reps, 1920);
    const double share = static_cast<double>(r) / shift_reps;
    const double gate = alpha + 4 * std::sqrt(alpha * (1 - alpha) / shift_reps);
    std::printf("| %.0f%% | %d | %.2f%% | %.2f%% |\n", 100 * (1 - alpha), shift_reps, 100 * share,
                100 * gate);
    if (share > gate) {
      std::printf("FAIL: identical commands under a level shift resolved %.2f%% > %.2f%%\n",
                  100 * share, 100 * gate);
      ++failures;
    }
  }
  std::printf("\n%s\n", failures ? "FAILED" : "all checks passed");
  return failures ? 1 : 0;
}
