#include "exact_study.hpp"

#include "storage_model.hpp"

namespace mcpilot::storage {

// The validation program's cases (tests/validation/storage_availability.cpp): unavailability
// with disk outages, by importance sampling of a rare state and by naive missions, each against
// the exact value of the availability chain (models/storage/availability_chain.hpp).
std::vector<exact_case> availability_cases() {
  using I = std::int64_t;
  const auto S = [](const char* s) { return param_value(std::string(s)); };
  std::vector<exact_case> cases = {
      {"3-way replication, outages 15 min at 1e-4 per hour (importance sampling)",
       {{"disks", I{3}},
        {"tolerance", I{2}},
        {"lifetime.mean_hours", 1e5},
        {"repair.mean_hours", 1.0},
        {"repair.parallel", true},
        {"outage.rate_per_hour", 1e-4},
        {"outage.mean_hours", 0.25},
        {"method", S("importance")}},
       "unavailability",
       {}},
      {"three mirrors with outages (importance sampling)",
       {{"disks", I{2}},
        {"tolerance", I{1}},
        {"groups", I{3}},
        {"lifetime.mean_hours", 1.0},
        {"repair.mean_hours", 0.1},
        {"outage.rate_per_hour", 2.0},
        {"outage.mean_hours", 0.2},
        {"method", S("importance")}},
       "unavailability",
       {}},
      {"mirror with outages, 3-hour missions (naive)",
       {{"disks", I{2}},
        {"tolerance", I{1}},
        {"lifetime.mean_hours", 1.0},
        {"repair.mean_hours", 0.1},
        {"outage.rate_per_hour", 2.0},
        {"outage.mean_hours", 0.2},
        {"mission_hours", 3.0}},
       "unavailability",
       {}},
  };
  // The same replica set with one replica in each of 3 domains, and domain outages as well.
  exact_case domains = cases.front();
  domains.label =
      "3-way replication across 3 domains, domain outages 2 h at 1e-5 (importance sampling)";
  domains.values.insert(domains.values.end() - 1, {{"domains.count", I{3}},
                                                   {"domains.outage_rate_per_hour", 1e-5},
                                                   {"domains.outage_mean_hours", 2.0}});
  cases.insert(cases.begin() + 1, std::move(domains));
  return cases;
}

validation_study exact_study() {
  using I = std::int64_t;
  const auto S = [](const char* s) { return param_value(std::string(s)); };
  auto cases = availability_cases();
  // Correlated failures by importance sampling: the biased walk on per-domain failed counts
  // (domain_walk.hpp) against that chain's exact P(loss in a year), about 1.3e-6.
  cases.push_back({"RAID-6 of 10 in 5 enclosures of 2, enclosure failures 1e-7/h (importance)",
                   {{"disks", I{10}},
                    {"tolerance", I{2}},
                    {"lifetime.mean_hours", 1e6},
                    {"repair.mean_hours", 24.0},
                    {"repair.parallel", true},
                    {"domains.count", I{5}},
                    {"domains.failure_rate_per_hour", 1e-7},
                    {"mission_hours", 8766.0},
                    {"method", S("importance")}},
                   "loss_in_mission",
                   {}});
  // Unavailability where no chain is solved: importance sampling on the explicit state
  // (domain_walk.hpp), two mirrors striped over two domains so that domain outages and failures
  // hit both groups. The known value is the whole system's chain written out independently in
  // Python (every running outage with the devices it holds) and solved sparse by scipy, domain
  // outages running together cut at 5 (tests/unit/storage_availability_walk_test.cpp).
  exact_case shared{
      "two mirrors striped over two domains, outages and domain events (importance, "
      "explicit state)",
      {{"disks", I{2}},
       {"tolerance", I{1}},
       {"groups", I{2}},
       {"lifetime.mean_hours", 1000.0},
       {"repair.mean_hours", 10.0},
       {"repair.parallel", true},
       {"outage.rate_per_hour", 1e-3},
       {"outage.mean_hours", 1.0},
       {"domains.count", I{2}},
       {"domains.outage_rate_per_hour", 2e-3},
       {"domains.outage_mean_hours", 2.0},
       {"domains.failure_rate_per_hour", 1e-4},
       {"method", S("importance")}},
      "unavailability",
      {}};
  shared.known = 2.4016048098e-4;
  cases.push_back(std::move(shared));
  return exact_value_study(
      "storage-exact",
      "storage.group's unavailability with disk and domain outages, and its loss with correlated "
      "enclosure failures: sessions cover the exact values of the availability chain, of the "
      "chain on per-domain failed counts and of the whole system's chain, by importance sampling "
      "(on the chains and on the explicit state) and by naive missions",
      [] { return std::make_unique<storage_model>(); }, cases, 40, 200);
}

}  // namespace mcpilot::storage
