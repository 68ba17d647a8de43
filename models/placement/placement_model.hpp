#pragma once
// The `placement.design` model: redundancy groups of k devices, each surviving t failures, placed
// on v devices by a block design or by a placement that is not one. What a set of simultaneous
// failures destroys, and how long a rebuild takes. See docs/models/placement.md.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mcpilot/model.hpp"
#include "placement/layout.hpp"
#include "placement/lifetime.hpp"
#include "placement/lifetime_walk.hpp"
#include "placement/rebuild.hpp"
#include "storage/domain_walk.hpp"

namespace mcpilot::placement {

class placement_model : public model {
 public:
  enum class scenario { failed, independent, lifetime };

  void declare(model_spec& spec) const override;
  void configure(const parameters& p) override;
  void replicate(replication& r) const override;
  std::map<std::string, double> analytic() const override { return exact_; }
  std::vector<model_fact> model_facts() const override;

  const layout& placement() const { return layout_; }
  const std::vector<device_rebuild>& rebuilds() const { return rebuild_; }

 private:
  void replicate_failures(replication& r) const;
  void replicate_lifetime(replication& r) const;
  void configure_importance(const parameters& p);
  void declare_importance(model_spec& s) const;
  std::optional<double> exact_fraction_lost() const;
  void exact_availability();

  layout layout_;
  layout_facts facts_;
  std::vector<std::vector<int>> of_;  // groups of each device
  scenario scenario_ = scenario::failed;
  int tolerance_ = 2;
  int failed_ = 3;
  double probability_ = 0.1;
  double mission_ = 0;
  bool outages_ = false;  // device or domain outages: unavailability is defined
  bool rebuild_given_ = false;
  std::vector<device_rebuild> rebuild_;
  rebuild_settings rebuild_settings_;
  lifetime_settings lifetime_;
  bool importance_ = false;  // method = importance: the loss by the walk of lifetime_walk.hpp
  lifetime_walk_settings walk_;
  // method = importance with outages: the long-run unavailability on storage's explicit-state
  // walk, or why it is not estimated.
  std::optional<storage::domain_walk_rates> availability_walk_;
  std::string availability_gap_;
  std::optional<storage::steady_availability>
      steady_;  // exact, shown beside naive's mission figure
  std::map<std::string, double> exact_;
  std::string exact_note_;  // how the exact P(loss) was found, or why it is not known
  std::optional<std::string> losing_sets_;    // "n of C(v, r)" for the failed scenario
  std::vector<std::int64_t> losing_by_size_;  // independent scenario: L_s, s = 0 … v
};

}  // namespace mcpilot::placement
