#pragma once
// keep_alive(x): tells the compiler that x is used, so that code computing x inside a timed region
// is not removed or hoisted out of it. Pass it what the timed work produces (a checksum, the first
// element of a sorted array, a pointer to the output).
//
// Why it works: an empty asm statement that takes the value's address as an input and clobbers
// memory. The compiler cannot see inside asm, so it must assume the statement reads the value and
// anything reachable through memory; it must therefore finish the stores that produce them before
// it, and cannot prove the work dead. It emits no instruction, so it costs nothing in the timed
// region. (GCC and Clang; elsewhere a volatile store serves the same purpose.)

namespace mcpilot {

template <class T>
inline void keep_alive(T const& value) {
#if defined(__GNUC__) || defined(__clang__)
  asm volatile("" : : "r"(&value) : "memory");
#else
  static volatile const void* sink;
  sink = &value;
#endif
}

// Also a barrier on its own: memory written before it counts as read.
inline void clobber_memory() {
#if defined(__GNUC__) || defined(__clang__)
  asm volatile("" : : : "memory");
#endif
}

}  // namespace mcpilot
