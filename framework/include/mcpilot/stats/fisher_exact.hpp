#pragma once
// Fisher's exact test on a 2x2 table of counts.
//
//            class 1   class 2
//   group A     a         b
//   group B     c         d
//
// Given the margins, a has the hypergeometric distribution
//   P(a = x) = C(a+b, x) C(c+d, a+c-x) / C(n, a+c),  n = a+b+c+d,
// on max(0, a+c-(c+d)) .. min(a+b, a+c). The two-sided p-value is R's fisher.test: the sum of
// P(x) over every x with P(x) <= P(a) (1 + 1e-7), the tolerance absorbing rounding in ties of
// probability. Probabilities come from lgamma and are normalised after subtracting the largest
// log-probability, so tables with counts in the millions neither overflow nor underflow.
// O(min(a+b, a+c, ...)) time (the size of the support), O(1) memory beyond it.

#include <cstdint>

namespace mcpilot {

struct fisher_exact_result {
  double p_two_sided = 1;
  double p_less = 1;     // P(X <= a): group A has fewer in class 1 than expected
  double p_greater = 1;  // P(X >= a)
};

fisher_exact_result fisher_exact(std::uint64_t a, std::uint64_t b, std::uint64_t c,
                                 std::uint64_t d);

}  // namespace mcpilot
