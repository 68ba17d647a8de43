#include "placement/placement_model.hpp"

#include <algorithm>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <iostream>
#include <numeric>
#include <set>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <variant>

#include "placement/constructions.hpp"
#include "placement/failure_counts.hpp"
#include "placement/layout_parameters.hpp"
#include "storage/duration_parameters.hpp"
#include "storage/nines.hpp"
#include "storage/outage_parameters.hpp"
#include "storage/walked_quantities.hpp"

namespace mcpilot::placement {

namespace {

// Quantity positions, fixed by declare(): failures scenarios, then the lifetime scenario.
constexpr std::size_t q_loss = 0, q_groups_lost = 1, q_fraction_lost = 2;
constexpr std::size_t q_loss_in_mission = 0, q_mttdl = 1, q_rebuild_hours = 2, q_rebuild_ratio = 3;
// Every count a layout takes (devices, groups, k, t, ...) is below this at load, so that none
// wraps when the constructions hold it in an int (2^32 + 1 once became "-1 is not prime"); the
// constructions' own limits (10,000 devices, 10^6 groups, prime orders <= 31) are lower still.
constexpr double max_count = 1'000'000;

std::string text_of(big_count n) {
  if (n == 0) return "0";
  std::string s;
  while (n > 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(n % 10)));
    n /= 10;
  }
  return s;
}

}  // namespace

void placement_model::declare(model_spec& s) const {
  s.describe(
      "Redundancy groups of k devices, each surviving `tolerance` failures, placed on v devices "
      "(racks, disks, tape libraries) by a block design (Fano, PG(2,q), AG(2,q), Steiner triple "
      "systems, cyclic, complete, a file) or not (random, clustered, copyset). What simultaneous "
      "failures destroy, and how long a rebuild takes; exact counts beside the estimates. The "
      "lifetime scenario adds rack (domain) failures and outages and device outages, with "
      "durability_nines, fraction_lost and, with outages, unavailability and "
      "unavailable_events_per_year.");
  s.choice("design", "fano", design_names(),
           "the layout: a block design verified at construction, or a placement to compare");
  s.integer("order", 0, "q, for pg2 and ag2 (a prime <= 31)").in_range(0, max_count);
  s.integer("devices", 0,
            "v, for sts (1 or 3 mod 6, <= 99), complete, random, clustered and copyset; for file, "
            "optional (0: one more than the largest device named)")
      .in_range(0, max_count);
  s.integer("group_size", 0, "k, for complete, random, clustered and copyset")
      .in_range(0, max_count);
  s.string("base_block", "", "the base block for cyclic, e.g. \"0,1,3,9\"");
  s.integer("modulus", 0, "the modulus for cyclic, e.g. 13").in_range(0, max_count);
  s.string("blocks_file", "",
           "for file: one group per line, devices separated by spaces or commas, # comments; a "
           "relative path is taken from the working directory");
  s.boolean("allow_unbalanced", false,
            "for file: use a layout whose pairs are not balanced, with a warning (otherwise an "
            "error)");
  s.integer("groups", 0,
            "for random and clustered: the number of groups (0: as many per device as a "
            "lambda = 1 design would hold, ceil((v-1)/(k-1)))")
      .in_range(0, max_count);
  s.integer("scatter_width", 0, "for copyset: the scatter width S, k-1 <= S <= v-1")
      .in_range(0, max_count);
  s.integer("placement_seed", 1,
            "for random and copyset: the layout's own seed (the layout is fixed for the run, so "
            "the exact values are those of this layout)")
      .at_least(0);
  s.integer("tolerance", 2, "t: a group is lost when more than t of its k devices are down at once")
      .in_range(0, max_count);
  s.choice("scenario", "failed", {"failed", "independent", "lifetime"},
           "failed: exactly `failed` devices down, chosen uniformly; independent: each down with "
           "failure_probability; lifetime: failures and repairs over mission_hours");
  s.choice("method", "naive", {"naive", "importance"},
           "for scenario = lifetime: naive simulates each history to its loss; importance walks "
           "the chain of failed devices with balanced failure biasing, for rare losses "
           "(exponential lifetimes and repairs, rebuild.device_bytes = 0: mttdl_hours, "
           "loss_in_mission, durability_nines)");
  s.integer("failed", 3, "for scenario = failed: how many devices are down").in_range(0, max_count);
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
  // For scenario = lifetime: device d sits in domain d mod domains.count.
  storage::declare_outage_parameters(s);
  storage::declare_domain_parameters(s);

  if (scenario_ == scenario::lifetime && importance_) {
    declare_importance(s);
  } else if (scenario_ == scenario::lifetime) {
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
    storage::declare_durability_nines(s, mission_);
    s.quantity("fraction_lost")
        .optional()
        .describe(
            "groups lost within the mission over the b groups, per year of mission; its mean is "
            "the expected fraction of the stored data lost per year");
    if (outages_) {
      s.quantity("unavailability")
          .optional()
          .describe(
              "fraction of the mission during which some group is unavailable though not lost "
              "(more than t of its devices down, failed or out)");
      s.quantity("unavailable_events_per_year")
          .optional()
          .describe("periods of unavailability starting within the mission, per year of mission");
    } else {
      const std::string why =
          "no outages are configured (outage.rate_per_hour, domains.outage_rate_per_hour), so "
          "data is never unavailable without being lost";
      s.not_estimated("unavailability", why);
      s.not_estimated("unavailable_events_per_year", why);
    }
  } else {
    const std::string why =
        "it is a quantity of failures over time: set scenario = \"lifetime\" "
        "and mission_hours";
    for (const char* q :
         {"loss_in_mission", "mttdl_hours", "rebuild_hours", "rebuild_max_over_mean_load",
          "durability_nines", "unavailability", "unavailable_events_per_year"})
      s.not_estimated(q, why);
    s.proportion("loss").describe("1 if at least one group is lost, else 0");
    // Optional, like fraction_lost: `loss` drives the session. groups_lost is constant where
    // P(loss) is 0 or every group is always lost (r = v), and would then never converge.
    s.quantity("groups_lost").optional().describe("groups with more than t devices down");
    s.quantity("fraction_lost").optional().describe("groups_lost over the number of groups b");
  }
}

void placement_model::declare_importance(model_spec& s) const {
  storage::declare_walked_loss(s, "devices", mission_);
  const std::string naive = "; method = naive estimates it";
  for (const char* q : {"rebuild_hours", "rebuild_max_over_mean_load"})
    s.not_estimated(q, "method = importance needs rebuild.device_bytes = 0" + naive);
  s.not_estimated(
      "fraction_lost",
      "method = importance estimates the chance of a loss, not how much is lost" + naive);
  if (availability_walk_) {
    storage::declare_walked_availability(s, 1.0);
  } else {
    const std::string why =
        outages_ ? availability_gap_ + naive
                 : "no outages are configured (outage.rate_per_hour, "
                   "domains.outage_rate_per_hour), so data is never unavailable without being lost";
    for (const char* q : {"unavailability", "unavailable_events_per_year"}) s.not_estimated(q, why);
  }
}

// method = importance: the laws that make the failed devices a Markov chain, or an error naming
// the field that breaks it.
void placement_model::configure_importance(const parameters& p) {
  importance_ = p.string("method") == "importance";
  if (!importance_) return;
  if (scenario_ != scenario::lifetime)
    throw parameter_error("method",
                          "method = importance applies to scenario = lifetime; the failed and "
                          "independent scenarios are counted exactly where the count is feasible");
  using kind = storage::duration_law::kind;
  if (lifetime_.lifetime.type != kind::exponential)
    throw parameter_error("lifetime.distribution",
                          "method = importance needs exponential lifetimes, so that the failed "
                          "devices form a Markov chain; method = naive simulates other laws");
  if (lifetime_.repair.type != kind::exponential)
    throw parameter_error("repair.distribution",
                          "method = importance needs exponential repairs: its cycles end when "
                          "every device is back, and the chain needs memoryless repairs; method "
                          "= naive simulates other laws");
  if (rebuild_given_)
    throw parameter_error("rebuild.device_bytes",
                          "method = importance needs rebuild.device_bytes = 0: a rebuild adds a "
                          "fixed time to each repair, which is not memoryless; method = naive "
                          "simulates it");
  walk_ = {};
  walk_.groups = static_cast<int>(layout_.groups.size());
  walk_.tolerance = tolerance_;
  walk_.failure_rate = 1 / lifetime_.lifetime.mean;
  walk_.repair_rate = 1 / lifetime_.repair.mean;
  walk_.domains = lifetime_.domains.count;
  walk_.domain_failure_rate = lifetime_.domains.count > 0 ? lifetime_.domains.failure_rate : 0.0;
  bool at_once = false;
  if (lifetime_.domains.count > 0) {
    std::vector<int> in_domain(static_cast<std::size_t>(walk_.domains));
    for (const auto& g : layout_.groups) {
      std::fill(in_domain.begin(), in_domain.end(), 0);
      for (int d : g)
        if (++in_domain[static_cast<std::size_t>(domain_of_device(lifetime_.domains, d))] >
            tolerance_)
          at_once = true;
    }
  }
  walk_.domain_loses_at_once = at_once && walk_.domain_failure_rate > 0;

  // Unavailability: the whole state (failed devices and the outages holding the others) on
  // storage's walk, where every law is memoryless.
  availability_walk_.reset();
  availability_gap_.clear();
  if (!outages_) return;
  const auto& o = lifetime_.outage;
  const auto& dc = lifetime_.domains;
  if (o.active() && o.duration.type != kind::exponential) {
    availability_gap_ =
        "method = importance estimates it with exponential outages only (outage.distribution)";
    return;
  }
  if (dc.count > 0 && dc.outage.active() && dc.outage.duration.type != kind::exponential) {
    availability_gap_ =
        "method = importance estimates it with exponential domain outages only "
        "(domains.outage_distribution)";
    return;
  }
  storage::domain_walk_rates a;
  a.groups = walk_.groups;
  a.tolerance = tolerance_;
  a.failure_rate = walk_.failure_rate;
  a.repair_rate = walk_.repair_rate;
  a.parallel = true;
  a.domains = std::max(dc.count, 1);
  a.domain_failure_rate = walk_.domain_failure_rate;
  a.outage_rate = o.active() ? o.rate : 0.0;
  a.outage_end = o.active() ? 1 / o.duration.mean : 0.0;
  if (dc.count > 0 && dc.outage.active()) {
    a.domain_outage_rate = dc.outage.rate;
    a.domain_outage_end = 1 / dc.outage.duration.mean;
  }
  a.domain_loses_at_once = at_once;
  availability_walk_ = a;
}

void placement_model::configure(const parameters& p) {
  layout_ = layout_from_parameters(p);
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
  if (scenario_ == scenario::failed && failed_ > v)
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
  // A subnormal bandwidth passes its range (> 0) but makes every rebuild infinitely long, which a
  // replication would record as rebuild_hours = inf: refused here, where the field can be named.
  for (const auto& r : rebuild_)
    if (!std::isfinite(r.hours) || !std::isfinite(r.serial_hours)) {
      std::ostringstream os;
      os << "a rebuild of rebuild.device_bytes = " << rs.device_bytes
         << " at rebuild.bandwidth_bytes_per_hour = " << rs.bandwidth_bytes_per_hour
         << " would take more hours than a double holds";
      throw parameter_error("rebuild.bandwidth_bytes_per_hour", os.str());
    }

  lifetime_ = {};
  lifetime_.tolerance = tolerance_;
  if (scenario_ == scenario::lifetime) {
    lifetime_.lifetime = storage::read_lifetime(p);
    lifetime_.repair = storage::read_repair(p);
    storage::check_laws(lifetime_.lifetime, lifetime_.repair, std::max(mission_, 1.0));
    storage::check_mission_failures(lifetime_.lifetime, static_cast<double>(v), mission_);
    for (const auto& r : rebuild_) lifetime_.rebuild_hours.push_back(r.hours);
    lifetime_.mission_hours = mission_;
    lifetime_.outage = storage::read_outage(p, mission_);
    lifetime_.domains = storage::read_domains(p, v, mission_);
    storage::check_event_streams(lifetime_.outage, lifetime_.domains, 0, static_cast<double>(v),
                                 mission_, "the mission");
  } else {
    for (const char* f : {"outage.rate_per_hour", "domains.count", "domains.outage_rate_per_hour",
                          "domains.failure_rate_per_hour"})
      if (std::string_view(f) == "domains.count" ? p.integer(f) != 0 : p.has(f))
        throw parameter_error(f, std::string(f) +
                                     " applies to scenario = lifetime only (got "
                                     "scenario = " +
                                     sc + ")");
  }
  outages_ = lifetime_.outage.active() ||
             (lifetime_.domains.count > 0 && lifetime_.domains.outage.active());
  configure_importance(p);

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
          "unknown: counting the failure sets would pass its work bound, or their number would not "
          "fit in 128 bits";
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
          "unknown: counting the failure sets would pass its work bound, or their number would not "
          "fit in 128 bits";
    }
  } else {
    long double ratio = 0;
    for (const auto& r : rebuild_) ratio += r.max_over_mean_load;
    exact_["rebuild_hours"] = mean_rebuild_hours(layout_, rebuild_settings_, rebuild_);
    exact_["rebuild_max_over_mean_load"] = static_cast<double>(ratio / v);
    if (const auto e = exact_lifetime(layout_, lifetime_, mission_)) {
      exact_["mttdl_hours"] = e->mttdl_hours;
      if (e->loss_in_mission) {
        exact_["loss_in_mission"] = *e->loss_in_mission;
        exact_["durability_nines"] = storage::durability_nines(*e->loss_in_mission, mission_);
      }
      exact_note_ = "rebuild figures exact; Markov chain on " + std::to_string(e->states) +
                    " down-sets" +
                    (e->loss_in_mission ? "" : " (loss_in_mission too long to solve)");
      if (const auto f = exact_fraction_lost(); f && !importance_) exact_["fraction_lost"] = *f;
    } else {
      exact_note_ =
          "rebuild figures exact; mttdl_hours and loss_in_mission unknown (they need "
          "exponential lifetimes and repairs, no rebuild time, and at most 600 down-sets)";
    }
    if (outages_) exact_availability();
  }
}

// The long-run unavailability, exact where the chain of storage/down_out_chain.hpp is small: beside
// importance sampling's estimate of the same quantity, or as a fact beside naive simulation's
// fraction of the mission (which starts all new and stops counting a group once it is lost).
void placement_model::exact_availability() {
  steady_.reset();
  const auto a = exact_steady_availability(layout_, lifetime_);
  if (!a) {
    exact_note_ +=
        "; long-run unavailability: none (the chain needs exponential laws, device outages, no "
        "domain outages, no rebuild time, and at most 600 states)";
    return;
  }
  exact_note_ += "; long-run unavailability: chain on " + std::to_string(a->states) + " states";
  if (availability_walk_) {
    exact_["unavailability"] = a->unavailability;
    exact_["unavailable_events_per_year"] = a->unavailable_per_year;
  } else {
    steady_ = a;
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
  if (scenario_ == scenario::lifetime)
    f.push_back(
        {"method",
         std::string(importance_ ? "importance (failure biasing on the failed devices)" : "naive"),
         "how the lifetime quantities are estimated"});
  f.push_back({"exact_values", exact_note_, ""});
  if (steady_) {
    f.push_back({"steady_unavailability", steady_->unavailability,
                 "long-run fraction of time some group is unavailable, a lost group replaced at "
                 "once (exact; unavailability here is the mission's, from all new)"});
    f.push_back({"steady_unavailable_events_per_year", steady_->unavailable_per_year,
                 "long-run entries into unavailability per year (exact)"});
  }
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
  if (importance_) {
    lifetime_walk_settings w = walk_;
    w.of = &of_;
    r.record("cycle_hours", lifetime_cycle_hours(w, r.rng()));
    r.record("cycle_loss_probability", lifetime_cycle_loss_weight(w, r.rng()));
    r.record("loss_in_mission", lifetime_mission_loss_weight(w, mission_, r.rng()));
    if (availability_walk_) {
      storage::domain_walk_rates a = *availability_walk_;
      a.groups_of = &of_;
      r.record("availability_cycle_hours", storage::domain_availability_cycle_hours(a, r.rng()));
      const auto u = storage::domain_availability_weights(a, r.rng());
      r.record("unavailable_hours_per_cycle", u.unavailable_hours);
      r.record("unavailable_entries_per_cycle", u.entries);
    }
    return;
  }
  const lifetime_outcome o = simulate_lifetime(layout_, of_, lifetime_, r.rng());
  r.record(q_loss_in_mission, o.loss_hours <= mission_ ? 1.0 : 0.0);
  r.record(q_mttdl, o.loss_hours);
  const auto& first = rebuild_[static_cast<std::size_t>(std::max(o.first_failed, 0))];
  r.record(q_rebuild_hours, first.hours);
  r.record(q_rebuild_ratio, first.max_over_mean_load);
  const double years = mission_ / storage::hours_per_year;
  r.record("fraction_lost", o.groups_lost / static_cast<double>(layout_.groups.size()) / years);
  if (outages_) {
    r.record("unavailability", o.unavailable_hours / mission_);
    r.record("unavailable_events_per_year", o.unavailable_periods / years);
  }
}

// Without domain failures the devices fail and come back independently, so each group's loss is
// that of its own k devices alone, the same for every group: the expected fraction lost is one
// group's P(loss by the mission), from the chain of a layout that holds only that group.
std::optional<double> placement_model::exact_fraction_lost() const {
  if (lifetime_.domains.count > 0 && lifetime_.domains.failure_rate > 0) return std::nullopt;
  layout one;
  one.devices = one.group_size = layout_.group_size;
  one.groups.emplace_back();
  for (int d = 0; d < one.devices; ++d) one.groups[0].push_back(d);
  lifetime_settings s = lifetime_;
  s.domains = {};
  s.rebuild_hours.assign(static_cast<std::size_t>(one.devices), 0.0);
  const auto e = exact_lifetime(one, s, mission_);
  if (!e || !e->loss_in_mission) return std::nullopt;
  return *e->loss_in_mission / (mission_ / storage::hours_per_year);
}

}  // namespace mcpilot::placement
