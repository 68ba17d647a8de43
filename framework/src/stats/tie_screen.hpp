// The first pass of rank_sum_mostly_tied (rank_sum.hpp), over values offered in pieces: can
// some value occur often enough among N pooled values to put the tie factor below `limit`?
//
// The factor 1 - sum_g (t_g^3 - t_g) / (N^3 - N) can be below the limit only if some value
// occurs more than t* = sqrt((1 - limit)(N^2 - 1) + 1) times (sum (t^3 - t) <= (t_max^2 - 1) N).
// Misra and Gries' frequent-items count with ceil(N / t*) + 1 counters keeps every such value,
// and a kept value occurs at most its count plus the number of times the counters were cleared.
// So "no" is exact, and "maybe" leaves the exact count to a second look at the values.
// rank_sum_mostly_tied is this screen and that second look.
//
// Offering values a piece at a time lets a caller screen means it computes as it goes (the
// change-point search's batch means over most of a long series) without holding them all.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace mcpilot {

class tie_screen {
 public:
  tie_screen(std::size_t n, double limit);

  // The next of the N values, in order. O(1) amortised per value at a fixed limit (the counters
  // are hashed). Inline, with the table's fields held in locals across the loop: a change-point
  // search offers some 10^8 values, and read through `this` they were reloaded after every
  // count stored.
  void offer(std::span<const double> values) {
    double* const held = held_.data();
    std::size_t* const count = count_.data();
    std::size_t* const slot = slot_.data();
    const std::size_t mask = slot_.size() - 1, capacity = held_.size();
    const unsigned shift = 64 - bits_;
    std::size_t used = used_;
    for (const double v : values) {
      std::size_t i = home(v, shift, mask);
      for (; slot[i] != empty; i = (i + 1) & mask)
        if (held[slot[i]] == v) break;
      if (slot[i] != empty) {
        ++count[slot[i]];
      } else if (used == capacity) {
        used_ = used;
        clear_round();
        used = used_;
      } else {
        held[used] = v;
        count[used] = 1;
        slot[i] = used++;
      }
    }
    used_ = used;
  }

  // Occurrences a value needs, more than this, to put the factor below the limit.
  double needed() const { return needed_; }
  // Calls f(value) for each kept value that may occur more than needed() times.
  template <class F>
  void for_each_candidate(F&& f) const {
    for (std::size_t i = 0; i < used_; ++i)
      if (static_cast<double>(count_[i] + rounds_) > needed_) f(held_[i]);
  }
  bool may_be_tied() const {
    bool any = false;
    for_each_candidate([&](double) { any = true; });
    return any;
  }
  // Once all N values were offered, given them again (a, then b): whether their tie factor is
  // below the limit. Usually without sorting: O(N) per candidate, O(N log N) only when some value
  // is frequent but its own group leaves the factor above the limit.
  bool mostly_tied(std::span<const double> a, std::span<const double> b) const;

  // A value's slot in an open-addressed table of 2^(64 - shift) slots (mask: their number - 1).
  // Equal values (0 and -0 too) share one home; NaN equals nothing. The counters are found
  // through this hash rather than a linear search of the c counters (11 at the usual limit),
  // which was three times slower on values that never repeat, the usual case, where every value
  // is new and every c + 1 values clear the counters. rank_sum_tie_factor counts through it too.
  static std::size_t home(double v, unsigned shift, std::size_t mask) {
    const auto key = std::bit_cast<std::uint64_t>(v == 0 ? 0.0 : v);
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift) & mask;
  }

 private:
  static constexpr std::size_t empty = std::numeric_limits<std::size_t>::max();

  void clear_round();

  double limit_, needed_;
  std::vector<double> held_;
  std::vector<std::size_t> count_;
  std::vector<std::size_t> slot_;  // an open-addressed hash of held_'s indices
  unsigned bits_;
  std::size_t used_ = 0, rounds_ = 0;
};

}  // namespace mcpilot
