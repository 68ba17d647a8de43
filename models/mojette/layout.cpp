#include "mojette/layout.hpp"

#include <cctype>
#include <limits>
#include <stdexcept>

namespace mcpilot::mojette {

layout rozofs_layout(std::size_t k) {
  if (k != 2 && k != 4 && k != 8)
    throw std::invalid_argument("RozoFS has layouts for k = 2, 4 and 8 only");
  layout out;
  const std::size_t n = 3 * k / 2;
  out.name = "rozofs-" + std::to_string(k) + "-" + std::to_string(n);
  out.rows = k;
  for (std::size_t i = 0; i < n; ++i)
    out.dirs.push_back({static_cast<int>(i) - static_cast<int>(n / 2), 1});
  return out;
}

grid block_grid(std::size_t block_bytes, std::size_t rows) {
  if (rows == 0) throw std::invalid_argument("a block needs at least one row");
  const std::size_t row_bytes = 8 * rows;
  if (block_bytes == 0 || block_bytes % row_bytes != 0)
    throw std::invalid_argument(
        "block_bytes = " + std::to_string(block_bytes) + " does not divide into " +
        std::to_string(rows) + " rows of 64-bit words: it must be a positive multiple of 8 x " +
        std::to_string(rows) + " = " + std::to_string(row_bytes) + " (no padding is applied)");
  return {block_bytes / row_bytes, rows};
}

std::vector<std::size_t> bins_per_projection(const grid& g, std::span<const direction> dirs) {
  std::vector<std::size_t> out;
  for (const auto& d : dirs) out.push_back(bin_count(g, d));
  return out;
}

double overhead(const grid& g, std::span<const direction> dirs) {
  std::size_t total = 0;
  for (const auto& d : dirs) total += bin_count(g, d);
  return static_cast<double>(total) / static_cast<double>(g.pixels());
}

double mds_overhead(std::size_t n, std::size_t k) {
  return static_cast<double>(n) / static_cast<double>(k);
}

std::vector<direction> parse_directions(const std::string& text) {
  std::size_t i = 0;
  auto fail = [&](const std::string& why) -> void {
    throw std::invalid_argument("expected an array of [p, q] pairs such as [[1, 1], [-1, 1]], " +
                                why + " (at character " + std::to_string(i + 1) + " of \"" + text +
                                "\")");
  };
  auto skip = [&] {
    while (i < text.size() && (std::isspace(static_cast<unsigned char>(text[i])) != 0)) ++i;
  };
  auto expect = [&](char c) {
    skip();
    if (i >= text.size() || text[i] != c) fail(std::string("missing '") + c + "'");
    ++i;
  };
  auto integer = [&] {
    skip();
    const std::size_t from = i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) != 0)) ++i;
    const std::string s = text.substr(from, i - from);
    if (s.empty() || s == "-" || s == "+") fail("missing an integer");
    const long long v = std::stoll(s);
    if (v < -1'000'000 || v > 1'000'000) fail("|" + s + "| is too large for a direction");
    return static_cast<int>(v);
  };
  std::vector<direction> out;
  expect('[');
  skip();
  if (i < text.size() && text[i] == ']') fail("the array is empty");
  while (true) {
    expect('[');
    const int p = integer();
    expect(',');
    const int q = integer();
    expect(']');
    out.push_back({p, q});
    skip();
    if (i < text.size() && text[i] == ',') {
      ++i;
      continue;
    }
    expect(']');
    break;
  }
  skip();
  if (i != text.size()) fail("unexpected text after the array");
  return out;
}

}  // namespace mcpilot::mojette
