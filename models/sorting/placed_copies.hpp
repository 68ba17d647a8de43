#pragma once
// Sixteen copies of one sort, each at its own address, for `layout = "random"` (sorts.hpp).
//
// A loop's speed can depend on where the linker puts it: insertion sort at n = 256 ran 1.58x apart
// between placements of the same machine code (docs/models/sorting.md, "Code placement"), so a
// rebuild that moves the sort moves the study's verdicts. Timing each reading with a copy chosen
// at random averages over placements, and no build's placement decides the verdict.
//
// Each copy is a function of its own, 64-byte aligned and opened by a jump over 4 x i bytes of
// padding, with the sort flattened into it (every call it makes inlined), so that its loops sit at
// the copy's address rather than in one body the copies share. The padding differs per copy, so
// the linker cannot fold the copies into one. A sort that calls itself keeps its recursive calls
// out of line (flatten cannot inline a call into itself), so its copies would share the hot body:
// the recursive sorts have no copies (algorithm::placed is null).
//
// The 16 copies are one machine code at 16 addresses. Inlined into the copy, behind the jump, a
// sort could get another register allocation than its linked function; the linked quick-queue
// and quick-stack did, and took 7-16% longer than every copy, until the sorts were declared
// [[gnu::flatten]] too (sorts.hpp; docs/models/sorting.md, "Runs W1-W5").
//
// Include this only where the sort's body is visible (its own file): a copy instantiated elsewhere
// would call the shared body and move nothing.

#include <array>
#include <utility>

#include "sorts.hpp"

namespace mcpilot::sorting {

namespace placement_detail {

template <int Pad, sort_function Sort>
[[gnu::noinline, gnu::flatten, gnu::aligned(64)]] void placed(std::span<key> a,
                                                              std::span<key> scratch) {
  // The padding is jumped over, not run: every copy pays the same one jump per sort and the
  // copies differ in their address alone. Running 60 no-ops would cost some 10-15 cycles a sort
  // (an estimate from the core's width), about as long as sorting 2 keys (7-11 ns).
  asm volatile("jmp 1f\n\t.skip %c0, 0x90\n1:" ::"i"(Pad));
  Sort(a, scratch);
}

template <sort_function Sort, int... I>
constexpr placed_sorts make(std::integer_sequence<int, I...>) {
  return {&placed<I * placed_copy_step, Sort>...};
}

}  // namespace placement_detail

template <sort_function Sort>
const placed_sorts& placed_copies() {
  static constexpr placed_sorts copies =
      placement_detail::make<Sort>(std::make_integer_sequence<int, placed_copy_count>{});
  return copies;
}

}  // namespace mcpilot::sorting
