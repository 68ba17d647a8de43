// The algebraic block designs: cyclic developments of difference sets (Fano, PG(2,q)), the affine
// planes AG(2,q) and the complete designs. Each is checked by verify_design before it is used.
#include <algorithm>
#include <set>

#include "mcpilot/parameters.hpp"
#include "placement/constructions.hpp"

namespace mcpilot::placement {

namespace {

bool is_prime(int n) {
  if (n < 2) return false;
  for (int d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

constexpr int max_plane_order = 31;

}  // namespace

layout cyclic_design(const std::vector<int>& base, int modulus, const std::string& field) {
  if (modulus < 3) throw parameter_error("modulus", "modulus must be at least 3");
  std::set<int> residues;
  for (int b : base) residues.insert(((b % modulus) + modulus) % modulus);
  const int k = static_cast<int>(residues.size());
  if (k != static_cast<int>(base.size()))
    throw parameter_error(field, "the base block repeats a residue mod " + std::to_string(modulus));
  if (k < 2 || k >= modulus)
    throw parameter_error(field, "the base block needs between 2 and modulus - 1 elements");
  // A difference set (modulus, k, λ) has k(k−1) = λ(modulus−1).
  if ((k * (k - 1)) % (modulus - 1) != 0)
    throw parameter_error(field, "a base block of " + std::to_string(k) +
                                     " elements cannot be a difference set mod " +
                                     std::to_string(modulus) +
                                     ": k(k-1) = " + std::to_string(k * (k - 1)) +
                                     " is not a multiple of " + std::to_string(modulus - 1));
  layout l;
  l.devices = modulus;
  l.group_size = k;
  for (int j = 0; j < modulus; ++j) {
    std::vector<int> g;
    for (int b : residues) g.push_back((b + j) % modulus);
    std::sort(g.begin(), g.end());
    l.groups.push_back(std::move(g));
  }
  std::string text;
  for (int b : residues) {
    if (!text.empty()) text += ',';
    text += std::to_string(b);
  }
  l.name = "cyclic {" + text + "} mod " + std::to_string(modulus);
  verify_design(l, k * (k - 1) / (modulus - 1), field);
  return l;
}

layout fano_plane() {
  layout l = cyclic_design({0, 1, 3}, 7, "design");
  l.name = "Fano plane PG(2,2)";
  return l;
}

layout projective_plane(int q) {
  if (!is_prime(q) || q > max_plane_order)
    throw parameter_error(
        "order", "pg2 is constructed for prime orders q <= " + std::to_string(max_plane_order) +
                     " (Singer planes); " + std::to_string(q) +
                     (is_prime(q) ? " is too large" : " is not prime"));
  layout l = cyclic_design(singer_difference_set(q), q * q + q + 1, "order");
  l.name = "PG(2," + std::to_string(q) + ")";
  return l;
}

layout affine_plane(int q) {
  if (!is_prime(q) || q > max_plane_order)
    throw parameter_error(
        "order", "ag2 is constructed for prime orders q <= " + std::to_string(max_plane_order) +
                     "; " + std::to_string(q) + (is_prime(q) ? " is too large" : " is not prime"));
  layout l;
  l.name = "AG(2," + std::to_string(q) + ")";
  l.devices = q * q;
  l.group_size = q;
  for (int m = 0; m < q; ++m)
    for (int c = 0; c < q; ++c) {
      std::vector<int> g;
      for (int x = 0; x < q; ++x) g.push_back(q * x + (m * x + c) % q);
      std::sort(g.begin(), g.end());
      l.groups.push_back(std::move(g));
    }
  for (int c = 0; c < q; ++c) {
    std::vector<int> g;
    for (int y = 0; y < q; ++y) g.push_back(q * c + y);
    l.groups.push_back(std::move(g));
  }
  verify_design(l, 1, "order");
  return l;
}

layout complete_design(int v, int k, std::int64_t max_groups) {
  if (k < 2 || k > v)
    throw parameter_error("group_size", "the complete design needs 2 <= group_size <= devices");
  // C(v, k) by the multiplicative formula, stopping as soon as it passes the bound.
  std::int64_t count = 1;
  for (int i = 1; i <= k; ++i) {
    count = count * (v - k + i) / i;
    if (count > max_groups)
      throw parameter_error("group_size", "the complete design of " + std::to_string(k) +
                                              "-subsets of " + std::to_string(v) +
                                              " devices has more than " +
                                              std::to_string(max_groups) + " groups");
  }
  layout l;
  l.name = "complete(" + std::to_string(v) + "," + std::to_string(k) + ")";
  l.devices = v;
  l.group_size = k;
  std::vector<int> g(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) g[static_cast<std::size_t>(i)] = i;
  for (;;) {
    l.groups.push_back(g);
    int i = k - 1;
    while (i >= 0 && g[static_cast<std::size_t>(i)] == v - k + i) --i;
    if (i < 0) break;
    ++g[static_cast<std::size_t>(i)];
    for (int j = i + 1; j < k; ++j)
      g[static_cast<std::size_t>(j)] = g[static_cast<std::size_t>(j - 1)] + 1;
  }
  // λ = C(v−2, k−2).
  std::int64_t lambda = 1;
  for (int i = 1; i <= k - 2; ++i) lambda = lambda * (v - 2 - (k - 2) + i) / i;
  verify_design(l, static_cast<int>(lambda), "group_size");
  return l;
}

}  // namespace mcpilot::placement
