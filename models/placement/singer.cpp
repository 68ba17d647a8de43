// The Singer difference set of PG(2,q) from GF(q³) = GF(q)[x]/(f), f a primitive monic cubic.
// The points of PG(2,q) are the nonzero elements of GF(q³) up to a factor in GF(q)*, that is the
// powers x^i, i mod n = q²+q+1 (x^n generates GF(q)*). A line is a 2-dimensional subspace; the
// subspace spanned by 1 and x is the set of elements whose x² coefficient is 0, and multiplying
// by x maps lines to lines, so the exponents on that line form a perfect difference set mod n.
#include <array>
#include <cstdint>
#include <vector>

#include "mcpilot/parameters.hpp"
#include "placement/constructions.hpp"

namespace mcpilot::placement {

namespace {

using element = std::array<std::int64_t, 3>;  // c0 + c1 x + c2 x², coefficients mod q

// a·b mod (x³ + f2 x² + f1 x + f0), coefficients mod q.
element multiply(const element& a, const element& b, const element& f, std::int64_t q) {
  std::array<std::int64_t, 5> c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c[i + j] = (c[i + j] + a[i] * b[j]) % q;
  // x³ = −(f2 x² + f1 x + f0): reduce x⁴ then x³.
  for (int d = 4; d >= 3; --d) {
    const std::int64_t t = c[d];
    c[d] = 0;
    for (int i = 0; i < 3; ++i) c[d - 3 + i] = ((c[d - 3 + i] - t * f[i]) % q + q) % q;
  }
  return {c[0], c[1], c[2]};
}

element power(element base, std::int64_t e, const element& f, std::int64_t q) {
  element r{1, 0, 0};
  while (e > 0) {
    if (e & 1) r = multiply(r, base, f, q);
    base = multiply(base, base, f, q);
    e >>= 1;
  }
  return r;
}

std::vector<std::int64_t> prime_factors(std::int64_t n) {
  std::vector<std::int64_t> p;
  for (std::int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) {
      p.push_back(d);
      while (n % d == 0) n /= d;
    }
  if (n > 1) p.push_back(n);
  return p;
}

// x has order exactly q³−1 modulo f: then GF(q)[x]/(f) has q³−1 units, so it is the field GF(q³)
// and f is irreducible and primitive.
bool primitive(const element& f, std::int64_t q) {
  const std::int64_t order = q * q * q - 1;
  const element x{0, 1, 0}, one{1, 0, 0};
  if (power(x, order, f, q) != one) return false;
  for (std::int64_t p : prime_factors(order))
    if (power(x, order / p, f, q) == one) return false;
  return true;
}

}  // namespace

std::vector<int> singer_difference_set(int q_int) {
  const std::int64_t q = q_int, n = q * q + q + 1;
  for (std::int64_t f0 = 1; f0 < q; ++f0)
    for (std::int64_t f1 = 0; f1 < q; ++f1)
      for (std::int64_t f2 = 0; f2 < q; ++f2) {
        const element f{f0, f1, f2};
        if (!primitive(f, q)) continue;
        std::vector<int> set;
        element e{1, 0, 0};
        const element x{0, 1, 0};
        for (std::int64_t i = 0; i < n; ++i, e = multiply(e, x, f, q))
          if (e[2] == 0) set.push_back(static_cast<int>(i));
        return set;
      }
  throw parameter_error("order", "no primitive cubic over GF(" + std::to_string(q) + ") found");
}

}  // namespace mcpilot::placement
