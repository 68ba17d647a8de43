#include "placement/placement_model.hpp"

#include <algorithm>
#include <boost/random/uniform_int_distribution.hpp>
#include <iostream>
#include <numeric>
#include <set>
#include <sstream>
#include <type_traits>
#include <variant>

#include "placement/constructions.hpp"
#include "placement/failure_counts.hpp"
#include "storage/duration_parameters.hpp"

namespace mcpilot::placement {

namespace {

// Quantity positions, fixed by declare(): failures scenarios, then the lifetime scenario.
constexpr std::size_t q_loss = 0, q_groups_lost = 1, q_fraction_lost = 2;
constexpr std::size_t q_loss_in_mission = 0, q_mttdl = 1, q_rebuild_hours = 2, q_rebuild_ratio = 3;

// The complete design may list at most this many groups.
constexpr std::int64_t max_complete_groups = 1'000'000;
// Non-design placements: at most this many devices and groups.
constexpr int max_devices = 10'000;
constexpr int max_groups = 1'000'000;

const std::vector<std::string> design_names = {
    "fano", "pg2", "ag2", "sts", "cyclic", "complete", "file", "random", "clustered", "copyset"};

std::string text_of(big_count n) {
  if (n == 0) return "0";
  std::string s;
  while (n > 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(n % 10)));
    n /= 10;
  }
  return s;
}

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

layout build_layout(const parameters& p) {
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

}  // namespace

void placement_model::declare(model_spec& s) const {
  s.describe(
      "Redundancy groups of k devices, each surviving `tolerance` failures, placed on v devices "
      "(racks, disks, tape libraries) by a block design (Fano, PG(2,q), AG(2,q), Steiner triple "
      "systems, cyclic, complete, a file) or not (random, clustered, copyset). What simultaneous "
      "failures destroy, and how long a rebuild takes; exact counts beside the estimates.");
  s.choice("design", "fano", design_names,
           "the layout: a block design verified at construction, or a placement to compare");
  s.integer("order", 0, "q, for pg2 (prime <= 31) and ag2 (prime)").at_least(0);
  s.integer("devices", 0,
            "v, for sts (1 or 3 mod 6, <= 99), complete, random, clustered and copyset; for file, "
            "optional (0: one more than the largest device named)")
      .at_least(0);
  s.integer("group_size", 0, "k, for complete, random, clustered and copyset").at_least(0);
  s.string("base_block", "", "the base block for cyclic, e.g. \"0,1,3,9\"");
  s.integer("modulus", 0, "the modulus for cyclic, e.g. 13").at_least(0);
  s.string("blocks_file", "",
           "for file: one group per line, devices separated by spaces or commas, # comments; a "
           "relative path is taken from the working directory");
  s.boolean("allow_unbalanced", false,
            "for file: use a layout whose pairs are not balanced, with a warning (otherwise an "
            "error)");
  s.integer("groups", 0,
            "for random and clustered: the number of groups (0: as many per device as a "
            "lambda = 1 design would hold, ceil((v-1)/(k-1)))")
      .at_least(0);
  s.integer("scatter_width", 0, "for copyset: the scatter width S, k-1 <= S <= v-1").at_least(0);
  s.integer("placement_seed", 1,
            "for random and copyset: the layout's own seed (the layout is fixed for the run, so "
            "the exact values are those of this layout)")
      .at_least(0);
  s.integer("tolerance", 2, "t: a group is lost when more than t of its k devices are down at once")
      .at_least(0);
  s.choice("scenario", "failed", {"failed", "independent", "lifetime"},
           "failed: exactly `failed` devices down, chosen uniformly; independent: each down with "
           "failure_probability; lifetime: failures and repairs over mission_hours");
  s.integer("failed", 3, "for scenario = failed: how many devices are down").at_least(0);
  s.number("failure_probability", 0.1, "for scenario = independent: P(a device is down)")
      .in_range(0, 1);
  s.optional_number("mission_hours", "for scenario = lifetime (required there): the mission, hours")
      .positive();
  storage::declare_lifetime_parameters(s);
  storage::declare_repair_parameters(s);
  s.number("rebuild.device_bytes", 0,
           "bytes on a device (the mean, for layouts that are not designs); 0: no rebuild phase")
      .at_least(0);
  s.number("rebuild.bandwidth_bytes_per_hour", 3.6e11,
           "read bandwidth of each device given to a rebuild (3.6e11 B/h = 100 MB/s)")
      .positive();
  s.boolean("rebuild.declustered", true,
            "true: a failed device's groups are rebuilt at once, from every device that shares "
            "one; false: one group at a time, from that group's k-1 devices");

  if (scenario_ == scenario::lifetime) {
    s.proportion("loss_in_mission").describe("1 if data is lost within mission_hours, else 0");
    s.quantity("mttdl_hours")
        .with_unit("h")
        .describe("time to the first data loss, all devices new at time 0");
    s.quantity("rebuild_hours")
        .with_unit("h")
        .optional()
        .describe("rebuild time of the first device to fail (a uniformly chosen device)");
    s.quantity("rebuild_max_over_mean_load")
        .optional()
        .describe("that rebuild's busiest participant's reads over the participants' mean");
  } else {
    s.proportion("loss").describe("1 if at least one group is lost, else 0");
    s.quantity("groups_lost").describe("groups with more than t devices down");
    s.quantity("fraction_lost").optional().describe("groups_lost over the number of groups b");
  }
}

void placement_model::configure(const parameters& p) {
  layout_ = build_layout(p);
  facts_ = facts_of(layout_);
  of_ = groups_of_devices(layout_);
  const int v = layout_.devices, k = layout_.group_size;
  tolerance_ = static_cast<int>(p.integer("tolerance"));
  if (tolerance_ >= k)
    throw parameter_error(
        "tolerance", "tolerance must be below the group size k = " + std::to_string(k) + " of " +
                         layout_.name + " (got " + std::to_string(tolerance_) + ")");
  const std::string& sc = p.string("scenario");
  scenario_ = sc == "failed"        ? scenario::failed
              : sc == "independent" ? scenario::independent
                                    : scenario::lifetime;
  failed_ = static_cast<int>(p.integer("failed"));
  if (failed_ > v)
    throw parameter_error("failed", "failed = " + std::to_string(failed_) + " is more than the " +
                                        std::to_string(v) + " devices of " + layout_.name);
  probability_ = p.number("failure_probability");
  const auto mission = p.optional_number("mission_hours");
  if (scenario_ == scenario::lifetime && !mission)
    throw parameter_error("mission_hours", "scenario = lifetime needs mission_hours");
  if (scenario_ != scenario::lifetime && mission)
    throw parameter_error("mission_hours", "mission_hours applies to scenario = lifetime only");
  mission_ = mission.value_or(0);

  rebuild_settings rs;
  rs.device_bytes = p.number("rebuild.device_bytes");
  rs.bandwidth_bytes_per_hour = p.number("rebuild.bandwidth_bytes_per_hour");
  rs.declustered = p.boolean("rebuild.declustered");
  rs.tolerance = tolerance_;
  rebuild_given_ = rs.device_bytes > 0;
  rebuild_settings_ = rs;
  rebuild_ = rebuild_of_devices(layout_, rs);

  lifetime_ = {};
  lifetime_.tolerance = tolerance_;
  if (scenario_ == scenario::lifetime) {
    lifetime_.lifetime = storage::read_lifetime(p);
    lifetime_.repair = storage::read_repair(p);
    for (const auto& r : rebuild_) lifetime_.rebuild_hours.push_back(r.hours);
  }

  // Exact values.
  exact_.clear();
  losing_sets_.reset();
  losing_by_size_.clear();
  const double b = static_cast<double>(layout_.groups.size());
  if (scenario_ == scenario::failed) {
    const double g = group_loss_given_failed(v, k, tolerance_, failed_);
    exact_["groups_lost"] = b * g;
    exact_["fraction_lost"] = g;
    const auto s = failed_ > tolerance_ ? surviving_sets(layout_, tolerance_, failed_)
                                        : std::optional<std::vector<big_count>>();
    if (failed_ <= tolerance_) {
      exact_["loss"] = 0;
      exact_note_ = "failed <= t: no group can lose data";
    } else if (s) {
      const big_count all = binomial(v, failed_);
      const big_count lost = all - (*s)[static_cast<std::size_t>(failed_)];
      exact_["loss"] =
          static_cast<double>(static_cast<long double>(lost) / static_cast<long double>(all));
      losing_sets_ = text_of(lost) + " of C(" + std::to_string(v) + "," + std::to_string(failed_) +
                     ") = " + text_of(all);
      exact_note_ = "counted over every failure set";
    } else {
      exact_note_ =
          "unknown: counting the failure sets would pass its work bound (or their number 128 bits)";
    }
  } else if (scenario_ == scenario::independent) {
    const double g = group_loss_given_probability(k, tolerance_, probability_);
    exact_["groups_lost"] = b * g;
    exact_["fraction_lost"] = g;
    if (const auto loss = loss_given_probability(layout_, tolerance_, probability_)) {
      exact_["loss"] = *loss;
      exact_note_ = "polynomial in p over every failure set";
      // The polynomial's coefficients, L_s = C(v,s) − surviving s-sets (cached, no new count).
      const auto s = surviving_sets(layout_, tolerance_, v);
      if (s && v <= 62)
        for (int n = 0; n <= v; ++n)
          losing_by_size_.push_back(
              static_cast<std::int64_t>(binomial(v, n) - (*s)[static_cast<std::size_t>(n)]));
    } else {
      exact_note_ =
          "unknown: counting the failure sets would pass its work bound (or their number 128 bits)";
    }
  } else {
    long double ratio = 0;
    for (const auto& r : rebuild_) ratio += r.max_over_mean_load;
    exact_["rebuild_hours"] = mean_rebuild_hours(layout_, rebuild_settings_, rebuild_);
    exact_["rebuild_max_over_mean_load"] = static_cast<double>(ratio / v);
    if (const auto e = exact_lifetime(layout_, lifetime_, mission_)) {
      exact_["mttdl_hours"] = e->mttdl_hours;
      if (e->loss_in_mission) exact_["loss_in_mission"] = *e->loss_in_mission;
      exact_note_ = "rebuild figures exact; Markov chain on " + std::to_string(e->states) +
                    " down-sets" +
                    (e->loss_in_mission ? "" : " (loss_in_mission too long to solve)");
    } else {
      exact_note_ =
          "rebuild figures exact; mttdl_hours and loss_in_mission unknown (they need "
          "exponential lifetimes and repairs, no rebuild time, and at most 600 down-sets)";
    }
  }
}

std::vector<model_fact> placement_model::model_facts() const {
  std::vector<model_fact> f;
  const layout_facts& x = facts_;
  f.push_back({"design", layout_.name, ""});
  f.push_back({"v", std::int64_t{x.v}, "devices"});
  f.push_back({"b", std::int64_t{x.b}, "groups"});
  if (x.r_min == x.r_max)
    f.push_back({"r", std::int64_t{x.r_min}, "groups per device"});
  else
    f.push_back({"r", std::to_string(x.r_min) + ".." + std::to_string(x.r_max),
                 "groups per device (not the same on every device)"});
  f.push_back({"k", std::int64_t{x.k}, "devices per group"});
  if (x.lambda_min == x.lambda_max)
    f.push_back({"lambda", std::int64_t{x.lambda_min}, "groups shared by every pair"});
  else
    f.push_back({"lambda", std::to_string(x.lambda_min) + ".." + std::to_string(x.lambda_max),
                 "groups shared by a pair (not the same for every pair)"});
  f.push_back({"balanced", x.balanced(), "every pair shares the same number of groups"});
  f.push_back({"t", std::int64_t{tolerance_}, "failures a group survives"});
  if (losing_sets_) f.push_back({"losing_failure_sets", *losing_sets_, "sets that lose data"});
  if (!losing_by_size_.empty())
    f.push_back({"losing_sets_by_size", losing_by_size_,
                 "L_s for s = 0..v down: P(loss) = sum L_s p^s (1-p)^(v-s)"});
  f.push_back({"exact_values", exact_note_, ""});
  if (rebuild_given_) {
    // The gain from integer counts: both times carry the same bytes-per-group factor.
    long double ratio = 0;
    long serial = 0, parallel = 0;
    for (const auto& r : rebuild_) {
      serial += r.groups;
      parallel += r.most_shared;
      ratio += r.max_over_mean_load;
    }
    const double v = static_cast<double>(rebuild_.size());
    f.push_back({"rebuild_hours", mean_rebuild_hours(layout_, rebuild_settings_, rebuild_),
                 "mean over devices, every other device up"});
    f.push_back(
        {"rebuild_max_over_mean_load", static_cast<double>(ratio / v), "mean over devices"});
    f.push_back({"declustering_gain",
                 parallel > 0 ? static_cast<double>(serial) / static_cast<double>(parallel) : 1.0,
                 "one-group-at-a-time time over all-at-once time"});
  }
  return f;
}

void placement_model::replicate(replication& r) const {
  if (scenario_ == scenario::lifetime)
    replicate_lifetime(r);
  else
    replicate_failures(r);
}

void placement_model::replicate_failures(replication& r) const {
  const int v = layout_.devices;
  // Scratch reused by the thread; every count touched is put back to 0 before returning.
  thread_local std::vector<int> count, order, down;
  if (count.size() != layout_.groups.size()) count.assign(layout_.groups.size(), 0);
  down.clear();
  if (scenario_ == scenario::failed) {
    // A partial Fisher–Yates shuffle: the first `failed` entries are a uniform subset.
    order.resize(static_cast<std::size_t>(v));
    std::iota(order.begin(), order.end(), 0);
    for (int i = 0; i < failed_; ++i) {
      const int j = boost::random::uniform_int_distribution<int>(i, v - 1)(r.rng());
      std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(j)]);
      down.push_back(order[static_cast<std::size_t>(i)]);
    }
  } else {
    for (int d = 0; d < v; ++d)
      if (r.rng().uniform() < probability_) down.push_back(d);
  }
  int lost = 0;
  for (int d : down)
    for (int g : of_[static_cast<std::size_t>(d)])
      if (++count[static_cast<std::size_t>(g)] == tolerance_ + 1) ++lost;
  for (int d : down)
    for (int g : of_[static_cast<std::size_t>(d)]) count[static_cast<std::size_t>(g)] = 0;
  r.record(q_loss, lost > 0 ? 1.0 : 0.0);
  r.record(q_groups_lost, lost);
  r.record(q_fraction_lost, static_cast<double>(lost) / static_cast<double>(layout_.groups.size()));
}

void placement_model::replicate_lifetime(replication& r) const {
  const lifetime_outcome o = simulate_lifetime(layout_, of_, lifetime_, r.rng());
  r.record(q_loss_in_mission, o.loss_hours <= mission_ ? 1.0 : 0.0);
  r.record(q_mttdl, o.loss_hours);
  const auto& first = rebuild_[static_cast<std::size_t>(std::max(o.first_failed, 0))];
  r.record(q_rebuild_hours, first.hours);
  r.record(q_rebuild_ratio, first.max_over_mean_load);
}

}  // namespace mcpilot::placement
