// Mojette (non-systematic, XOR over 64-bit words) against Intel ISA-L Reed-Solomon at the same
// k-of-n and block size, with a plain memcpy of the block as the memory-bandwidth ceiling.
// Figures and their reading in docs/performance.md (section "Mojette against ISA-L") and
// docs/models/mojette.md.
//
//   build/tests/perf_mojette_vs_isal --benchmark_counters_tabular=true
//
// Every throughput is block bytes per second (SetBytesProcessed), whatever the code computes:
// - encode: Mojette computes all n projections (nothing of the block is stored as it is);
//   ISA-L computes the n - k parity fragments of a systematic code (the k data fragments are
//   the block itself).
// - decode, f failures: Mojette rebuilds the whole block from k surviving projections (every read
//   decodes; which f were lost does not matter); ISA-L rebuilds the f lost data fragments (the
//   worst case for it: a lost parity fragment needs no decode for a read) from k survivors.
// - Both decoders are prepared outside the timed loop for the erasure pattern: Mojette's
//   reconstruction plan, ISA-L's inverted matrix and its multiplication tables. The *_setup
//   benchmarks time that preparation alone.
// - mojette_sys_*: systematic Mojette (the k rows stored as they are, n - k projections): its
//   encode computes the n - k projections, its decode rebuilds the f lost data rows, as ISA-L's.
#include <benchmark/benchmark.h>
#include <isa-l/erasure_code.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "mojette/encoder.hpp"
#include "mojette/inverse.hpp"
#include "mojette/layout.hpp"
#include "mojette/systematic.hpp"
#include "mojette/transform.hpp"

namespace {

using namespace mcpilot::mojette;

std::vector<std::uint64_t> random_words(std::size_t n) {
  std::mt19937_64 g(42);
  std::vector<std::uint64_t> v(n);
  for (auto& w : v) w = g();
  return v;
}

// Arguments: k (n = 3k/2, the RozoFS layouts), block bytes, failures.
std::size_t arg_k(const benchmark::State& s) {
  return static_cast<std::size_t>(s.range(0));
}
std::size_t arg_bytes(const benchmark::State& s) {
  return static_cast<std::size_t>(s.range(1));
}

void BM_memcpy(benchmark::State& state) {
  const std::size_t bytes = arg_bytes(state);
  std::vector<unsigned char> a(bytes, 1), b(bytes);
  for (auto _ : state) {
    std::memcpy(b.data(), a.data(), bytes);
    benchmark::DoNotOptimize(b.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

struct mojette_case {
  layout lay;
  grid g;
  std::vector<std::uint64_t> block;
  std::vector<std::vector<std::uint64_t>> proj;
  std::vector<std::span<std::uint64_t>> out;
  encoder enc;
  explicit mojette_case(std::size_t k, std::size_t bytes)
      : lay(rozofs_layout(k)),
        g(block_grid(bytes, k)),
        block(random_words(g.pixels())),
        enc(g, lay.dirs) {
    for (const auto& d : lay.dirs) proj.emplace_back(bin_count(g, d));
    for (auto& p : proj) out.emplace_back(p);
  }
  void encode() { enc.encode(block, out); }
};

void BM_mojette_encode(benchmark::State& state) {
  mojette_case c(arg_k(state), arg_bytes(state));
  for (auto _ : state) {
    c.encode();
    benchmark::DoNotOptimize(c.proj[0].data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * arg_bytes(state)));
}

// The survivors after losing the first f projections: the k that follow.
std::vector<std::size_t> mojette_survivors(std::size_t k, std::size_t f) {
  std::vector<std::size_t> s;
  for (std::size_t i = f; i < f + k; ++i) s.push_back(i);
  return s;
}

void BM_mojette_decode(benchmark::State& state) {
  const std::size_t k = arg_k(state), f = static_cast<std::size_t>(state.range(2));
  mojette_case c(k, arg_bytes(state));
  c.encode();
  std::vector<direction> kept;
  std::vector<std::span<const std::uint64_t>> bins;
  for (const std::size_t i : mojette_survivors(k, f)) {
    kept.push_back(c.lay.dirs[i]);
    bins.emplace_back(c.proj[i]);
  }
  const reconstruction_plan plan(c.g, kept);
  std::vector<std::uint64_t> image(c.g.pixels()), scratch(plan.scratch_words());
  for (auto _ : state) {
    plan.reconstruct(bins, image, scratch);
    benchmark::DoNotOptimize(image.data());
    benchmark::ClobberMemory();
  }
  if (image != c.block) state.SkipWithError("Mojette decode differs from the block");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * arg_bytes(state)));
}

void BM_mojette_decode_setup(benchmark::State& state) {
  const std::size_t k = arg_k(state);
  mojette_case c(k, arg_bytes(state));
  std::vector<direction> kept;
  for (const std::size_t i : mojette_survivors(k, 1)) kept.push_back(c.lay.dirs[i]);
  for (auto _ : state) {
    const reconstruction_plan plan(c.g, kept);
    benchmark::DoNotOptimize(&plan);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * arg_bytes(state)));
}

// Systematic Mojette: the k rows stored as they are, n - k projections (0, 1), (1, 1), ...
struct systematic_case {
  grid g;
  std::vector<direction> parity;
  std::vector<std::uint64_t> block;
  std::vector<std::vector<std::uint64_t>> proj;
  std::vector<std::span<std::uint64_t>> out;
  encoder enc;
  systematic_case(std::size_t k, std::size_t bytes)
      : g(block_grid(bytes, k)),
        parity(systematic_directions(3 * k / 2, k)),
        block(random_words(g.pixels())),
        enc(g, parity) {
    for (const auto& d : parity) proj.emplace_back(bin_count(g, d));
    for (auto& p : proj) out.emplace_back(p);
  }
  void encode() { enc.encode(block, out); }
};

void BM_mojette_sys_encode(benchmark::State& state) {
  systematic_case c(arg_k(state), arg_bytes(state));
  for (auto _ : state) {
    c.encode();
    benchmark::DoNotOptimize(c.proj[0].data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * arg_bytes(state)));
}

// Data rows 0 .. f-1 lost (as for ISA-L); one loss is rebuilt from the projection with the largest
// p (the least aligned shifts), two from the first two projections.
void BM_mojette_sys_decode(benchmark::State& state) {
  const std::size_t f = static_cast<std::size_t>(state.range(2));
  systematic_case c(arg_k(state), arg_bytes(state));
  c.encode();
  std::vector<std::uint64_t> image = c.block;
  const std::size_t P = c.g.P;
  if (f == 1) {
    const std::size_t j = c.parity.size() - 1;
    for (auto _ : state) {
      rebuild_row(c.g, image, 0, c.parity[j], c.proj[j]);
      benchmark::DoNotOptimize(image.data());
      benchmark::ClobberMemory();
    }
  } else {
    two_row_rebuild fix(c.g, 0, 1, c.parity[0], c.parity[1]);
    for (auto _ : state) {
      fix.rebuild(image, c.proj[0], c.proj[1]);
      benchmark::DoNotOptimize(image.data());
      benchmark::ClobberMemory();
    }
  }
  if (!std::equal(image.begin(), image.begin() + static_cast<std::ptrdiff_t>(f * P),
                  c.block.begin()))
    state.SkipWithError("systematic Mojette rebuild differs from the block");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * arg_bytes(state)));
}

// A systematic Reed-Solomon code over GF(2^8): the k data fragments are the block, split in k;
// ISA-L's Cauchy generator matrix (any k rows invertible).
struct isal_case {
  int k, m, len;
  std::vector<unsigned char> block, parity, matrix, tables;
  std::vector<unsigned char*> data, coding;
  isal_case(std::size_t k_, std::size_t bytes)
      : k(static_cast<int>(k_)),
        m(static_cast<int>(3 * k_ / 2)),
        len(static_cast<int>(bytes / k_)),
        block(bytes),
        parity(static_cast<std::size_t>((m - k) * len)),
        matrix(static_cast<std::size_t>(m * k)),
        tables(static_cast<std::size_t>(32 * k * (m - k))) {
    const auto w = random_words(bytes / 8);
    std::memcpy(block.data(), w.data(), bytes);
    gf_gen_cauchy1_matrix(matrix.data(), m, k);
    ec_init_tables(k, m - k, matrix.data() + k * k, tables.data());
    for (int i = 0; i < k; ++i) data.push_back(block.data() + i * len);
    for (int i = 0; i < m - k; ++i) coding.push_back(parity.data() + i * len);
  }
  void encode() { ec_encode_data(len, k, m - k, tables.data(), data.data(), coding.data()); }
};

// Tables that rebuild data fragments 0 .. f-1 from the k survivors f .. f+k-1 (data fragments
// f .. k-1, then parity): invert the survivors' rows of the generator, keep the rows of the lost.
std::vector<unsigned char> isal_decode_tables(const isal_case& c, int f) {
  std::vector<unsigned char> rows(static_cast<std::size_t>(c.k * c.k)),
      inverse(static_cast<std::size_t>(c.k * c.k));
  for (int r = 0; r < c.k; ++r)
    std::memcpy(&rows[static_cast<std::size_t>(r * c.k)],
                &c.matrix[static_cast<std::size_t>((f + r) * c.k)], static_cast<std::size_t>(c.k));
  if (gf_invert_matrix(rows.data(), inverse.data(), c.k) != 0)
    throw std::runtime_error("ISA-L: singular decode matrix");
  std::vector<unsigned char> t(static_cast<std::size_t>(32 * c.k * f));
  ec_init_tables(c.k, f, inverse.data(), t.data());  // rows 0 .. f-1 of the inverse
  return t;
}

void BM_isal_encode(benchmark::State& state) {
  isal_case c(arg_k(state), arg_bytes(state));
  for (auto _ : state) {
    c.encode();
    benchmark::DoNotOptimize(c.parity.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * arg_bytes(state)));
}

void BM_isal_decode(benchmark::State& state) {
  const int f = static_cast<int>(state.range(2));
  isal_case c(arg_k(state), arg_bytes(state));
  c.encode();
  const auto tables = isal_decode_tables(c, f);
  std::vector<unsigned char*> survivors;
  for (int i = f; i < c.k; ++i) survivors.push_back(c.data[static_cast<std::size_t>(i)]);
  for (int i = 0; i < f; ++i) survivors.push_back(c.coding[static_cast<std::size_t>(i)]);
  std::vector<unsigned char> out(static_cast<std::size_t>(f * c.len));
  std::vector<unsigned char*> outs;
  for (int i = 0; i < f; ++i) outs.push_back(out.data() + i * c.len);
  for (auto _ : state) {
    ec_encode_data(c.len, c.k, f, const_cast<unsigned char*>(tables.data()), survivors.data(),
                   outs.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  if (std::memcmp(out.data(), c.block.data(), out.size()) != 0)
    state.SkipWithError("ISA-L decode differs from the block");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * arg_bytes(state)));
}

void BM_isal_decode_setup(benchmark::State& state) {
  isal_case c(arg_k(state), arg_bytes(state));
  for (auto _ : state) {
    auto t = isal_decode_tables(c, 1);
    benchmark::DoNotOptimize(t.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * arg_bytes(state)));
}

void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t k : {2, 4, 8})
    for (std::int64_t bytes : {4096, 1 << 20}) b->Args({k, bytes});
}
void sizes_failures(benchmark::internal::Benchmark* b) {
  for (std::int64_t k : {2, 4, 8})
    for (std::int64_t bytes : {4096, 1 << 20})
      for (std::int64_t f : {1, 2})
        if (f <= k / 2) b->Args({k, bytes, f});
}

BENCHMARK(BM_memcpy)->Args({0, 4096})->Args({0, 1 << 20});
BENCHMARK(BM_isal_encode)->Apply(sizes);
BENCHMARK(BM_mojette_encode)->Apply(sizes);
BENCHMARK(BM_isal_decode)->Apply(sizes_failures);
BENCHMARK(BM_mojette_decode)->Apply(sizes_failures);
BENCHMARK(BM_mojette_sys_encode)->Apply(sizes);
BENCHMARK(BM_mojette_sys_decode)->Apply(sizes_failures);
BENCHMARK(BM_isal_decode_setup)->Apply(sizes);
BENCHMARK(BM_mojette_decode_setup)->Apply(sizes);

}  // namespace

BENCHMARK_MAIN();
