// storage.group throughput: replications per second for a RAID-6 group (10 disks, tolerance 2,
// MTTF 1e6 h, MTTR 24 h) by the naive and the importance method, and the wall time of a whole
// session to +-10% on the rare-event target. Then the same for importance sampling beyond Markov
// (failure_biasing.hpp) on the general target: Weibull lifetimes, lognormal rebuilds, latent
// errors with 2-week scrubs, against naive simulation of the same configuration, and the cost of
// Weibull over exponential lifetimes in the same estimator. Results in docs/performance.md.
//
//   build/tests/perf_storage_throughput --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <limits>
#include <memory>
#include <vector>

#include "mcpilot/session.hpp"
#include "replication_rate.hpp"
#include "storage/group_simulation.hpp"
#include "storage/importance.hpp"
#include "storage/storage_model.hpp"

namespace {

using namespace mcpilot;

using configured = test::configured<storage::storage_model>;

std::unique_ptr<configured> raid6(const std::string& method, double mttf = 1e6,
                                  bool mission = true) {
  std::vector<test::named_value> values = {{"method", method}, {"lifetime.mean_hours", mttf}};
  if (mission) values.emplace_back("mission_hours", 87600.0);
  return test::make_configured<storage::storage_model>(values);
}

void replicate(benchmark::State& state, const configured& c) {
  test::replication_rate(state, c.model, c.spec);
}

// The group simulated over the 10-year mission alone, as a mission-only naive estimate would.
void mission_only(benchmark::State& state, const configured& c) {
  std::uint64_t i = 0;
  for (auto _ : state) {
    philox_stream rng(1, i++);
    benchmark::DoNotOptimize(storage::simulate_group(c.model.group(), rng, 87600.0));
  }
  state.counters["replications/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// Naive at the target: each replication simulates the group to its data loss, ~2.4e12 h and
// ~2.4e7 failures later. A few iterations only.
void BM_NaiveRaid6Target(benchmark::State& state) {
  replicate(state, *raid6("naive"));
}
BENCHMARK(BM_NaiveRaid6Target)->Iterations(4)->Unit(benchmark::kSecond);

// Naive, the 10-year mission alone (what a mission-only naive estimate would cost per reading).
void BM_NaiveRaid6MissionOnly(benchmark::State& state) {
  mission_only(state, *raid6("naive"));
}
BENCHMARK(BM_NaiveRaid6MissionOnly);

// Naive on a RAID-6 where loss is not rare (MTTF 1e4 h): about 50 failures per replication.
void BM_NaiveRaid6Mttf1e4(benchmark::State& state) {
  replicate(state, *raid6("naive", 1e4, false));
}
BENCHMARK(BM_NaiveRaid6Mttf1e4);

// Importance: an ordinary cycle, a biased cycle and a biased 10-year mission per replication.
void BM_ImportanceRaid6Target(benchmark::State& state) {
  replicate(state, *raid6("importance"));
}
BENCHMARK(BM_ImportanceRaid6Target);

// A whole session on the target, +-10% (whole width 20%) at 95% for both quantities, 2 threads.
void BM_SessionTargetTenPercent(benchmark::State& state) {
  const auto c = raid6("importance");
  std::uint64_t seed = 1, replications = 0;
  for (auto _ : state) {
    session_settings s;
    s.seed = seed++;
    s.threads = 2;
    s.engine.session_precision = *preset("normal");
    s.engine.session_precision.ci_perc = 0.2;
    const auto r = run_session(c->model, c->spec, s);
    replications += r.replications;
    if (r.stopped_because != stop_reason::converged) state.SkipWithError("did not converge");
  }
  state.counters["replications"] =
      static_cast<double>(replications) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_SessionTargetTenPercent)->Iterations(20)->Unit(benchmark::kMillisecond);

// The general target (configs/storage/raid6-weibull-latent.toml): RAID-6 of 10 disks,
// Weibull(1.12, 461,386 h), lognormal rebuilds (mean 24 h, sigma 0.5), latent defects 1 per
// 9,259 h per disk, scrubs every 336 h, 10-year mission. Exponential lifetimes of the
// same scale instead (`weibull` false: the estimator's cost without Weibull hazards).
std::unique_ptr<configured> general(const std::string& method, bool weibull = true) {
  // Whole lists rather than emplace_back one by one: GCC 12 warns falsely (-Wstringop-overflow)
  // on a variant constructed into a vector that may have just grown.
  std::vector<test::named_value> values =
      weibull
          ? std::vector<test::named_value>{{"method", method},
                                           {"lifetime.distribution", std::string("weibull")},
                                           {"lifetime.shape", 1.12},
                                           {"lifetime.scale_hours", 461386.0}}
          : std::vector<test::named_value>{{"method", method}, {"lifetime.mean_hours", 461386.0}};
  values.insert(values.end(), {{"repair.distribution", std::string("lognormal")},
                               {"repair.shape", 0.5},
                               {"latent.rate_per_hour", 1.0 / 9259},
                               {"scrub.interval_hours", 336.0},
                               {"mission_hours", 87600.0}});
  return test::make_configured<storage::storage_model>(values);
}

// Failure biasing: one main 10-year path and a biased copy per excursion.
void BM_FailureBiasingGeneralTarget(benchmark::State& state) {
  replicate(state, *general("importance"));
}
BENCHMARK(BM_FailureBiasingGeneralTarget);

// The same with exponential lifetimes: the Weibull hazards' share of the cost.
void BM_FailureBiasingExponentialLifetimes(benchmark::State& state) {
  replicate(state, *general("importance", false));
}
BENCHMARK(BM_FailureBiasingExponentialLifetimes);

// Naive on the general target, as the model runs it: each replication to data loss (for
// mttdl_hours), scrubs and latent errors as events all the way.
void BM_NaiveGeneralTarget(benchmark::State& state) {
  replicate(state, *general("naive"));
}
BENCHMARK(BM_NaiveGeneralTarget)->Unit(benchmark::kMillisecond);

// Naive on the general target, the 10-year mission alone.
void BM_NaiveGeneralMissionOnly(benchmark::State& state) {
  mission_only(state, *general("naive"));
}
BENCHMARK(BM_NaiveGeneralMissionOnly);

// A whole session on the general target to +-10% at 95%, 2 threads.
void BM_SessionGeneralTargetTenPercent(benchmark::State& state) {
  const auto c = general("importance");
  std::uint64_t seed = 1, replications = 0;
  double estimate = 0;
  for (auto _ : state) {
    session_settings s;
    s.seed = seed++;
    s.threads = 2;
    s.engine.session_precision = *preset("normal");
    s.engine.session_precision.ci_perc = 0.2;
    const auto r = run_session(c->model, c->spec, s);
    replications += r.replications;
    estimate += *r.quantities[0].stats.mean;
    if (r.stopped_because != stop_reason::converged) state.SkipWithError("did not converge");
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["replications"] = static_cast<double>(replications) / n;
  state.counters["estimate"] = estimate / n;
}
BENCHMARK(BM_SessionGeneralTargetTenPercent)->Iterations(5)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
