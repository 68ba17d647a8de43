// Which layout the parameters choose, and the checks that tie the design-specific parameters to
// their designs.
#include "placement/layout_parameters.hpp"

#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "placement/constructions.hpp"

namespace mcpilot::placement {

namespace {

// The complete design may list at most this many groups.
constexpr std::int64_t max_complete_groups = 1'000'000;
// Non-design placements: at most this many devices and groups.
constexpr int max_devices = 10'000;
constexpr int max_groups = 1'000'000;

// A parameter that the chosen design does not use must keep its "unset" default: silently
// ignored, it would make the user believe it mattered.
void only_for(const parameters& p, const std::string& field, bool used, const std::string& users,
              const std::string& design) {
  if (used) return;
  const param_value& v = p.values().at(field);
  const bool unset = std::visit(
      [](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::string>)
          return x.empty();
        else if constexpr (std::is_same_v<T, bool>)
          return !x;
        else
          return x == 0;
      },
      v);
  if (!unset)
    throw parameter_error(field, field + " applies to design = " + users + " only, not " + design);
}

int need_positive(const parameters& p, const std::string& field, const std::string& design) {
  const std::int64_t n = p.integer(field);
  if (n <= 0) throw parameter_error(field, "design = " + design + " needs " + field);
  return static_cast<int>(n);
}

std::vector<int> parse_base_block(const std::string& text) {
  std::string t = text;
  for (char& c : t)
    if (c == ',' || c == '{' || c == '}' || c == '[' || c == ']') c = ' ';
  std::istringstream in(t);
  std::vector<int> out;
  std::string word;
  while (in >> word) {
    std::size_t used = 0;
    int x = 0;
    try {
      x = std::stoi(word, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != word.size())
      throw parameter_error("base_block", "\"" + word + "\" is not an integer (write \"0,1,3\")");
    out.push_back(x);
  }
  if (out.empty()) throw parameter_error("base_block", "design = cyclic needs base_block");
  return out;
}

// Groups per device in a λ = 1 design on v devices: the default load of random and clustered.
int lambda_one_replication(int v, int k) {
  return (v - 1 + k - 2) / (k - 1);
}

}  // namespace

const std::vector<std::string>& design_names() {
  static const std::vector<std::string> names = {
      "fano", "pg2", "ag2", "sts", "cyclic", "complete", "file", "random", "clustered", "copyset"};
  return names;
}

layout layout_from_parameters(const parameters& p) {
  const std::string& d = p.string("design");
  only_for(p, "order", d == "pg2" || d == "ag2", "pg2 or ag2", d);
  const bool uses_devices = d == "sts" || d == "complete" || d == "file" || d == "random" ||
                            d == "clustered" || d == "copyset";
  only_for(p, "devices", uses_devices, "sts, complete, file, random, clustered or copyset", d);
  const bool uses_k = d == "complete" || d == "random" || d == "clustered" || d == "copyset";
  if (!(d == "sts" && p.integer("group_size") == 3))  // STS groups are triples: k = 3 may be said
    only_for(p, "group_size", uses_k, "complete, random, clustered or copyset (sts: 3)", d);
  only_for(p, "base_block", d == "cyclic", "cyclic", d);
  only_for(p, "modulus", d == "cyclic", "cyclic", d);
  only_for(p, "blocks_file", d == "file", "file", d);
  only_for(p, "allow_unbalanced", d == "file", "file", d);
  only_for(p, "groups", d == "random" || d == "clustered", "random or clustered", d);
  only_for(p, "scatter_width", d == "copyset", "copyset", d);

  if (d == "fano") return fano_plane();
  if (d == "pg2") return projective_plane(need_positive(p, "order", d));
  if (d == "ag2") return affine_plane(need_positive(p, "order", d));
  if (d == "sts") return steiner_triple_system(need_positive(p, "devices", d));
  if (d == "cyclic")
    return cyclic_design(parse_base_block(p.string("base_block")), need_positive(p, "modulus", d),
                         "base_block");
  if (d == "file") {
    if (p.string("blocks_file").empty())
      throw parameter_error("blocks_file", "design = file needs blocks_file");
    layout l = read_blocks_file(p.string("blocks_file"), static_cast<int>(p.integer("devices")));
    if (l.group_size < 2) throw parameter_error("blocks_file", "groups need at least 2 devices");
    const layout_facts f = facts_of(l);
    if (!f.balanced()) {
      const std::string why =
          l.name + " is not balanced: devices " + std::to_string(f.min_pair[0]) + " and " +
          std::to_string(f.min_pair[1]) + " share " + std::to_string(f.lambda_min) +
          " groups, devices " + std::to_string(f.max_pair[0]) + " and " +
          std::to_string(f.max_pair[1]) + " share " + std::to_string(f.lambda_max);
      if (!p.boolean("allow_unbalanced"))
        throw parameter_error("blocks_file",
                              why + " (set allow_unbalanced = true to use it anyway)");
      std::cerr << "warning: " << why << "; used because allow_unbalanced = true\n";
    }
    return l;
  }
  const int v = need_positive(p, "devices", d);
  const int k = need_positive(p, "group_size", d);
  if (v > max_devices)
    throw parameter_error("devices", "at most " + std::to_string(max_devices) + " devices");
  if (k < 2 || k > v)
    throw parameter_error("group_size",
                          "group_size must be between 2 and devices (" + std::to_string(v) + ")");
  if (d == "complete") return complete_design(v, k, max_complete_groups);
  const auto seed = static_cast<std::uint64_t>(p.integer("placement_seed"));
  if (d == "copyset") return copyset_placement(v, k, need_positive(p, "scatter_width", d), seed);
  std::int64_t groups = p.integer("groups");
  if (groups == 0) {
    const std::int64_t r = lambda_one_replication(v, k);
    groups = d == "clustered" ? (v / k) * r : (static_cast<std::int64_t>(v) * r + k - 1) / k;
  }
  if (groups > max_groups)
    throw parameter_error("groups", std::to_string(groups) + " groups on " + std::to_string(v) +
                                        " devices of " + std::to_string(k) + " is more than the " +
                                        std::to_string(max_groups) +
                                        " allowed (groups = 0 places ceil((v-1)/(k-1)) per device; "
                                        "set groups)");
  if (d == "clustered") return clustered_placement(v, k, static_cast<int>(groups));
  return random_placement(v, k, static_cast<int>(groups), seed);
}

}  // namespace mcpilot::placement
