#include "mojette/mojette_model.hpp"

#include <algorithm>
#include <bit>
#include <boost/random/uniform_int_distribution.hpp>
#include <chrono>
#include <span>
#include <stdexcept>

#include "mojette/directions.hpp"
#include "mojette/encoder.hpp"
#include "mojette/recoverability.hpp"
#include "storage/duration_parameters.hpp"
#include "storage/nines.hpp"
#include "storage/outage_parameters.hpp"

namespace mcpilot::mojette {

namespace {

// Quantity positions, in the order declare() gives them.
constexpr std::size_t q_loss = 0;  // unrecoverable (independent) or loss_in_mission (lifetime)
constexpr std::size_t q_encode = 1;
constexpr std::size_t q_decode = 2;

// Plans of the decode sets are kept when they fit in this much memory (12 bytes per pixel each).
constexpr std::size_t plan_cache_bytes = 64u << 20;
// 2^n survivor sets are enumerated.
constexpr std::size_t max_projections = 20;

std::size_t rozofs_k(const std::string& name) {
  if (name == "rozofs-2-3") return 2;
  if (name == "rozofs-4-6") return 4;
  if (name == "rozofs-8-12") return 8;
  return 0;
}

double ns_between(std::chrono::steady_clock::time_point a,
                  std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::nano>(b - a).count();
}

}  // namespace

void mojette_model::declare(model_spec& s) const {
  s.describe(
      "A block stored as n Mojette projections on n servers (RozoFS layouts or custom "
      "projections): probability that the surviving projections cannot rebuild it (Katz "
      "criterion; exact over all 2^n survivor sets, and simulated), loss within a mission with "
      "server failures and rebuilds (durability_nines; with server outages, unavailability and "
      "unavailable_events_per_year), and the measured encode and decode time per byte.");
  s.choice("layout", "rozofs-4-6", {"rozofs-2-3", "rozofs-4-6", "rozofs-8-12", "custom"},
           "RozoFS layout 0, 1, 2 (k-of-n = 2-of-3, 4-of-6, 8-of-12: Q = k rows, projections "
           "(i - n/2, 1)), or custom: `projections` on `rows` rows");
  s.string("projections", "",
           "custom only: the directions [[p, q], ...], one projection per server; gcd(p, q) = 1, "
           "q >= 0, q = 0 only with p = +-1, no duplicates; at most 20");
  // At most block_bytes' own bound over 8: a row is at least one 64-bit word, and 8 x rows must
  // not overflow (2^62 rows once divided by zero).
  s.integer("rows", 0, "custom only: Q, the rows of 64-bit words a block is laid out in")
      .in_range(0, (1 << 30) / 8);
  s.integer("block_bytes", 4096,
            "bytes per block; a multiple of 8 x rows (Q rows of P 64-bit words, no padding)")
      .in_range(8, 1 << 30);
  s.choice("scenario", "independent", {"independent", "lifetime"},
           "independent: each server down with failure_probability; lifetime: failures and "
           "rebuilds over mission_hours, as in storage.group");
  s.number("failure_probability", 0.05, "independent: probability that a server is down")
      .in_range(0, 1);
  storage::declare_lifetime_parameters(s);
  storage::declare_repair_parameters(s);
  s.boolean("repair.parallel", false,
            "lifetime: rebuild all failed servers at once (false: one at a time, first come first "
            "served)");
  s.optional_number("mission_hours", "lifetime: mission time, hours (87,600 = 10 years)")
      .positive();
  storage::declare_outage_parameters(s);
  s.boolean("verify", false,
            "decode the block from the replication's survivors and compare it bit for bit, every "
            "replication (an error if they differ)");
  s.boolean("timing", true,
            "measure encode_ns_per_byte and decode_ns_per_byte (single-thread timings: run with "
            "threads = 1 for figures that mean anything)");

  if (lifetime_)
    s.proportion("loss_in_mission")
        .describe("1 if a failure within mission_hours leaves projections that fail Katz");
  else
    s.proportion("unrecoverable")
        .describe("1 if the surviving projections fail the Katz criterion, else 0");
  if (timing_) {
    s.quantity("encode_ns_per_byte")
        .with_unit("ns/B")
        .optional()
        .describe("time to compute all n projections of a fresh random block, per block byte");
    s.quantity("decode_ns_per_byte")
        .with_unit("ns/B")
        .optional()
        .describe(
            "time to rebuild the block from a smallest recoverable set, drawn uniformly, per "
            "block byte (the reconstruction order is prepared outside the timing)");
  }
  if (lifetime_) {
    storage::declare_durability_nines(s, scenario_.mission_hours);
    const double years = scenario_.mission_hours / storage::hours_per_year;
    s.derived("fraction_lost", {"loss_in_mission"},
              [years](std::span<const double> m) { return m[0] / years; })
        .optional()
        .describe(
            "the stored data (the one block) lost within the mission, per year of mission: "
            "loss_in_mission / years");
  }
  if (lifetime_ && scenario_.outage.active()) {
    s.quantity("unavailability")
        .optional()
        .describe(
            "fraction of the mission during which the block is unavailable though not lost (the "
            "servers up and not out fail Katz, the servers up pass it)");
    s.quantity("unavailable_events_per_year")
        .optional()
        .describe("periods of unavailability starting within the mission, per year of mission");
  }
  if (!lifetime_) {
    const std::string why =
        "it is a quantity of failures over time: set scenario = \"lifetime\" and mission_hours";
    for (const char* q : {"loss_in_mission", "durability_nines", "fraction_lost", "unavailability",
                          "unavailable_events_per_year"})
      s.not_estimated(q, why);
  } else if (!scenario_.outage.active()) {
    const std::string why =
        "no outages are configured (outage.rate_per_hour), so the block is never unavailable "
        "without being lost";
    s.not_estimated("unavailability", why);
    s.not_estimated("unavailable_events_per_year", why);
  }
}

void mojette_model::configure(const parameters& p) {
  const std::string& name = p.string("layout");
  const std::string& text = p.string("projections");
  const auto rows = static_cast<std::size_t>(p.integer("rows"));
  if (name != "custom") {
    if (!text.empty())
      throw parameter_error("projections", "projections applies to layout = custom only, not " +
                                               name + " (whose projections are fixed)");
    if (rows != 0)
      throw parameter_error(
          "rows", "rows applies to layout = custom only; " + name + " lays a block out in k rows");
    layout_ = rozofs_layout(rozofs_k(name));
  } else {
    if (text.empty())
      throw parameter_error("projections", "layout = custom needs projections = [[p, q], ...]");
    if (rows == 0) throw parameter_error("rows", "layout = custom needs rows (Q) >= 1");
    layout_.name = "custom";
    layout_.rows = rows;
    try {
      layout_.dirs = parse_directions(text);
      check_directions(layout_.dirs);
    } catch (const std::invalid_argument& e) {
      throw parameter_error("projections", e.what());
    }
    if (layout_.dirs.size() > max_projections)
      throw parameter_error("projections", "at most " + std::to_string(max_projections) +
                                               " projections (2^n survivor sets are enumerated), "
                                               "got " +
                                               std::to_string(layout_.dirs.size()));
  }
  block_bytes_ = static_cast<std::size_t>(p.integer("block_bytes"));
  try {
    grid_ = block_grid(block_bytes_, layout_.rows);
  } catch (const std::invalid_argument& e) {
    throw parameter_error("block_bytes", e.what());
  }
  const std::size_t n = layout_.dirs.size();
  recoverable_ = recoverable_sets(grid_, layout_.dirs);
  if (!recoverable_.back())
    throw parameter_error("projections",
                          "even all " + std::to_string(n) + " projections {" +
                              to_string(layout_.dirs) + "} fail the Katz criterion for a " +
                              std::to_string(grid_.P) + " x " + std::to_string(grid_.Q) +
                              " block: no server set can rebuild it");

  lifetime_ = p.string("scenario") == "lifetime";
  failure_probability_ = p.number("failure_probability");
  scenario_ = {};
  scenario_.servers = n;
  scenario_.lifetime = storage::read_lifetime(p);
  scenario_.repair = storage::read_repair(p);
  scenario_.parallel = p.boolean("repair.parallel");
  const auto mission = p.optional_number("mission_hours");
  if (lifetime_ && !mission)
    throw parameter_error("mission_hours", "scenario = lifetime needs mission_hours");
  if (!lifetime_ && mission)
    throw parameter_error("mission_hours",
                          "mission_hours applies to scenario = lifetime only, not independent");
  scenario_.mission_hours = mission.value_or(0);
  // Laws a double cannot simulate fail here, at load, never inside a replication.
  if (lifetime_) {
    storage::check_laws(scenario_.lifetime, scenario_.repair,
                        std::max(scenario_.mission_hours, 1.0));
    scenario_.outage = storage::read_outage(p, scenario_.mission_hours);
    storage::check_event_streams(scenario_.outage, {}, 0, static_cast<double>(n),
                                 scenario_.mission_hours, "the mission");
  } else if (p.has("outage.rate_per_hour")) {
    throw parameter_error("outage.rate_per_hour",
                          "outage.rate_per_hour applies to scenario = lifetime only, not "
                          "independent");
  }
  verify_ = p.boolean("verify");
  timing_ = p.boolean("timing");

  exact_.clear();
  if (lifetime_) {
    if (const auto e = exact_loss_in_mission(scenario_, recoverable_)) {
      exact_["loss_in_mission"] = *e;
      exact_["durability_nines"] = storage::durability_nines(*e, scenario_.mission_hours);
      exact_["fraction_lost"] = *e / (scenario_.mission_hours / storage::hours_per_year);
    }
    steady_.reset();
    if (const auto u = exact_unavailability(scenario_, recoverable_)) {
      exact_["unavailability"] = u->unavailability;
      exact_["unavailable_events_per_year"] = u->events_per_year;
      steady_ = u;
    }
  } else {
    exact_["unrecoverable"] = unrecoverable_probability(recoverable_, n, failure_probability_);
  }

  decode_sets_.clear();
  plans_.clear();
  const std::size_t smallest = recoverability_threshold(recoverable_, n).min_survivors;
  for (std::uint64_t m = 0; m < recoverable_.size(); ++m)
    if (recoverable_[m] && static_cast<std::size_t>(std::popcount(m)) == smallest)
      decode_sets_.push_back(m);
  if (timing_ && decode_sets_.size() * grid_.pixels() * 12 <= plan_cache_bytes)
    for (const std::uint64_t m : decode_sets_) {
      std::vector<direction> kept;
      for (std::size_t i = 0; i < n; ++i)
        if (m >> i & 1) kept.push_back(layout_.dirs[i]);
      plans_.push_back(std::make_shared<const reconstruction_plan>(grid_, kept));
    }
}

std::vector<std::uint64_t> mojette_model::random_block(philox_stream& rng) const {
  std::vector<std::uint64_t> block(grid_.pixels());
  for (auto& w : block) w = rng();
  return block;
}

void mojette_model::verify_decode(const std::vector<std::uint64_t>& block,
                                  const std::vector<std::vector<std::uint64_t>>& proj,
                                  std::uint64_t mask) const {
  std::vector<direction> kept;
  std::vector<std::span<const std::uint64_t>> bins;
  for (std::size_t i = 0; i < layout_.dirs.size(); ++i)
    if (mask >> i & 1) {
      kept.push_back(layout_.dirs[i]);
      bins.emplace_back(proj[i]);
    }
  std::vector<std::uint64_t> image(grid_.pixels());
  reconstruction_plan(grid_, kept).reconstruct(bins, image);
  if (image != block)
    throw std::logic_error("mojette.layout: the block decoded from projections {" +
                           to_string(kept) + "} differs from the block encoded");
}

void mojette_model::replicate(replication& r) const {
  const std::size_t n = layout_.dirs.size();
  std::uint64_t survivors = 0;
  if (lifetime_) {
    const mission_outcome o = simulate_mission(scenario_, recoverable_, r.rng());
    survivors = o.survivors;
    r.record(q_loss, o.lost ? 1.0 : 0.0);
    if (scenario_.outage.active()) {
      const double T = scenario_.mission_hours;
      r.record("unavailability", o.unavailable_hours / T);
      r.record("unavailable_events_per_year",
               o.unavailable_periods / (T / storage::hours_per_year));
    }
  } else {
    for (std::size_t i = 0; i < n; ++i)
      if (!(r.rng().uniform() < failure_probability_)) survivors |= std::uint64_t{1} << i;
    r.record(q_loss, recoverable_[survivors] ? 0.0 : 1.0);
  }
  if (!timing_ && !verify_) return;

  // A fresh block each replication, so that no timing reads a block left in cache by the last.
  const std::vector<std::uint64_t> block = random_block(r.rng());
  std::vector<std::vector<std::uint64_t>> proj(n);
  std::vector<std::span<std::uint64_t>> out;
  for (std::size_t i = 0; i < n; ++i) {
    proj[i].resize(bin_count(grid_, layout_.dirs[i]));
    out.emplace_back(proj[i]);
  }
  encoder enc(grid_, layout_.dirs);  // its workspace is set up outside the timed region
  const auto t0 = std::chrono::steady_clock::now();
  enc.encode(block, out);
  const auto t1 = std::chrono::steady_clock::now();
  const auto bytes = static_cast<double>(block_bytes_);

  if (timing_) {
    r.record(q_encode, ns_between(t0, t1) / bytes);
    const std::size_t pick =
        boost::random::uniform_int_distribution<std::size_t>(0, decode_sets_.size() - 1)(r.rng());
    const std::uint64_t mask = decode_sets_[pick];
    std::shared_ptr<const reconstruction_plan> plan;
    std::vector<std::span<const std::uint64_t>> bins;
    std::vector<direction> kept;
    for (std::size_t i = 0; i < n; ++i)
      if (mask >> i & 1) {
        kept.push_back(layout_.dirs[i]);
        bins.emplace_back(proj[i]);
      }
    plan = plans_.empty() ? std::make_shared<const reconstruction_plan>(grid_, kept) : plans_[pick];
    std::vector<std::uint64_t> image(grid_.pixels()), scratch(plan->scratch_words());
    const auto t2 = std::chrono::steady_clock::now();
    plan->reconstruct(bins, image, scratch);
    const auto t3 = std::chrono::steady_clock::now();
    if (image != block)
      throw std::logic_error("mojette.layout: the timed decode from projections {" +
                             to_string(kept) + "} differs from the block encoded");
    r.record(q_decode, ns_between(t2, t3) / bytes);
  }
  if (verify_ && recoverable_[survivors]) verify_decode(block, proj, survivors);
}

resource_estimate mojette_model::estimate() const {
  resource_estimate e;
  // Shared: the survivor table (a byte per set) and the cached decode plans (12 bytes a pixel).
  e.bytes = static_cast<double>(recoverable_.size()) +
            static_cast<double>(plans_.size()) * 12 * static_cast<double>(grid_.pixels());
  e.basis = "a block, its projections and one decode's image, scratch and plan per thread";
  return e;
}

double mojette_model::bytes_per_thread() const {
  if (!timing_ && !verify_) return 0;
  const double words = static_cast<double>(grid_.pixels());
  double bins = 0;
  for (const auto b : bins_per_projection(grid_, layout_.dirs)) bins += static_cast<double>(b);
  // Each replication holds the block and its projections, then one decode at a time (the timed
  // one, then the verifying one): an image, a scratch of at most max(bins, 2 x words) words, and
  // a plan of 12 bytes a pixel when none is cached.
  const double plan = plans_.empty() || verify_ ? 1.5 * words : 0;
  return 8 * (words + bins + words + std::max(bins, 2 * words) + plan);
}

std::vector<model_fact> mojette_model::model_facts() const {
  std::vector<std::int64_t> bins;
  for (const auto b : bins_per_projection(grid_, layout_.dirs))
    bins.push_back(static_cast<std::int64_t>(b));
  const std::size_t n = layout_.dirs.size();
  const threshold_info t = recoverability_threshold(recoverable_, n);
  std::int64_t sets = 0;
  for (const char c : recoverable_) sets += c;
  std::vector<model_fact> f{
      {"layout", layout_.name, ""},
      {"projections", to_string(layout_.dirs), "(p, q) per server"},
      {"grid", std::to_string(grid_.P) + " x " + std::to_string(grid_.Q),
       "P x Q 64-bit words per block"},
      {"bins_per_projection", bins, ""},
      {"overhead", overhead(grid_, layout_.dirs), "bins stored / words of data"},
      {"mds_overhead", mds_overhead(n, t.min_survivors),
       "n / k of an MDS code with the same n and smallest survivor count k"},
      {"min_survivors", static_cast<std::int64_t>(t.min_survivors),
       "fewest projections that can rebuild a block"},
      {"mds_recoverability", t.count_only,
       "every set of min_survivors or more projections rebuilds the block"},
      {"recoverable_sets", sets, "survivor sets (of 2^n) that satisfy Katz"},
  };
  if (steady_ && steady_->steady_unavailability) {
    f.push_back({"steady_unavailability", *steady_->steady_unavailability,
                 "long-run fraction of time the data is unavailable, a lost layout replaced at "
                 "once (exact; unavailability is the mission's, from all up)"});
    f.push_back({"steady_unavailable_events_per_year", *steady_->steady_events_per_year,
                 "long-run entries into unavailability per year (exact)"});
  }
  return f;
}

}  // namespace mcpilot::mojette
