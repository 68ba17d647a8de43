// Importance sampling beyond Markov (models/storage/failure_biasing.hpp), full size. Label
// `validation`; several minutes on 2 cores. Four parts, each printed as a table for
// docs/models/storage.md and docs/validation.md:
// 1. The exact cases to +-10% at 95% (one seed each, 2 threads): estimate, interval, covered,
//    replications, seconds (the target is < 60 s each).
// 2. Coverage of the 95% interval over seeds 1..200 on the exact cases. A correct interval covers
//    with probability 0.95; with 200 sessions the count's standard deviation is
//    sqrt(0.95 x 0.05 / 200) = 0.0154, so a case fails below 0.95 - 3 sd = 0.904; the issue's
//    target of 0.93 is printed beside it. The mean estimate must lie within 3 standard errors of
//    the exact value (no bias).
// 3. No closed form with repairs: at moderately rare cases (P ~ 1e-4 .. 1e-3), over 20 seeds,
//    the importance interval (+-10% at 95%) and a naive one (missions to the mission end, as many
//    as +-10% needs, Wilson interval at 95%) overlap. Two independent 95% intervals of similar
//    width miss each other with probability ~0.6%, so at most one miss in 20 passes (a second
//    one has probability ~0.6%); the pooled means must agree within 3 standard errors.
// 4. The target (RAID-6, Weibull lifetimes, lognormal rebuilds, latent errors, 2-week scrubs)
//    to +-10%, with the naive method's projected time beside it.
// Exit 1 if any check fails. Optional argument: sessions for part 2 (200).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../support/weibull_binomial_tail.hpp"
#include "mcpilot/session.hpp"
#include "storage/group_simulation.hpp"
#include "storage/storage_model.hpp"

namespace {

using namespace mcpilot;
using I = std::int64_t;

struct setting {
  const char* name;
  param_value value;
};

struct configured {
  storage::storage_model model;
  model_spec spec;
};

std::unique_ptr<configured> make(const std::vector<setting>& values) {
  auto c = std::make_unique<configured>();
  model_spec base;
  c->model.declare(base);
  parameters p;
  for (const auto& ps : base.parameter_specs())
    if (ps.default_value) p.set(ps.name, *ps.default_value);
  for (const auto& v : values) p.set(v.name, base.find_parameter(v.name)->check(v.value));
  c->model.configure(p);
  c->model.declare(c->spec);
  return c;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct estimate {
  double mean, low, high, seconds;
  std::uint64_t replications;
  stop_reason stopped;
};

estimate run(const configured& c, std::uint64_t seed, double half_width) {
  session_settings st;
  st.seed = seed;
  st.threads = 2;
  st.engine.session_precision = *preset("normal");
  st.engine.session_precision.ci_perc = 2 * half_width;
  st.max_replications = 50'000'000;
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = run_session(c.model, c.spec, st);
  const double s = seconds_since(t0);
  for (const auto& q : r.quantities)
    if (q.name == "loss_in_mission") {
      const auto& a = q.stats;
      return {*a.mean, a.ci_low.value_or(NAN), a.ci_high.value_or(NAN),
              s,       r.replications,         r.stopped_because};
    }
  return {NAN, NAN, NAN, s, r.replications, r.stopped_because};
}

struct exact_case {
  std::string label;
  std::vector<setting> values;
  double exact;
};

std::vector<exact_case> exact_cases() {
  const auto weibull_no_repair = [](int n, int m) {
    return std::vector<setting>{{"disks", I{n}},
                                {"tolerance", I{m}},
                                {"lifetime.distribution", std::string("weibull")},
                                {"lifetime.shape", 1.12},
                                {"lifetime.scale_hours", 461386.0},
                                {"repair.distribution", std::string("none")},
                                {"mission_hours", 8760.0},
                                {"method", std::string("importance")}};
  };
  return {
      {"10 disks tol 2, Weibull, no repair, 1 y", weibull_no_repair(10, 2),
       test::weibull_binomial_tail(10, 2, 8760, 1.12, 461386)},
      {"14 disks tol 4, Weibull, no repair, 1 y", weibull_no_repair(14, 4),
       test::weibull_binomial_tail(14, 4, 8760, 1.12, 461386)},
      {"6 disks tol 2, Weibull, no repair, 1 y", weibull_no_repair(6, 2),
       test::weibull_binomial_tail(6, 2, 8760, 1.12, 461386)},
      // The Markov chain's value (models/storage/group_chain.hpp, storage_ctmc_test.cpp).
      {"RAID-6 10, Weibull shape 1 = exp, MTTR 24 h, 10 y",
       {{"lifetime.distribution", std::string("weibull")},
        {"lifetime.shape", 1.0},
        {"lifetime.scale_hours", 1e6},
        {"mission_hours", 87600.0},
        {"method", std::string("importance")}},
       3.629388e-8},
  };
}

bool part_known_answers() {
  std::printf("\n1. Exact cases to +-10%% at 95%% (seed 20261130, 2 threads)\n");
  std::printf("%-50s %-12s %-12s %-26s %-7s %9s %8s\n", "case", "exact", "estimate", "interval",
              "covers", "reps", "seconds");
  bool ok = true;
  for (const auto& k : exact_cases()) {
    const auto c = make(k.values);
    const auto e = run(*c, 20261130, 0.1);
    const bool covers = e.low <= k.exact && k.exact <= e.high;
    std::printf("%-50s %-12.6g %-12.6g [%.5g, %.5g] %-7s %9llu %8.2f %s\n", k.label.c_str(),
                k.exact, e.mean, e.low, e.high, covers ? "yes" : "NO",
                static_cast<unsigned long long>(e.replications), e.seconds,
                std::string(to_string(e.stopped)).c_str());
    ok = ok && e.stopped == stop_reason::converged;
  }
  return ok;
}

bool part_coverage(int sessions) {
  std::printf("\n2. Coverage of 95%% intervals at +-10%%, seeds 1..%d\n", sessions);
  const double floor = 0.95 - 3 * std::sqrt(0.95 * 0.05 / sessions);
  bool ok = true;
  for (const auto& k : exact_cases()) {
    const auto c = make(k.values);
    int covered = 0;
    double sum = 0, sum2 = 0, reps = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int seed = 1; seed <= sessions; ++seed) {
      const auto e = run(*c, static_cast<std::uint64_t>(seed), 0.1);
      covered += e.low <= k.exact && k.exact <= e.high;
      const double ratio = e.mean / k.exact;
      sum += ratio;
      sum2 += ratio * ratio;
      reps += static_cast<double>(e.replications);
    }
    const double n = sessions, coverage = covered / n, mean = sum / n;
    const double se = std::sqrt((sum2 / n - mean * mean) / (n - 1));
    const bool pass = coverage >= floor && std::abs(mean - 1) <= 3 * se;
    std::printf(
        "%-50s coverage %5.3f (floor %.3f, target 0.93: %s)  mean/exact %.4f +- %.4f  %7.0f "
        "reps/session  %6.1f s  %s\n",
        k.label.c_str(), coverage, floor, coverage >= 0.93 ? "met" : "missed", mean, se, reps / n,
        seconds_since(t0), pass ? "ok" : "FAIL");
    ok = ok && pass;
  }
  return ok;
}

// Naive missions, each simulated to the mission's end only, for a Wilson interval at 95%.
struct naive_estimate {
  double mean, low, high, seconds;
  std::uint64_t missions;
};

naive_estimate naive(const configured& c, double mission, std::uint64_t missions,
                     std::uint64_t seed) {
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t lost = 0;
  for (std::uint64_t i = 0; i < missions; ++i) {
    philox_stream rng(seed, i);
    lost += storage::simulate_group(c.model.group(), rng, mission) <= mission;
  }
  const double n = static_cast<double>(missions), p = lost / n, z = 1.959963984540054;
  const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
  return {p, centre - half, centre + half, seconds_since(t0), missions};
}

bool part_cross_check() {
  std::printf("\n3. Importance against naive over 20 seeds (both +-10%% at 95%%)\n");
  const std::vector<std::pair<std::string, std::vector<setting>>> cases = {
      {"RAID-5 8, Weibull, lognormal 24 h, 10 y",
       {{"disks", I{8}},
        {"tolerance", I{1}},
        {"lifetime.distribution", std::string("weibull")},
        {"lifetime.shape", 1.12},
        {"lifetime.scale_hours", 461386.0},
        {"repair.distribution", std::string("lognormal")},
        {"repair.mean_hours", 24.0},
        {"repair.shape", 0.5},
        {"mission_hours", 87600.0},
        {"method", std::string("importance")}}},
      {"RAID-5 4, Weibull, lognormal, latent 3e-6/h, 2-wk scrub",
       {{"disks", I{4}},
        {"tolerance", I{1}},
        {"lifetime.distribution", std::string("weibull")},
        {"lifetime.shape", 1.12},
        {"lifetime.scale_hours", 461386.0},
        {"repair.distribution", std::string("lognormal")},
        {"repair.mean_hours", 24.0},
        {"repair.shape", 0.5},
        {"latent.rate_per_hour", 3e-6},
        {"scrub.interval_hours", 336.0},
        {"mission_hours", 87600.0},
        {"method", std::string("importance")}}},
  };
  bool ok = true;
  for (const auto& [label, values] : cases) {
    const auto c = make(values);
    int overlap = 0;
    double is_sum = 0, is_var = 0, nv_sum = 0, nv_var = 0, is_time = 0, nv_time = 0;
    std::uint64_t missions = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      const auto e = run(*c, seed, 0.1);
      if (missions == 0)  // as many missions as +-10% needs at the first estimate
        missions = static_cast<std::uint64_t>(
            std::ceil(1.959963984540054 * 1.959963984540054 / 0.01 * (1 - e.mean) / e.mean));
      const auto v = naive(*c, 87600, missions, 1000 + seed);
      overlap += e.low <= v.high && v.low <= e.high;
      const double se_is = (e.high - e.low) / (2 * 1.959963984540054);
      is_sum += e.mean;
      is_var += se_is * se_is;
      nv_sum += v.mean;
      nv_var += v.mean * (1 - v.mean) / static_cast<double>(v.missions);
      is_time += e.seconds;
      nv_time += v.seconds;
    }
    const double diff = (is_sum - nv_sum) / 20, se = std::sqrt(is_var + nv_var) / 20;
    const bool pass = overlap >= 19 && std::abs(diff) <= 3 * se;
    std::printf(
        "%-55s importance %.4g, naive %.4g (pooled, difference %.2f se)  overlap %d/20  "
        "importance %.2f s/seed, naive %.2f s/seed (%llu missions)  %s\n",
        label.c_str(), is_sum / 20, nv_sum / 20, diff / se, overlap, is_time / 20, nv_time / 20,
        static_cast<unsigned long long>(missions), pass ? "ok" : "FAIL");
    ok = ok && pass;
  }
  return ok;
}

bool part_target() {
  std::printf(
      "\n4. Target: RAID-6 10, Weibull(1.12, 461386 h), lognormal rebuilds (24 h, sigma "
      "0.5), latent 1/9259 h, scrub 336 h, 10 y\n");
  const std::vector<setting> values = {{"lifetime.distribution", std::string("weibull")},
                                       {"lifetime.shape", 1.12},
                                       {"lifetime.scale_hours", 461386.0},
                                       {"repair.distribution", std::string("lognormal")},
                                       {"repair.mean_hours", 24.0},
                                       {"repair.shape", 0.5},
                                       {"latent.rate_per_hour", 1.0 / 9259},
                                       {"scrub.interval_hours", 336.0},
                                       {"mission_hours", 87600.0},
                                       {"method", std::string("auto")}};
  const auto c = make(values);
  const auto e = run(*c, 20261130, 0.1);
  std::printf("importance: %.5g [%.5g, %.5g], %llu replications, %.2f s (%s)\n", e.mean, e.low,
              e.high, static_cast<unsigned long long>(e.replications), e.seconds,
              std::string(to_string(e.stopped)).c_str());
  // Naive: +-10% at 95% needs 1.96^2 / 0.01 x (1 - p) / p missions. Its time per replication,
  // measured here: the model's naive method (each replication runs on to data loss, for
  // mttdl_hours) and a mission-only simulation (to the mission's end).
  const double needed = 1.959963984540054 * 1.959963984540054 / 0.01 * (1 - e.mean) / e.mean;
  auto n = values;
  n.back().value = std::string("naive");
  const auto cn = make(n);
  session_settings st;
  st.seed = 1;
  st.threads = 2;
  st.engine.session_precision = *preset("normal");
  st.max_replications = 400;
  auto t0 = std::chrono::steady_clock::now();
  const auto r = run_session(cn->model, cn->spec, st);
  const double per_model = seconds_since(t0) / static_cast<double>(r.replications);
  const auto v = naive(*cn, 87600, 200'000, 1);
  const double per_mission = v.seconds / 200'000;
  std::printf(
      "naive needs %.3g missions for +-10%%: projected %.3g s with the model's naive method "
      "(%.3g s per replication, 2 threads, to data loss), %.3g s with missions simulated only to "
      "their end (%.3g s each, 1 thread)\n",
      needed, needed * per_model, per_model, needed * per_mission, per_mission);
  std::printf("speed-up of importance sampling: x%.3g (model's naive), x%.3g (mission-only)\n",
              needed * per_model / e.seconds, needed * per_mission / e.seconds);
  return e.stopped == stop_reason::converged && e.seconds < 300;
}

}  // namespace

int main(int argc, char** argv) {
  const int sessions = argc > 1 ? std::atoi(argv[1]) : 200;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // line by line: progress shows in a log file
  bool ok = part_known_answers();
  ok = part_target() && ok;
  ok = part_cross_check() && ok;
  ok = part_coverage(sessions) && ok;
  std::printf("\n%s\n", ok ? "all passed" : "FAILED");
  return ok ? 0 : 1;
}
