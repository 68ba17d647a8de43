#pragma once
// Which sets of directions are valid, and which reconstruct a grid (the Katz criterion).

#include <span>
#include <stdexcept>
#include <string>

#include "mojette/transform.hpp"

namespace mcpilot::mojette {

// A direction set that is not valid (gcd, sign, duplicate): the message says which and why.
class invalid_direction : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws invalid_direction unless every direction has gcd(p, q) = 1, q >= 0, q = 0 only with
// p = +-1, and no direction appears twice ((1, 0) and (-1, 0) are the same line family).
void check_directions(std::span<const direction> dirs);

// Katz (1978): projections in these directions determine every P x Q image iff
// sum |p_i| >= P or sum |q_i| >= Q. O(number of directions).
bool katz(const grid& g, std::span<const direction> dirs);

// "(1, 1), (-1, 1)": for messages.
std::string to_string(std::span<const direction> dirs);

}  // namespace mcpilot::mojette
