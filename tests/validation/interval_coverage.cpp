// Coverage of the correlation-adjusted interval against Pilot's, side by side (docs/validation.md,
// "The correlation-adjusted interval"):
//   A. fixed n: analyze() on AR(1) series, rho 0 (the price on independent readings) and
//      0.5 / 0.8 / 0.9 / 0.95, n = 10^3, 10^4, 10^5, under
//      quick, normal and strict, without warm-up removal (the series start in the stationary
//      distribution, so there is none to remove);
//   B. sequential: run_session on the M/M/1 example (stream style: warm-up removal, 4 streams,
//      pooled batch means) at rho 0.5 / 0.8 / 0.9, +-5% of the mean wait, normal and strict.
// Each interval claims 95%. The goal is at least 93% for the adjusted interval in every
// cell with n >= 10^4 and in every M/M/1 case; the program exits 1 when a gated cell misses it.
// With 1,000 series a coverage of 95% reads below 93% with probability 0.002 (1 -
// pnorm(0.02 / 0.0069) = 0.002), and so with 1,000 seeds. The issue asked for 200 seeds, whose
// standard error of 1.5% lets a true 95% read below 93% with probability 0.078, and a true 94%
// 0.22 (exact binomial): a gate on 200 seeds fails by chance too often to say anything, so
// part B runs 1,000 by default (`validate_interval_coverage 0 200 B` gives the 200).
// At rho = 0.9 the adjusted interval covers about 93.8% (docs/validation.md, 3000 seeds), so close
// to the gate that 1,000 seeds read below 93% with probability about 0.13: there its cases run
// three blocks of seeds (first_seed .. first_seed + 3 seeds - 1), print each block's count, and
// are gated on all of them (a true 93.8% then reads below 93% with probability about 0.03).
//
//   validate_interval_coverage [series] [seeds] [parts] [first_seed] [methods] [rho]
//                              [sessions.csv] [lag1_limit]
//     defaults 1000, 1000, "AB", 1, "both"; methods: both | adjusted | pilot. Part B runs seeds
//     first_seed .. first_seed + seeds - 1, so that a long study can be split across runs; a
//     sixth argument other than 0 runs one rho of part B only. Each case of part B also prints
//     its coverage by quarter of the readings the sessions took, and the correlation of those
//     readings with the session's mean (where a stop selects its sessions). A seventh argument
//     other than "-" writes every session of part B to that CSV file; an eighth replaces the
//     presets' lag-1 limit (a study of the batch size, docs/validation.md).
#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "../../examples/mm1_queue/mm1_model.hpp"
#include "../support/ar1_study.hpp"
#include "mcpilot/session.hpp"
#include "mcpilot/stats/analysis.hpp"

namespace {

using namespace mcpilot;

bool all_ok = true;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Clopper-Pearson interval for k successes in n trials.
std::pair<double, double> exact_interval(int k, int n) {
  const double lo = k == 0 ? 0.0 : boost::math::ibeta_inv(k, n - k + 1, 0.025);
  const double hi = k == n ? 1.0 : boost::math::ibeta_inv(k + 1, n - k, 0.975);
  return {lo, hi};
}

struct tally {
  int with_interval = 0, covered = 0;
  double q = 0, half_rel = 0, required = 0, inflation = 0;
  void add(const analysis& a, double truth) {
    if (!a.ci_low || !a.ci_high) return;
    ++with_interval;
    covered += *a.ci_low <= truth && truth <= *a.ci_high;
    q += static_cast<double>(*a.subsession_size);
    half_rel += (*a.ci_high - *a.ci_low) / 2 / std::abs(truth);
    if (a.required_samples) required += static_cast<double>(*a.required_samples);
    inflation += a.variance_inflation;
  }
  double rate() const { return with_interval ? static_cast<double>(covered) / with_interval : 0; }
  double per(double v) const { return with_interval ? v / with_interval : 0; }
};

void fixed_n(int series) {
  std::printf(
      "\nA. AR(1) around 10, unit variance, analyze() without warm-up removal, %d series per "
      "row\n   coverage of the nominal 95%% interval; 'needed' is the mean required_samples "
      "(readings for +-1%% of the mean)\n",
      series);
  std::printf("%5s %7s %7s | %8s %7s %9s | %8s %7s %6s %9s | %6s\n", "rho", "n", "preset", "pilot",
              "q", "needed", "adjusted", "A", "±%", "needed", "check");
  const char* presets[] = {"quick", "normal", "strict"};
  for (double rho : {0.0, 0.5, 0.8, 0.9, 0.95}) {
    for (std::size_t n : {1000, 10000, 100000}) {
      const auto t0 = std::chrono::steady_clock::now();
      std::mt19937_64 gen(16000 + static_cast<std::uint64_t>(rho * 100) * 1000 + n);
      tally pilot[3], adjusted[3];
      std::vector<double> x(n);
      for (int s = 0; s < series; ++s) {
        test::fill_ar1(x, rho, 10, gen);
        for (int p = 0; p < 3; ++p) {
          analysis_options o;
          o.requirements = *preset(presets[p]);
          // A whole width of 2% of the mean, so that 'needed' shows what each interval's
          // variance asks for rather than the presets' minimum of subsessions.
          o.requirements.ci_perc = 0.02;
          o.remove_warmup = false;
          o.requirements.interval = interval_method::pilot;
          pilot[p].add(analyze(x, o), 10);
          o.requirements.interval = interval_method::adjusted;
          adjusted[p].add(analyze(x, o), 10);
        }
      }
      for (int p = 0; p < 3; ++p) {
        const bool gated = n >= 10000;
        const bool ok = !gated || adjusted[p].rate() >= 0.93;
        all_ok = all_ok && ok;
        std::printf("%5.2f %7zu %7s | %8.3f %7.1f %9.0f | %8.3f %7.2f %5.2f%% %9.0f | %6s\n", rho,
                    n, presets[p], pilot[p].rate(), pilot[p].per(pilot[p].q),
                    pilot[p].per(pilot[p].required), adjusted[p].rate(),
                    adjusted[p].per(adjusted[p].inflation),
                    100 * adjusted[p].per(adjusted[p].half_rel),
                    adjusted[p].per(adjusted[p].required), gated ? (ok ? "ok" : "FAIL") : "-");
      }
      std::printf("      (%.1f s)\n", seconds_since(t0));
      std::fflush(stdout);
    }
  }
}

// One session of part B, for the breakdown by readings and the per-session file.
struct session_row {
  double readings = 0, mean = 0;
  bool hit = false, low = false;
};

// Coverage by quarter of the readings the sessions took, and corr(readings, mean): a stop that
// favours calm stretches shows as low coverage, with misses below, in the first quarter.
void print_by_readings(std::vector<session_row> rows) {
  if (rows.size() < 4) return;
  std::sort(rows.begin(), rows.end(),
            [](const session_row& a, const session_row& b) { return a.readings < b.readings; });
  std::printf("      by quarter of readings at the stop (covered, misses low/high):");
  for (std::size_t k = 0; k < 4; ++k) {
    const std::size_t b = k * rows.size() / 4, e = (k + 1) * rows.size() / 4;
    int covered = 0, low = 0;
    for (std::size_t i = b; i < e; ++i) covered += rows[i].hit, low += !rows[i].hit && rows[i].low;
    const int n = static_cast<int>(e - b);
    std::printf(" %s%.1f%% (%d/%d, up to %.0f)", k ? "| " : "", 100.0 * covered / n, low,
                n - covered - low, rows[e - 1].readings);
  }
  const double n = static_cast<double>(rows.size());
  double mr = 0, mm = 0;
  for (const auto& r : rows) mr += r.readings / n, mm += r.mean / n;
  double srr = 0, smm = 0, srm = 0;
  for (const auto& r : rows) {
    srr += (r.readings - mr) * (r.readings - mr);
    smm += (r.mean - mm) * (r.mean - mm);
    srm += (r.readings - mr) * (r.mean - mm);
  }
  std::printf("; corr(readings, mean) %+.2f\n", srm / std::sqrt(srr * smm));
}

void sequential_mm1(int seeds, int first_seed, const std::string& methods, double only_rho,
                    const std::string& sessions_csv, double lag1_limit) {
  std::ofstream csv;
  if (sessions_csv != "-") {
    csv.open(sessions_csv);
    if (!csv) {
      std::fprintf(stderr, "cannot write %s\n", sessions_csv.c_str());
      std::exit(2);
    }
    csv << "rho,preset,interval,seed,readings,used,q,h,lag1,inflation,skewness,mean,ci_low,"
           "ci_high,covered\n";
    csv.precision(10);
  }
  std::printf(
      "\nB. M/M/1 mean wait, run_session (4 streams, warm-up removal), +-5%%, seeds %d..%d "
      "(%d..%d for the adjusted interval at rho 0.9)\n",
      first_seed, first_seed + seeds - 1, first_seed, first_seed + 3 * seeds - 1);
  std::printf("%5s %7s %9s | %8s %15s %10s | %8s %15s %10s %7s | %6s %7s\n", "rho", "preset",
              "interval", "covered", "95% CI", "readings", "", "", "", "", "", "seconds");
  for (double rho : {0.5, 0.8, 0.9}) {
    if (only_rho > 0 && rho != only_rho) continue;
    auto m = std::make_unique<examples::mm1_model>();
    parameters par;
    par.set("arrival_rate", rho);
    par.set("service_rate", 1.0);
    m->configure(par);
    model_spec spec;
    m->declare(spec);
    const double truth = m->expected_wait();
    for (const char* pre : {"normal", "strict"}) {
      for (interval_method method : {interval_method::adjusted, interval_method::pilot}) {
        if (methods != "both" && methods != to_string(method)) continue;
        const auto t0 = std::chrono::steady_clock::now();
        const bool gated = method == interval_method::adjusted;
        const int blocks = gated && rho == 0.9 ? 3 : 1;
        const int cases = blocks * seeds;
        int covered = 0, converged = 0, low = 0, cut_end = 0, cut_end_missed = 0;
        std::vector<int> covered_in_block(static_cast<std::size_t>(blocks), 0);
        double readings = 0, q = 0;
        std::vector<session_row> rows;
        for (int seed = first_seed; seed < first_seed + cases; ++seed) {
          session_settings s;
          s.seed = static_cast<std::uint64_t>(seed);
          s.threads = 0;
          s.engine.session_precision = *preset(pre);
          s.engine.session_precision.ci_perc = 0.10;
          s.engine.session_precision.interval = method;
          if (lag1_limit > 0) s.engine.session_precision.autocorrelation_limit = lag1_limit;
          s.engine.streams = 4;
          const session_result r = run_session(*m, spec, s);
          const analysis& a = r.quantities.at(0).stats;
          converged += r.stopped_because == stop_reason::converged;
          const bool hit = a.ci_low && a.ci_high && *a.ci_low <= truth && truth <= *a.ci_high;
          covered += hit;
          covered_in_block[static_cast<std::size_t>((seed - first_seed) / seeds)] += hit;
          // Why the misses miss: the side, and whether a change-point cut readings at the end
          // of a stream (a stream has no cool-down, so such a cut is a false alarm that drops
          // readings chosen by looking at them).
          low += !hit && a.ci_high && *a.ci_high < truth;
          cut_end += a.warmup.removed_end > 0;
          cut_end_missed += !hit && a.warmup.removed_end > 0;
          readings += static_cast<double>(r.replications);
          if (a.subsession_size) q += static_cast<double>(*a.subsession_size);
          rows.push_back({static_cast<double>(r.replications), a.mean.value_or(0), hit,
                          !hit && a.ci_high && *a.ci_high < truth});
          if (csv.is_open())
            csv << rho << ',' << pre << ',' << to_string(method) << ',' << seed << ','
                << r.replications << ',' << a.n_used << ',' << a.subsession_size.value_or(0) << ','
                << a.subsession_count.value_or(0) << ',' << a.subsession_autocorrelation.value_or(0)
                << ',' << a.variance_inflation << ',' << a.subsession_skewness.value_or(0) << ','
                << a.mean.value_or(0) << ',' << a.ci_low.value_or(0) << ',' << a.ci_high.value_or(0)
                << ',' << hit << '\n';
        }
        const auto [lo, hi] = exact_interval(covered, cases);
        const bool ok = !gated || (covered >= 0.93 * cases && converged == cases);
        all_ok = all_ok && ok;
        std::printf(
            "%5.1f %7s %9s | %4d/%-3d %6.1f%%-%5.1f%% %10.0f | mean q %7.1f converged %d | "
            "misses low %d high %d | end cut %d (missed %d) | %6s %7.1f\n",
            rho, pre, std::string(to_string(method)).c_str(), covered, cases, 100 * lo, 100 * hi,
            readings / cases, q / cases, converged, low, cases - covered - low, cut_end,
            cut_end_missed, gated ? (ok ? "ok" : "FAIL") : "-", seconds_since(t0));
        if (blocks > 1) {
          std::printf("      covered by block of %d seeds:", seeds);
          for (int b = 0; b < blocks; ++b)
            std::printf(" %d (seeds %d-%d)", covered_in_block[static_cast<std::size_t>(b)],
                        first_seed + b * seeds, first_seed + (b + 1) * seeds - 1);
          std::printf("\n");
        }
        print_by_readings(rows);
        std::fflush(stdout);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int series = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int seeds = argc > 2 ? std::atoi(argv[2]) : 1000;
  const std::string parts = argc > 3 ? argv[3] : "AB";
  if (parts.find('A') != std::string::npos) fixed_n(series);
  const int first_seed = argc > 4 ? std::atoi(argv[4]) : 1;
  const std::string methods = argc > 5 ? argv[5] : "both";
  const double only_rho = argc > 6 ? std::atof(argv[6]) : 0;
  const std::string sessions_csv = argc > 7 ? argv[7] : "-";
  const double lag1_limit = argc > 8 ? std::atof(argv[8]) : 0;
  if (parts.find('B') != std::string::npos)
    sequential_mm1(seeds, first_seed, methods, only_rho, sessions_csv, lag1_limit);
  std::printf("\n%s\n", all_ok ? "PASS" : "FAIL: a gated cell is below 93%");
  return all_ok ? 0 : 1;
}
