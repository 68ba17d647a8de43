#pragma once
// What the model benchmarks share: a model configured as a config would configure it, and one
// replication after another as the runner calls it (index by index), counted per second.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "../support/configure_model.hpp"
#include "mcpilot/model.hpp"

namespace mcpilot::test {

inline void replication_rate(benchmark::State& state, const model& m, const model_spec& spec) {
  std::vector<double> row(spec.quantities().size());
  std::uint64_t i = 0;
  for (auto _ : state) {
    replication r(spec, 1, i++, row);
    m.replicate(r);
    benchmark::DoNotOptimize(row.data());
  }
  state.counters["replications/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace mcpilot::test
