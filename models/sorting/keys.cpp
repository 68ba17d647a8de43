#include "keys.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace mcpilot::sorting {

const std::vector<std::string>& key_families() {
  static const std::vector<std::string> all = {"uniform", "sorted", "reversed", "few-unique",
                                               "organ-pipe"};
  return all;
}

void fill_keys(std::string_view family, philox_stream& rng, std::span<key> out) {
  // Two keys per 64-bit draw: the high and low halves are independent uniform words.
  auto uniform = [&] {
    for (std::size_t i = 0; i < out.size(); i += 2) {
      const std::uint64_t w = rng();
      out[i] = static_cast<key>(w >> 32);
      if (i + 1 < out.size()) out[i + 1] = static_cast<key>(w);
    }
  };
  if (family == "uniform") {
    uniform();
  } else if (family == "sorted") {
    uniform();
    std::sort(out.begin(), out.end());
  } else if (family == "reversed") {
    uniform();
    std::sort(out.begin(), out.end(), std::greater<>());
  } else if (family == "few-unique") {
    // The top 3 bits of a uniform word pick one of 8 values spread over the key range.
    for (auto& k : out) k = static_cast<key>((rng() >> 61) << 29);
  } else if (family == "organ-pipe") {
    uniform();
    const auto mid = out.begin() + static_cast<std::ptrdiff_t>(out.size() / 2);
    std::sort(out.begin(), mid);
    std::sort(mid, out.end(), std::greater<>());
  } else {
    throw std::invalid_argument("unknown key family " + std::string(family));
  }
}

}  // namespace mcpilot::sorting
