#include "mcpilot/stats/paired_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "mcpilot/stats/distributions.hpp"
#include "mcpilot/stats/stable_moments.hpp"

namespace mcpilot {

namespace {

// mean +- t*(h - 1) sqrt(v / h) on the moments behind `a`; nothing without two subsessions.
void symmetric(std::span<const double> x, const analysis& a, std::optional<double>& low,
               std::optional<double>& high) {
  const auto m = a.subsession_size ? stable_moments(x, a) : std::nullopt;
  if (!m || m->count < 2) return;
  const double half = t_critical(m->count - 1, a.confidence) * std::sqrt(m->variance / m->count);
  low = m->mean - half;
  high = m->mean + half;
}

}  // namespace

paired_comparison compare_paired(std::span<const double> a, std::span<const double> b,
                                 const analysis_options& options) {
  paired_comparison c;
  c.blocks = std::min(a.size(), b.size());
  std::vector<double> d(c.blocks);
  for (std::size_t k = 0; k < c.blocks; ++k) d[k] = b[k] - a[k];
  analysis_options od = options;
  od.kind = quantity_kind::ordinary;
  c.difference = analyze(d, od);
  c.kept_begin = c.difference.warmup.removed_begin;
  c.kept_end = c.blocks - c.difference.warmup.removed_end;
  if (c.kept_end <= c.kept_begin) return c;
  const std::size_t n = c.kept_end - c.kept_begin;
  double sa = 0, sb = 0;
  for (std::size_t k = c.kept_begin; k < c.kept_end; ++k) sa += a[k], sb += b[k];
  c.mean_a = sa / static_cast<double>(n);
  c.mean_b = sb / static_cast<double>(n);
  if (c.mean_a != 0) {
    // The ratio over the same window; its change-points were searched on the differences.
    const double r = c.mean_b / c.mean_a;
    std::vector<double> z(n);
    for (std::size_t k = 0; k < n; ++k)
      z[k] = r + (b[c.kept_begin + k] - r * a[c.kept_begin + k]) / c.mean_a;
    analysis_options oz = od;
    oz.remove_warmup = false;
    c.ratio = analyze(z, oz);
    symmetric(z, c.ratio, c.ratio_low, c.ratio_high);
  }
  symmetric(d, c.difference, c.difference_low, c.difference_high);
  if (auto m = stable_moments(d, c.difference)) {
    if (m->variance > 0) {
      c.df = m->count - 1;
      c.t = m->mean / std::sqrt(m->variance / m->count);
      c.p = 2 * t_cdf(c.df, -std::fabs(c.t));
    } else if (m->mean != 0) {
      c.t = m->mean > 0 ? INFINITY : -INFINITY;
      c.df = m->count - 1;
      c.p = 0;
    }
  }
  const bool diff_apart =
      c.difference_low && c.difference_high && (*c.difference_low > 0 || *c.difference_high < 0);
  const bool ratio_apart = c.ratio_low && c.ratio_high && (*c.ratio_low > 1 || *c.ratio_high < 1);
  c.separated = diff_apart && ratio_apart;
  return c;
}

std::optional<std::uint64_t> paired_blocks_needed(const paired_comparison& c, double confidence) {
  const analysis& d = c.difference;
  if (!d.mean || !c.difference_low || !c.difference_high || *d.mean == 0 || !d.subsession_count ||
      *d.subsession_count < 2)
    return std::nullopt;
  // The half-width at `confidence` from the one at the analysis' confidence, same df.
  const double df = static_cast<double>(*d.subsession_count - 1);
  const double half = (*c.difference_high - *c.difference_low) / 2 * t_critical(df, confidence) /
                      t_critical(df, d.confidence);
  const double used = static_cast<double>(d.n_used);
  const double need = used * std::pow(half / std::fabs(*d.mean), 2);
  return static_cast<std::uint64_t>(std::max(0.0, std::ceil(need - used)));
}

}  // namespace mcpilot
