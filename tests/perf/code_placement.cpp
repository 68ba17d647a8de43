// How much the speed of one loop depends on where the linker puts it: the sort study's insertion
// sort (models/sorting/sorts_quadratic.cpp, plain ops), compiled 64 times, each copy preceded by 0
// to 63 bytes of padding, timed on the same keys.
//
//   perf_code_placement [n=256] [batch=32] [readings=200]
//
// Every copy is the same machine code; only its address differs. Where the times split into two
// groups, a rebuild that moves the sort (any change elsewhere in the binary) moves its speed by
// the ratio between them, and with it the sort study's stop sizes (docs/models/sorting.md,
// "Code placement"). The program prints, per copy, the address of the copy's code modulo 4,096
// and the median time per sort over `readings` readings of `batch` sorts, each on fresh keys;
// then the fastest and slowest medians and how many copies are within 10% of the fastest.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <span>
#include <utility>
#include <vector>

namespace {

using key = std::uint32_t;

// The padding shifts the whole loop by Pad bytes from a 64-byte-aligned start, and is jumped over,
// as the sorting model's placed copies do (models/sorting/placed_copies.hpp): every copy pays the
// same one jump per sort, and the copies differ in their address alone. (Until 2026-12-07 the
// padding was run, up to 63 one-byte no-ops a sort, some 15 cycles beside a sort of microseconds.)
template <int Pad>
__attribute__((noinline, aligned(64))) void insertion_at(std::span<key> a) {
  asm volatile("jmp 1f\n\t.skip %c0, 0x90\n1:" ::"i"(Pad));
  for (std::size_t i = 1; i < a.size(); ++i) {
    const key x = a[i];
    std::size_t j = i;
    while (j > 0 && x < a[j - 1]) {
      a[j] = a[j - 1];
      --j;
    }
    a[j] = x;
  }
}

using sort_copy = void (*)(std::span<key>);

template <int... Pad>
std::vector<sort_copy> copies(std::integer_sequence<int, Pad...>) {
  return {&insertion_at<Pad>...};
}

double median_ns(sort_copy sort, std::size_t n, std::size_t batch, int readings, std::mt19937& rng,
                 std::vector<key>& keys) {
  std::vector<double> ns;
  for (int r = 0; r < readings; ++r) {
    for (auto& k : keys) k = rng();
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < batch; ++i) sort({keys.data() + i * n, n});
    asm volatile("" ::"r"(keys.data()) : "memory");
    const auto took = std::chrono::steady_clock::now() - start;
    for (std::size_t i = 0; i < batch; ++i)
      if (!std::is_sorted(keys.begin() + i * n, keys.begin() + (i + 1) * n)) {
        std::fprintf(stderr, "perf_code_placement: a copy did not sort\n");
        std::exit(1);
      }
    ns.push_back(std::chrono::duration<double, std::nano>(took).count() /
                 static_cast<double>(batch));
  }
  std::nth_element(ns.begin(), ns.begin() + ns.size() / 2, ns.end());
  return ns[ns.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  // Each argument a whole number in its range, or the usage and exit 2 (stoul alone would take
  // "12x" as 12 and throw, uncaught, on "x").
  auto arg = [&](int i, long fallback, long low, long high) {
    if (argc <= i) return fallback;
    char* end = nullptr;
    const long v = std::strtol(argv[i], &end, 10);
    if (end == argv[i] || *end != '\0' || v < low || v > high) {
      std::fprintf(stderr,
                   "perf_code_placement: argument %d (%s) must be a whole number in [%ld, %ld]\n"
                   "usage: perf_code_placement [n] [batch] [readings]\n",
                   i, argv[i], low, high);
      std::exit(2);
    }
    return v;
  };
  const auto n = static_cast<std::size_t>(arg(1, 256, 2, 1 << 20));
  const auto batch = static_cast<std::size_t>(arg(2, 32, 1, 1 << 16));
  const auto readings = static_cast<int>(arg(3, 200, 1, 1 << 20));
  std::mt19937 rng(20261206);
  std::vector<key> keys(n * batch);
  const auto sorts = copies(std::make_integer_sequence<int, 64>{});
  std::vector<double> medians;
  std::printf("padding,address_mod_4096,median_ns_per_sort\n");
  for (std::size_t pad = 0; pad < sorts.size(); ++pad) {
    medians.push_back(median_ns(sorts[pad], n, batch, readings, rng, keys));
    std::printf("%zu,%zu,%.0f\n", pad, reinterpret_cast<std::uintptr_t>(sorts[pad]) % 4096,
                medians.back());
  }
  const auto [fast, slow] = std::minmax_element(medians.begin(), medians.end());
  const auto near =
      std::count_if(medians.begin(), medians.end(), [&](double m) { return m <= 1.1 * *fast; });
  std::printf(
      "# insertion sort, n = %zu: fastest copy %.0f ns, slowest %.0f ns (%.2fx); %td of %zu "
      "copies within 10%% of the fastest\n",
      n, *fast, *slow, *slow / *fast, near, medians.size());
}
