// What a bench session decides between rounds: the pairs' comparisons and verdicts, whether the
// goal is met, and how many blocks the next round runs.
#include <algorithm>
#include <cmath>

#include "mcpilot/programs/bench_session.hpp"
#include "mcpilot/stats/wps.hpp"

namespace mcpilot::programs {

// --until precise judges each pair once, at the end, at 1 - confidence: the runs were chosen by
// each command's own precision, not by the difference. --until separated looks at a pair after
// every round that at least doubled its blocks (the rounds are sized so that each one does), and
// a look that resolves it settles it.
void bench_session::compare_pairs(look_at when) {
  pairs_.clear();
  const double alpha = pair_alpha();
  analysis_options o;
  o.requirements = s_.requirements;
  o.remove_warmup = s_.remove_warmup;
  o.keep_excursions = s_.keep_excursions;
  const std::size_t nc = commands_.size();
  for (std::size_t a = 0; a < nc; ++a)
    for (std::size_t b = a + 1; b < nc; ++b) {
      const auto& xa = commands_[a].per_run;
      const auto& xb = commands_[b].per_run;
      if (std::min(xa.size(), xb.size()) < 2) continue;
      pair_result p;
      p.a = a;
      p.b = b;
      p.cmp = compare_paired(xa, xb, o);
      p.next_level = alpha;
      if (s_.until_separated) {
        pair_verdict& v = verdicts_[pair_index(a, b)];
        const std::uint64_t n = p.cmp.blocks;
        const bool look = !v.resolved && (when == look_at::due       ? v.schedule.due(n)
                                          : when == look_at::closing ? n > v.schedule.last_n()
                                                                     : false);
        if (look) {
          v.level = v.schedule.take(n, alpha);
          analysis_options at = o;
          at.requirements.confidence = 1 - v.level;
          const paired_comparison c = compare_paired(xa, xb, at);
          v.look_p = c.p;
          v.resolved = c.separated;
        }
        p.resolved = v.resolved;
        p.looks = v.schedule.looks();
        p.level = v.level;
        p.look_p = v.look_p;
        p.next_level = v.schedule.next_level(alpha);
      } else {
        p.resolved = p.cmp.separated;
        p.looks = 1;
        p.level = alpha;
        p.look_p = p.cmp.p;
      }
      p.runs_needed = paired_blocks_needed(p.cmp, 1 - p.next_level);
      pairs_.push_back(std::move(p));
    }
}

std::optional<wps_fit> bench_session::wps(const bench_command& c) const {
  return fit_wps_stable(c.work, c.durations, s_.requirements.confidence,
                        s_.requirements.autocorrelation_limit);
}

// The goal: in work mode the regression's rate within the precision (the ramp and two ladders
// run at least: every amount of the first ladder twice); with --until separated every pair of
// commands resolved; otherwise every command's intervals within the precision. In each case
// not before --min-seconds of every command's runs. Reads each command's last evaluation.
bool bench_session::goal_met() const {
  if (!floor_met()) return false;
  if (work_mode_) {
    // The same minimum as any interval: min_samples points in the fit (subsessions of runs).
    const auto& c = commands_[0];
    const auto fit = wps(c);
    return fit && fit->rate_low && fit->rate_high && schedule_->ladders_done() >= 2 &&
           fit->subsessions >= s_.requirements.min_samples &&
           (*fit->rate_high - *fit->rate_low) / fit->rate <= s_.requirements.ci_perc;
  }
  const std::size_t nc = commands_.size();
  if (s_.until_separated && nc > 1)
    return pairs_.size() == nc * (nc - 1) / 2 &&
           std::all_of(pairs_.begin(), pairs_.end(),
                       [](const pair_result& p) { return p.resolved; });
  return std::all_of(commands_.begin(), commands_.end(), [](const bench_command& c) {
    return c.last.stop && c.last.reason == stop_reason::converged;
  });
}

bool bench_session::floor_met() const {
  return std::all_of(commands_.begin(), commands_.end(),
                     [&](const bench_command& c) { return c.measured_seconds >= s_.min_seconds; });
}

// Blocks in the next round, each one run of every command: as many as the command that needs
// the most asks for (its engine's readings turned into runs), so that every command has the same
// number of runs and each pair as many blocks; whole ladders in work mode; and under --until
// separated what an unresolved pair's next look seems to need.
std::uint64_t bench_session::round_blocks() const {
  std::uint64_t n = 0;
  for (const auto& c : commands_) {
    std::uint64_t m = c.last.stop ? 0 : c.last.count;
    if (!s_.columns.empty()) m = c.runs_for_lines(m);
    n = std::max(n, m);
  }
  const std::uint64_t runs = commands_[0].runs;  // each command's, whole blocks
  if (work_mode_) {
    // The regression decides, not the engine: the ramp and two ladders first, then rounds that
    // grow by about a tenth.
    const std::uint64_t levels = s_.work_levels;
    n = runs == 0 ? schedule_->ramp_runs() + 3 * levels
                  : std::max<std::uint64_t>(levels, runs / 10);
  }
  if (s_.until_separated && commands_.size() > 1) {
    // An unresolved pair gets what the next look's level seems to need, up to 4 times its
    // blocks so far, and at least what makes that look due (its blocks doubled since the last
    // one): rounds that fell short of it would run without being judged.
    std::uint64_t extra = std::max<std::uint64_t>(runs / 10, 1);
    for (const auto& p : pairs_)
      if (!p.resolved) {
        const std::uint64_t last = verdicts_[pair_index(p.a, p.b)].schedule.last_n();
        const std::uint64_t due = 2 * last > runs ? 2 * last - runs : 0;
        extra = std::max({extra, due, std::min(p.runs_needed.value_or(runs), 4 * runs)});
      }
    if (runs == 0)
      for (const auto& c : commands_) extra = std::max(extra, c.last.count);
    n = std::max(n, extra);
  }
  // A verdict waits for --min-seconds of each command's runs: the round runs what is left of it
  // at the command's pace so far, so that the floor costs one round, not a doubling more.
  for (const auto& c : commands_) {
    const double left = s_.min_seconds - c.measured_seconds;
    if (left > 0 && c.runs > 0 && c.measured_seconds > 0)
      n = std::max<std::uint64_t>(
          n, static_cast<std::uint64_t>(
                 std::ceil(left / (c.measured_seconds / static_cast<double>(c.runs)))));
  }
  // Capped by the time left at the pace so far (a block's mean time), so that the last round is
  // the one the limit leaves room for rather than one the deadline cuts at an arbitrary place.
  if (runs > 0) {
    const double elapsed = elapsed_seconds();
    const double per_block = elapsed / static_cast<double>(runs);
    const double left = s_.max_seconds - elapsed;
    if (per_block > 0 && left > 0)
      n = std::min<std::uint64_t>(n, static_cast<std::uint64_t>(std::ceil(left / per_block)));
  }
  return std::max<std::uint64_t>(n, 1);
}

}  // namespace mcpilot::programs
