#include "placement/failure_counts.hpp"

#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

namespace mcpilot::placement {

namespace {

// Depth-first over the sets of failed devices that lose no group, in increasing device order.
class surviving_counter {
 public:
  surviving_counter(const layout& l, int tolerance, int max_size, std::uint64_t budget)
      : l_(l),
        of_(groups_of_devices(l)),
        t_(tolerance),
        max_size_(max_size),
        budget_(budget),
        count_(l.groups.size(), 0),
        mark_(static_cast<std::size_t>(l.devices), 0),
        found_(static_cast<std::size_t>(max_size) + 1, 0) {}

  std::optional<std::vector<big_count>> run() {
    if (!visit(0)) return std::nullopt;
    return found_;
  }

 private:
  // Adds device d; false when that loses a group (the counts are then already undone).
  bool add(int d) {
    const auto& of = of_[static_cast<std::size_t>(d)];
    work_ += of.size();
    for (std::size_t i = 0; i < of.size(); ++i)
      if (++count_[static_cast<std::size_t>(of[i])] > t_) {
        for (std::size_t j = 0; j <= i; ++j) --count_[static_cast<std::size_t>(of[j])];
        return false;
      }
    return true;
  }
  void remove(int d) {
    for (int g : of_[static_cast<std::size_t>(d)]) --count_[static_cast<std::size_t>(g)];
  }

  // The current set (chosen_, all below `start`) loses nothing. Counts it and its extensions.
  bool visit(int start) {
    const auto depth = chosen_.size();
    ++found_[depth];
    if (work_ > budget_) return false;
    if (static_cast<int>(depth) == max_size_) return true;
    const int v = l_.devices;
    if (static_cast<int>(depth) + 1 == max_size_) {
      // Last level: a device may be added unless one of its groups already holds t failed
      // devices. Mark the devices of those groups instead of trying each candidate.
      ++stamp_;
      int dangerous = 0;
      for (int s : chosen_)
        for (int g : of_[static_cast<std::size_t>(s)]) {
          if (count_[static_cast<std::size_t>(g)] != t_) continue;
          for (int e : l_.groups[static_cast<std::size_t>(g)]) {
            work_ += 1;
            if (e >= start && mark_[static_cast<std::size_t>(e)] != stamp_) {
              mark_[static_cast<std::size_t>(e)] = stamp_;
              ++dangerous;
            }
          }
        }
      // With t = 0 the chosen devices hold no group (else they had lost it), so the groups at
      // t are exactly those of the other devices: every device that holds a group is dangerous.
      if (t_ == 0) {
        for (int e = start; e < v; ++e)
          if (!of_[static_cast<std::size_t>(e)].empty()) ++dangerous;
      }
      found_[depth + 1] += static_cast<big_count>(v - start - dangerous);
      work_ += static_cast<std::uint64_t>(v - start);
      return true;
    }
    for (int d = start; d < v; ++d) {
      if (!add(d)) continue;
      chosen_.push_back(d);
      const bool ok = visit(d + 1);
      chosen_.pop_back();
      remove(d);
      if (!ok) return false;
    }
    return true;
  }

  const layout& l_;
  std::vector<std::vector<int>> of_;
  int t_, max_size_;
  std::uint64_t budget_, work_ = 0;
  std::vector<int> count_;
  std::vector<std::uint64_t> mark_;
  std::uint64_t stamp_ = 0;
  std::vector<int> chosen_;
  std::vector<big_count> found_;
};

// A layout's identity for the cache: FNV-1a over v, k and every group.
std::uint64_t fingerprint(const layout& l) {
  std::uint64_t h = 1469598103934665603ull;
  const auto mix = [&h](std::uint64_t x) {
    h ^= x;
    h *= 1099511628211ull;
  };
  mix(static_cast<std::uint64_t>(l.devices));
  mix(static_cast<std::uint64_t>(l.group_size));
  for (const auto& g : l.groups)
    for (int d : g) mix(static_cast<std::uint64_t>(d) + 0x9e37);
  return h;
}

using cache_key = std::tuple<std::uint64_t, std::size_t, int, int>;
struct cache_entry {
  std::uint64_t budget;
  std::optional<std::vector<big_count>> counts;
};

// At most this many answers are kept; a sweep over one layout's sizes fits easily.
constexpr std::size_t max_cached = 256;

long double power(long double x, int n) {
  return n == 0 ? 1.0L : std::pow(x, static_cast<long double>(n));
}

}  // namespace

std::optional<big_count> checked_binomial(int n, int k) {
  if (k < 0 || k > n) return big_count{0};
  k = std::min(k, n - k);
  const big_count top = ~big_count{0};
  big_count c = 1;
  for (int i = 1; i <= k; ++i) {
    // c·(n−k+i) is a multiple of i (it is i·C(n−k+i, i)), so the division is exact.
    const auto f = static_cast<big_count>(n - k + i);
    if (c > top / f) return std::nullopt;
    c = c * f / static_cast<big_count>(i);
  }
  return c;
}

big_count binomial(int n, int k) {
  const auto c = checked_binomial(n, k);
  if (!c)
    throw std::overflow_error("C(" + std::to_string(n) + ", " + std::to_string(k) +
                              ") does not fit in 128 bits");
  return *c;
}

std::optional<std::vector<big_count>> surviving_sets(const layout& l, int tolerance, int max_size,
                                                     std::uint64_t budget) {
  if (max_size < 0 || max_size > l.devices) return std::nullopt;
  // The largest binomial used is C(v, j) at j = min(max_size, v/2).
  if (!checked_binomial(l.devices, std::min(max_size, l.devices / 2))) return std::nullopt;
  static std::mutex mutex;
  static std::map<cache_key, cache_entry> cache;
  const cache_key key{fingerprint(l), l.groups.size(), tolerance, max_size};
  {
    const std::lock_guard lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) {
      // A known answer is final; a give-up is final only for a budget no larger than this one.
      if (it->second.counts || it->second.budget >= budget) return it->second.counts;
    }
  }
  auto counts = surviving_counter(l, tolerance, max_size, budget).run();
  const std::lock_guard lock(mutex);
  if (cache.size() >= max_cached) cache.clear();
  cache[key] = {budget, counts};
  return counts;
}

std::optional<double> loss_given_failed(const layout& l, int tolerance, int failed,
                                        std::uint64_t budget) {
  if (failed <= tolerance) return 0.0;  // no group can hold more than t failed devices
  const auto s = surviving_sets(l, tolerance, failed, budget);
  if (!s) return std::nullopt;
  const big_count all = binomial(l.devices, failed);
  const big_count lost = all - (*s)[static_cast<std::size_t>(failed)];
  return static_cast<double>(static_cast<long double>(lost) / static_cast<long double>(all));
}

std::optional<double> loss_given_probability(const layout& l, int tolerance, double p,
                                             std::uint64_t budget) {
  const auto s = surviving_sets(l, tolerance, l.devices, budget);
  if (!s) return std::nullopt;
  const long double pp = p, q = 1.0L - pp;
  long double sum = 0;
  for (int n = 0; n <= l.devices; ++n) {
    const big_count lost = binomial(l.devices, n) - (*s)[static_cast<std::size_t>(n)];
    if (lost != 0) sum += static_cast<long double>(lost) * power(pp, n) * power(q, l.devices - n);
  }
  return static_cast<double>(sum);
}

double group_loss_given_failed(int v, int k, int tolerance, int failed) {
  // Σ_{j>t} C(k,j) C(v−k, r−j) / C(v,r), each binomial as a long double product (v may exceed
  // the exact-count range for random layouts; the relative error stays near 1e-18 per factor).
  const auto c = [](int n, int m) -> long double {
    if (m < 0 || m > n) return 0;
    m = std::min(m, n - m);
    long double x = 1;
    for (int i = 1; i <= m; ++i) x = x * (n - m + i) / i;
    return x;
  };
  long double sum = 0;
  for (int j = tolerance + 1; j <= std::min(k, failed); ++j) sum += c(k, j) * c(v - k, failed - j);
  return static_cast<double>(sum / c(v, failed));
}

double group_loss_given_probability(int k, int tolerance, double p) {
  const long double pp = p, q = 1.0L - pp;
  long double sum = 0;
  for (int j = tolerance + 1; j <= k; ++j)
    sum += static_cast<long double>(binomial(k, j)) * power(pp, j) * power(q, k - j);
  return static_cast<double>(sum);
}

std::vector<big_count> groups_lost_distribution(const layout& l, int tolerance, int failed) {
  const auto of = groups_of_devices(l);
  std::vector<big_count> dist(l.groups.size() + 1, 0);
  std::vector<int> count(l.groups.size(), 0), set(static_cast<std::size_t>(failed));
  for (int i = 0; i < failed; ++i) set[static_cast<std::size_t>(i)] = i;
  const int v = l.devices;
  if (failed > v) return dist;
  for (;;) {
    std::fill(count.begin(), count.end(), 0);
    std::size_t lost = 0;
    for (int d : set)
      for (int g : of[static_cast<std::size_t>(d)])
        if (++count[static_cast<std::size_t>(g)] == tolerance + 1) ++lost;
    ++dist[lost];
    int i = failed - 1;
    while (i >= 0 && set[static_cast<std::size_t>(i)] == v - failed + i) --i;
    if (i < 0) break;
    ++set[static_cast<std::size_t>(i)];
    for (int j = i + 1; j < failed; ++j)
      set[static_cast<std::size_t>(j)] = set[static_cast<std::size_t>(j - 1)] + 1;
  }
  return dist;
}

}  // namespace mcpilot::placement
